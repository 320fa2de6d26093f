/// Ranks the commands of an element type by use over a window.
///
/// Decay and the Wilson interval: with a half-life, each selection on day d weighs
/// w = 0.5^((asOf - d) / halfLife). The share of a command is its weighted selections over the
/// element type's weighted selections. Weighted counts are not counts of independent trials, so
/// the interval uses Kish's effective sample size n_eff = (sum w)^2 / sum w^2 (sums over selection
/// events, i.e. sum of count x w and count x w^2 over days): the Wilson interval is computed for
/// share x n_eff successes of n_eff trials. Without decay every weight is 1 and this is exactly
/// the interval for the raw counts. Trends always compare raw counts.
///
/// User-days (per day, the distinct people who picked a command, summed over the window) are
/// weighted by the same day weights, and rescaled by the same factor as the selections
/// (n_eff / sum w), so that `effectiveUserDays` and `effectiveSelections` are on one scale. Reach is
/// the command's distinct users out of the element type's, with a Wilson interval. The split by
/// person bucket (`PeopleCounts`) is summed and scaled like the counts it splits.
public struct Ranker: Sendable {
    public var window: RankingWindow
    public var confidence: Double

    public init(window: RankingWindow, confidence: Double = 0.95) {
        self.window = window
        self.confidence = confidence
    }

    public func rank(_ activity: ElementTypeActivity) -> ElementTypeUsage {
        let previousWindow = window.previous
        var raw: [String: Int] = [:]
        var weighted: [String: Double] = [:]
        var rawUserDays: [String: Int] = [:]
        var weightedUserDays: [String: Double] = [:]
        var previous: [String: Int] = [:]
        var people: [String: PeopleCounts] = [:]
        var sumW = 0.0
        var sumW2 = 0.0
        for row in activity.days where row.selections > 0 {
            if window.days.contains(row.day) {
                let w = window.weight(day: row.day)
                rawUserDays[row.command, default: 0] += max(0, row.userDays)
                weightedUserDays[row.command, default: 0] += Double(max(0, row.userDays)) * w
                raw[row.command, default: 0] += row.selections
                weighted[row.command, default: 0] += Double(row.selections) * w
                people[row.command, default: .zero].add(row.people, weight: w)
                sumW += Double(row.selections) * w
                sumW2 += Double(row.selections) * w * w
            } else if previousWindow.days.contains(row.day) {
                previous[row.command, default: 0] += row.selections
            }
        }
        let effectiveN = sumW2 > 0 ? sumW * sumW / sumW2 : 0
        let z = NormalDistribution.criticalValue(confidence: confidence)
        let scale = sumW > 0 ? effectiveN / sumW : 0
        let menuUsers = Double(max(0, activity.users))

        var ids = Set(raw.keys).union(previous.keys)
        for (command, users) in activity.commandUsers where users > 0 { ids.insert(command) }
        var commands: [CommandUsage] = []
        for id in ids {
            let w = weighted[id] ?? 0
            let share = sumW > 0 ? w / sumW : 0
            let effective = share * effectiveN
            let current = raw[id] ?? 0
            let before = previous[id] ?? 0
            commands.append(CommandUsage(
                command: id, selections: current, weightedSelections: w, effectiveSelections: effective,
                share: share, shareInterval: WilsonInterval(successes: effective, trials: effectiveN, z: z),
                users: activity.commandUsers[id] ?? 0, userDays: rawUserDays[id] ?? 0,
                weightedUserDays: weightedUserDays[id] ?? 0, effectiveUserDays: (weightedUserDays[id] ?? 0) * scale,
                reach: WilsonInterval(successes: Double(activity.commandUsers[id] ?? 0), trials: menuUsers, z: z),
                previousSelections: before,
                trend: Trend.between(previous: before, current: current),
                people: (people[id] ?? (raw[id] == nil ? .zero : .unknown)).scaled(by: scale)))
        }
        commands.sort {
            if $0.weightedSelections != $1.weightedSelections { return $0.weightedSelections > $1.weightedSelections }
            return $0.command < $1.command
        }

        let selections = raw.values.reduce(0, +)
        let previousSelections = previous.values.reduce(0, +)
        let dismissals = activity.dismissals.filter { window.days.contains($0.key) }.values.reduce(0) { $0 + max(0, $1) }
        let opens = selections + dismissals
        return ElementTypeUsage(
            elementType: activity.elementType, window: window, selections: selections, weightedSelections: sumW,
            effectiveSampleSize: effectiveN, users: activity.users, dismissals: dismissals, opens: opens,
            dismissalRate: opens > 0 ? Double(dismissals) / Double(opens) : nil,
            previousSelections: previousSelections,
            trend: Trend.between(previous: previousSelections, current: selections), commands: commands)
    }
}
