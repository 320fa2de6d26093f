import Menus
import Nightly
import Postgres
import Ranking
import Storage

/// Rankings read from the rollups, in the shapes the pipeline commands need.
enum PipelineUsage {
    /// The ranking of every element type of an app with use in the window, by element type.
    /// `helper`, a second connection, shares out the reading (see `RankingQuery.activities`).
    /// `filter` picks the events counted (by default every non-test event).
    static func rank(appID: Int32, window: RankingWindow, confidence: Double, elementTypes: Set<String>? = nil,
                     includePrevious: Bool, filter: SegmentFilter = .default, on connection: PostgresConnection,
                     alongside helper: PostgresConnection? = nil)
        throws -> [String: ElementTypeUsage]
    {
        let query = RankingQuery(appID: appID, window: window, elementTypes: elementTypes,
                                 includePrevious: includePrevious,
                                 segments: try PipelineSegments.segments(filter, appID: appID, on: connection))
        let ranker = Ranker(window: window, confidence: confidence)
        var out: [String: ElementTypeUsage] = [:]
        for activity in try query.activities(on: connection, alongside: helper) {
            out[activity.elementType] = ranker.rank(activity)
        }
        return out
    }

    /// Rolls up what is queued for the app (as `recommend` does first), so that a reading of the
    /// rollups right after counts every stored event: `rank`, `outcomes`, `report` and lint call
    /// it before they read.
    static func foldPending(appID: Int32, on connection: PostgresConnection, alongside helper: PostgresConnection? = nil) throws {
        _ = try RollupStore(asynchronousCommit: true).rollUp(appID: appID, on: connection, alongside: helper)
    }

    /// What lint's usage rules (HIG-1, HIG-5) read, as the nightly run reads them.
    static func menuUsage(_ usages: [String: ElementTypeUsage]) -> MenuUsage { NightlyRun.menuUsage(usages) }
}
