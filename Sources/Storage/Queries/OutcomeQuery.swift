public import CivilTime
public import Foundation
public import Outcomes
public import Postgres
public import Ranking

/// Reads the outcome rollups of a window and the layout history they are matched against.
public struct OutcomeQuery: Sendable {
    public init() {}

    /// The `daily_outcomes` rows of an app for days [from, to], of one
    /// element type when given, summed over the segments `filter` keeps (by default every
    /// non-test segment, sql/0014): one row per day, element type and menu version.
    public func rows(appID: Int32, from: CivilDate, to: CivilDate, elementType: String? = nil, filter: SegmentFilter = .default,
                     on connection: PostgresConnection) throws(StorageError) -> [OutcomeAnalysis.DayRow]
    {
        let segments = try SegmentStore().ids(appID: appID, matching: filter, on: connection)
        return try StorageError.mapping {
            var query: PostgresQuery = """
                SELECT o.day::text, t.name AS element_type, o.menu_version, o.opens, o.dismissals,
                       array_to_string(o.positions, ',') AS positions,
                       array_to_string(o.position_counts, ',') AS position_counts,
                       array_to_string(o.latency_buckets, ',') AS latency_buckets,
                       array_to_string(o.latency_counts, ',') AS latency_counts
                FROM daily_outcomes o
                JOIN element_types t ON t.app_id = o.app_id AND t.element_type_id = o.element_type_id
                WHERE o.app_id = \(appID) AND o.day BETWEEN \(from) AND \(to)
                """
            query.append(" AND o.segment_id = ANY(\(segments))")
            if let elementType { query.append(" AND t.name = \(elementType)") }
            query.append(" ORDER BY o.day, t.name, o.menu_version")
            var merged: [OutcomeAnalysis.DayRow] = []
            for row in try connection.query(query).map({ row in
                let dayText: String = try row.decode(column: "day")
                guard let day = CivilDate(parsing: dayText) else {
                    throw StorageError(.database, "daily_outcomes holds an unreadable day \(dayText)")
                }
                func numbers(_ column: String) throws -> [Int64] {
                    let text: String = try row.decode(column: column)
                    return text.split(separator: ",").compactMap { Int64($0) }
                }
                let positions = try numbers("positions"), positionCounts = try numbers("position_counts")
                var positionMap: [Int: Int64] = [:]
                for (position, count) in zip(positions, positionCounts) { positionMap[Int(position), default: 0] += count }
                let latency = LatencyHistogram(buckets: try numbers("latency_buckets").map { Int($0) },
                                               counts: try numbers("latency_counts"))
                let tally = OutcomeTally(opens: try row.decode(column: "opens"), dismissals: try row.decode(column: "dismissals"),
                                         positions: positionMap, latency: latency)
                return OutcomeAnalysis.DayRow(day: day, elementType: try row.decode(column: "element_type"),
                                              menuVersion: try row.decode(column: "menu_version"), tally: tally)
            }) {
                // The segments of one day, element type and menu version come one after another.
                if let last = merged.last, last.day == row.day, last.elementType == row.elementType,
                   last.menuVersion == row.menuVersion
                {
                    merged[merged.count - 1].tally.merge(row.tally)
                } else {
                    merged.append(row)
                }
            }
            return merged
        }
    }

    /// Every stored layout of the app as the analysis needs it, with the prediction of the proposal
    /// each accepted layout came from (`predicted` reads it from the proposal's evidence).
    public func layouts(appID: Int32, on connection: PostgresConnection,
                        predicted: (String) -> PredictedEvidence? = { _ in nil }) throws -> [OutcomeAnalysis.Layout]
    {
        try connection.query("""
            SELECT l.element_type, l.layout_version, l.menu_version, l.proposal_id,
                   (l.created_at AT TIME ZONE 'UTC')::date::text AS first_day, p.evidence::text
            FROM layouts l
            LEFT JOIN proposals p ON p.app_id = l.app_id AND p.proposal_id = l.proposal_id
            WHERE l.app_id = \(appID)
            ORDER BY l.element_type, l.layout_version
            """).map { row in
            let dayText: String = try row.decode(column: "first_day")
            guard let day = CivilDate(parsing: dayText) else { throw StorageError(.database, "unreadable day \(dayText)") }
            let evidence: String? = try row.decode(column: "evidence")
            return OutcomeAnalysis.Layout(
                elementType: try row.decode(column: "element_type"),
                layoutVersion: Int(try row.decode(Int32.self, column: "layout_version")),
                menuVersion: try row.decode(column: "menu_version"), proposalID: try row.decode(Int64?.self, column: "proposal_id"),
                firstDay: day, predicted: evidence.flatMap(predicted))

        }
    }

    /// The outcome report of an app over days [from, to] (UTC): the rollup rows, the
    /// layout history (with what each accepted proposal predicted: `predicted` reads a proposal's
    /// evidence) and the rollout arms' menu versions, analysed by `OutcomeAnalysis`. What `menurank
    /// outcomes` prints and the admin API's `GET /v1/admin/outcomes` answers, read in one place.
    public func report(appID: Int32, appName: String, from: CivilDate, to: CivilDate, elementType: String?,
                       minimumSelections: Int64 = OutcomeComparison.defaultMinimumSelections,
                       filter: SegmentFilter = .default, predicted: (String) -> PredictedEvidence?,
                       on connection: PostgresConnection) throws -> OutcomeReport
    {
        let rows = try rows(appID: appID, from: from, to: to, elementType: elementType, filter: filter, on: connection)
        let layouts = try layouts(appID: appID, on: connection, predicted: predicted)
        // The rollout arms' menu versions, so their rows read as a rollout's and not as unknown.
        let rollouts = try RolloutStore().list(appID: appID, on: connection).map {
            OutcomeAnalysis.Rollout(elementType: $0.elementType, menuVersion: $0.menuVersion, rolloutID: $0.id,
                                    proposalID: $0.proposalID)
        }
        return OutcomeAnalysis(minimumSelections: minimumSelections)
            .report(app: appName, windowFrom: from, windowTo: to, rows: rows, layouts: layouts, rollouts: rollouts,
                    elementType: elementType)
    }
}
