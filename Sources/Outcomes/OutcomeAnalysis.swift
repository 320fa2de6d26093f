public import CivilTime

/// Builds an `OutcomeReport` from the daily outcome rollups and the app's layout history. Pure:
/// the same rows and layouts give the same report.
///
/// Time trends (people get faster with any menu they use for longer; load varies by weekday) make a
/// before/after comparison unfair, so an accepted layout is compared with its predecessor over the
/// days on which both were served, while clients still ran mixed versions, when those days hold
/// enough selections on each side; otherwise over adjacent windows (the predecessor before the
/// accept, the new layout after it, both inside the window), and the report says which.
public struct OutcomeAnalysis: Sendable {
    /// One row of `daily_outcomes`.
    public struct DayRow: Hashable, Sendable {
        public var day: CivilDate
        public var elementType: String
        public var menuVersion: String
        public var tally: OutcomeTally

        public init(day: CivilDate, elementType: String, menuVersion: String, tally: OutcomeTally) {
            self.day = day
            self.elementType = elementType
            self.menuVersion = menuVersion
            self.tally = tally
        }
    }

    /// One stored layout of an element type.
    public struct Layout: Hashable, Sendable {
        public var elementType: String
        public var layoutVersion: Int
        public var menuVersion: String
        /// The proposal it was accepted from; nil for a manifest import.
        public var proposalID: Int64?
        /// The UTC day it became current.
        public var firstDay: CivilDate
        public var predicted: PredictedEvidence?

        public init(elementType: String, layoutVersion: Int, menuVersion: String, proposalID: Int64?, firstDay: CivilDate,
                    predicted: PredictedEvidence? = nil)
        {
            self.elementType = elementType
            self.layoutVersion = layoutVersion
            self.menuVersion = menuVersion
            self.proposalID = proposalID
            self.firstDay = firstDay
            self.predicted = predicted
        }
    }

    /// The rollout arm of a rollout: its menu version is reserved at the start and becomes a stored
    /// layout's only if the rollout is promoted, so until then it is told apart from an unknown one.
    public struct Rollout: Hashable, Sendable {
        public var elementType: String
        public var menuVersion: String
        public var rolloutID: Int64
        public var proposalID: Int64

        public init(elementType: String, menuVersion: String, rolloutID: Int64, proposalID: Int64) {
            self.elementType = elementType
            self.menuVersion = menuVersion
            self.rolloutID = rolloutID
            self.proposalID = proposalID
        }
    }

    public var minimumSelections: Int64

    public init(minimumSelections: Int64 = OutcomeComparison.defaultMinimumSelections) {
        self.minimumSelections = minimumSelections
    }

    public func report(app: String, windowFrom: CivilDate, windowTo: CivilDate, rows: [DayRow], layouts: [Layout],
                       rollouts: [Rollout] = [], elementType only: String? = nil) -> OutcomeReport
    {
        let days = windowFrom...windowTo
        let inWindow = rows.filter { days.contains($0.day) && (only == nil || $0.elementType == only) }
        let byType = Dictionary(grouping: inWindow, by: \.elementType)
        let layoutsByType = Dictionary(grouping: layouts, by: \.elementType)
        let rolloutsByType = Dictionary(grouping: rollouts, by: \.elementType)
        var out: [ElementOutcomes] = []
        for elementType in byType.keys.sorted() {
            let typeRows = byType[elementType]!
            let typeLayouts = (layoutsByType[elementType] ?? []).sorted { $0.layoutVersion < $1.layoutVersion }
            out.append(ElementOutcomes(elementType: elementType, versions: versions(typeRows, layouts: typeLayouts,
                                                                                     rollouts: rolloutsByType[elementType] ?? []),
                                       comparisons: comparisons(typeRows, layouts: typeLayouts)))
        }
        return OutcomeReport(app: app, windowFrom: windowFrom, windowTo: windowTo, elementTypes: out)
    }

    private func versions(_ rows: [DayRow], layouts: [Layout], rollouts: [Rollout]) -> [VersionOutcome] {
        let known = Dictionary(layouts.map { ($0.menuVersion, $0) }, uniquingKeysWith: { a, _ in a })
        let arms = Dictionary(rollouts.map { ($0.menuVersion, $0) }, uniquingKeysWith: { a, _ in a })
        var result: [VersionOutcome] = []
        for (menuVersion, versionRows) in Dictionary(grouping: rows, by: \.menuVersion) {
            var tally = OutcomeTally()
            versionRows.forEach { tally.merge($0.tally) }
            let days = Set(versionRows.filter { $0.tally.opens > 0 }.map(\.day)).count
            let status: VersionOutcome.Status
            if menuVersion.isEmpty {
                status = .notSent
            } else if let layout = known[menuVersion] {
                status = .known(layoutVersion: layout.layoutVersion, proposalID: layout.proposalID)
            } else if let rollout = arms[menuVersion] {
                status = .rollout(rolloutID: rollout.rolloutID, proposalID: rollout.proposalID)
            } else {
                status = .unknown
            }
            result.append(VersionOutcome(menuVersion: menuVersion, status: status, tally: tally, days: days))
        }
        func key(_ v: VersionOutcome) -> (Int, Int, String) {
            switch v.status {
            case .known(let layoutVersion, _): return (0, layoutVersion, v.menuVersion)
            case .rollout(let rolloutID, _): return (1, Int(rolloutID), v.menuVersion)
            case .unknown: return (2, 0, v.menuVersion)
            case .notSent: return (3, 0, "")
            }
        }
        return result.sorted { key($0) < key($1) }
    }

    private func comparisons(_ rows: [DayRow], layouts: [Layout]) -> [LayoutComparison] {
        var result: [LayoutComparison] = []
        let byVersion = Dictionary(layouts.map { ($0.layoutVersion, $0) }, uniquingKeysWith: { a, _ in a })
        let rowsByMenuVersion = Dictionary(grouping: rows, by: \.menuVersion)
        for layout in layouts where layout.proposalID != nil {
            guard let previous = byVersion[layout.layoutVersion - 1] else { continue }
            let oldRows = rowsByMenuVersion[previous.menuVersion] ?? []
            let newRows = rowsByMenuVersion[layout.menuVersion] ?? []
            guard !oldRows.isEmpty || !newRows.isEmpty else { continue }
            let comparison = compare(old: oldRows, new: newRows, acceptedDay: layout.firstDay)
            result.append(LayoutComparison(
                proposalID: layout.proposalID, oldMenuVersion: previous.menuVersion,
                oldLayoutVersion: previous.layoutVersion, newMenuVersion: layout.menuVersion,
                newLayoutVersion: layout.layoutVersion, comparison: comparison, predicted: layout.predicted))
        }
        return result
    }

    /// Same days when both versions were served on days holding enough selections on each side,
    /// else adjacent windows around the accept day.
    func compare(old: [DayRow], new: [DayRow], acceptedDay: CivilDate) -> OutcomeComparison {
        let oldDays = Set(old.filter { $0.tally.opens > 0 }.map(\.day))
        let newDays = Set(new.filter { $0.tally.opens > 0 }.map(\.day))
        let shared = oldDays.intersection(newDays)
        let oldShared = sum(old.filter { shared.contains($0.day) })
        let newShared = sum(new.filter { shared.contains($0.day) })
        if !shared.isEmpty, oldShared.latency.total >= minimumSelections, newShared.latency.total >= minimumSelections {
            return OutcomeComparison(old: oldShared, new: newShared, method: .sameDays(shared.sorted()),
                                     minimumSelections: minimumSelections)
        }
        let before = old.filter { $0.day < acceptedDay }
        let after = new.filter { $0.day >= acceptedDay }
        return OutcomeComparison(
            old: sum(before), new: sum(after),
            method: .adjacentWindows(before: Set(before.map(\.day)).sorted(), after: Set(after.map(\.day)).sorted()),
            minimumSelections: minimumSelections)
    }

    private func sum(_ rows: [DayRow]) -> OutcomeTally {
        var tally = OutcomeTally()
        rows.forEach { tally.merge($0.tally) }
        return tally
    }
}
