import Foundation
import Postgres
import Storage
import TestSupport
import Testing

/// Issue 3's storage target: on-disk size per stored event, indexes included, under 150 bytes.
/// Random v4-like ids (the worst case for the primary key index). `MENURANK_STORAGE_EVENTS` sets
/// the number of events (default 100,000; the figure in the notes used 1,000,000).
@Suite(TestDatabase.enabled) struct StorageSizeTests {
    @Test func bytesPerStoredEventStayUnder150() throws {
        let total = ProcessInfo.processInfo.environment["MENURANK_STORAGE_EVENTS"].flatMap(Int.init) ?? 100_000
        try StorageFixture.with(prefix: "size") { fixture in
            let writer = fixture.makeWriter(writers: 1)
            defer { writer.shutdown() }
            let perWrite = 5_000
            var accepted = 0
            for chunk in 0..<(total / perWrite) {
                // Spread over three closed days (before yesterday), so compaction applies.
                let day = Rows.today - 2 - Int32(chunk % 3)
                accepted += try writer.write(Rows.make(appID: 1, count: perWrite, seed: UInt64(chunk) + 1000, day: day)).accepted
            }
            #expect(accepted == total / perWrite * perWrite)
            let connection = try fixture.connect()
            func bytesPerEvent() throws -> Double {
                try connection.execute(unsafeSQL: "CHECKPOINT")
                // On Citus the rows are in the partitions' shards on the workers.
                let size = TestDatabase.distributed ? "citus_total_relation_size" : "pg_total_relation_size"
                let bytes: Int64 = try connection.query(PostgresQuery(unsafeSQL: """
                    SELECT sum(\(size)(inhrelid))::int8 FROM pg_inherits
                    WHERE inhparent = 'events'::regclass
                    """))[0].decode(at: 0)
                return Double(bytes) / Double(accepted)
            }
            let raw = try bytesPerEvent()
            let rebuilt = try writer.partitions.compact(on: connection)
            let compacted = try bytesPerEvent()
            print("storage: \(accepted) events; \(String(format: "%.1f", raw)) bytes/event while the days take events, "
                  + "\(String(format: "%.1f", compacted)) after compacting \(rebuilt) indexes")
            #expect(rebuilt == 3)
            #expect(compacted < raw)
            #expect(compacted < 150)
            // Compacted indexes are not rebuilt again.
            #expect(try writer.partitions.compact(on: connection) == 0)
        }
    }
}
