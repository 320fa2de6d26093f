import CivilTime
import Postgres
import Ranking
@testable import Storage
import Testing
import TestSupport

/// `RankingQuery.snapshot`: a read of the window in a transaction of its own sees one moment
/// (REPEATABLE READ, READ ONLY) and plans serially, as each share of a split read does (a night's
/// read beside its rollup had started two parallel workers per statement); inside the caller's
/// transaction it changes none of the caller's settings.
@Suite(TestDatabase.enabled) struct RankingSnapshotTests {
    static let names = ["transaction_isolation", "transaction_read_only", "max_parallel_workers_per_gather"]

    static func settings(on connection: PostgresConnection) throws -> [String] {
        try names.map { name in
            let rows = try connection.query("SELECT current_setting(\(name)) AS value")
            return try #require(rows.first).decode(String.self, column: "value")
        }
    }

    @Test func aSnapshotOfItsOwnReadsOneMomentWithoutParallelWorkers() throws {
        let connection = try TestDatabase.connect()
        let query = RankingQuery(appID: 1, window: RankingWindow(asOf: CivilDate(dayNumber: 20_000)))
        let outside = try Self.settings(on: connection)
        #expect(outside[2] != "0", "the cluster's own setting must allow workers for this test to tell anything")

        let inside = try query.snapshot(connection) { try Self.settings(on: $0) }
        #expect(inside == ["repeatable read", "on", "0"])
        // SET LOCAL: the connection's own settings come back after the snapshot's transaction.
        #expect(try Self.settings(on: connection) == outside)

        let callers = try connection.withTransaction { transaction in
            try query.snapshot(transaction) { try Self.settings(on: $0) }
        }
        #expect(callers == outside)
    }
}
