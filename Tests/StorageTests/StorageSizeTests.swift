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
                // Spread over three days like real traffic.
                let day = Rows.today - Int32(chunk % 3)
                accepted += try writer.write(Rows.make(appID: 1, count: perWrite, seed: UInt64(chunk) + 1000, day: day)).accepted
            }
            #expect(accepted == total / perWrite * perWrite)
            let connection = try fixture.connect()
            try connection.execute(unsafeSQL: "CHECKPOINT")
            let bytes: Int64 = try connection.query("""
                SELECT sum(pg_total_relation_size(inhrelid))::int8 FROM pg_inherits WHERE inhparent = 'events'::regclass
                """)[0].decode(at: 0)
            let perEvent = Double(bytes) / Double(accepted)
            print("storage: \(accepted) events, \(bytes) bytes, \(String(format: "%.1f", perEvent)) bytes/event")
            #expect(perEvent < 150)
        }
    }
}
