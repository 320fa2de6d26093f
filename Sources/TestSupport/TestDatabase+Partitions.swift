import Foundation
public import Postgres

extension TestDatabase {
    /// Attempts at partition DDL before a test gives up (`PartitionManager`'s `attempts`): on Citus
    /// each day's partition creates shards on the workers, so the DDL of the suites running at the
    /// same time holds `events` far longer than on one node and sql/0010's 1 s lock timeout hits
    /// more often.
    public static var ddlAttempts: Int { distributed ? 30 : 5 }

    /// Creates the daily partitions of `events` for the `days` days ending with `last`
    /// (`YYYY-MM-DD`) in the connection's schema, as the daemon's maintainer does: with sql/0010's
    /// `ensure_event_partitions`, whose 1 s lock timeout may hit while other DDL runs (on a Citus
    /// cluster, the schemas other suites create and distribute at the same time), so a lock timeout
    /// or deadlock is retried. Call it outside a transaction: a timeout aborts the transaction.
    public static func ensureEventPartitions(through last: String, days: Int = 1,
                                             on connection: PostgresConnection) throws
    {
        var attempt = 1
        while true {
            do {
                try connection.execute("SELECT ensure_event_partitions(\(last)::date - \(Int32(days - 1)), \(last)::date)")
                return
            } catch let error as PostgresError
                where attempt < ddlAttempts && (error.sqlState == .lockNotAvailable || error.sqlState == .deadlockDetected)
            {
                Thread.sleep(forTimeInterval: min(1, 0.2 * Double(attempt)))
                attempt += 1
            }
        }
    }
}
