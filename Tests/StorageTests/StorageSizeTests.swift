import Foundation
import Postgres
import Storage
import TestSupport
import Testing

/// Storage per event, indexes and what dedupe needs included (issue 13, item 3): at most 100 bytes
/// once a day is closed and maintained (sql/0015: rows in (app_id, event_id) order, a BRIN index
/// instead of the unique btree), measured as pg_total_relation_size of the days' partitions over
/// their rows. Random v4-like ids (the worst case for an open day's unique index).
/// `MENURANK_STORAGE_EVENTS` sets the number of events (default 100,000; scripts/bench-storage
/// measures 1,000,000).
@Suite(TestDatabase.enabled) struct StorageSizeTests {
    @Test func aClosedDayTakesAtMost100BytesPerEvent() throws {
        let total = ProcessInfo.processInfo.environment["MENURANK_STORAGE_EVENTS"].flatMap(Int.init) ?? 100_000
        try StorageFixture.with(prefix: "size") { fixture in
            let writer = fixture.makeWriter(writers: 1)
            defer { writer.shutdown() }
            let perWrite = 5_000
            var accepted = 0
            for chunk in 0..<(total / perWrite) {
                // Spread over three days before yesterday, which maintenance closes.
                let day = Rows.today - 2 - Int32(chunk % 3)
                accepted += try writer.write(Rows.make(appID: 1, count: perWrite, seed: UInt64(chunk) + 1000, day: day)).accepted
            }
            #expect(accepted == total / perWrite * perWrite)
            let connection = try fixture.connect()
            func bytesPerEvent() throws -> Double {
                try connection.execute(unsafeSQL: "CHECKPOINT")
                guard TestDatabase.distributed else {
                    let bytes: Int64 = try connection.query("""
                        SELECT sum(pg_total_relation_size(inhrelid))::int8 FROM pg_inherits
                        WHERE inhparent = 'events'::regclass
                        """)[0].decode(at: 0)
                    return Double(bytes) / Double(accepted)
                }
                // On Citus the rows are in the partitions' shards on the workers; each shard has a
                // fixed size of its own (BRIN meta and revmap pages, free space map), which the
                // shards left empty here (one app, so one shard of eight a day) would add to a
                // figure meant per event: only the shards holding rows count.
                var bytes: Int64 = 0
                for partition in try connection.query("""
                    SELECT inhrelid::regclass::text FROM pg_inherits WHERE inhparent = 'events'::regclass
                    """).map({ try $0.decode(String.self, at: 0) })
                {
                    for row in try connection.query("""
                        SELECT result FROM run_command_on_shards(\(partition)::regclass,
                            $$SELECT pg_total_relation_size('%1$s') || ' ' || (SELECT count(*) FROM %1$s)$$)
                        """)
                    {
                        let fields = try row.decode(String.self, at: 0).split(separator: " ").compactMap { Int64($0) }
                        try #require(fields.count == 2)
                        if fields[1] > 0 { bytes += fields[0] }
                    }
                }
                return Double(bytes) / Double(accepted)
            }
            let raw = try bytesPerEvent()
            let closed = try writer.partitions.close(on: connection)
            let maintained = try bytesPerEvent()
            print("storage: \(accepted) events; \(String(format: "%.1f", raw)) bytes/event while the days are open, "
                  + "\(String(format: "%.1f", maintained)) once \(closed.count) days are closed")
            #expect(closed == [Rows.today - 4, Rows.today - 3, Rows.today - 2].map(Rows.date))
            #expect(raw > 130)
            #expect(maintained <= 100)
            // Closed days are not closed again.
            #expect(try writer.partitions.close(on: connection) == [])
        }
    }
}
