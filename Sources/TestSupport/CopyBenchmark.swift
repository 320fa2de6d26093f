import CivilTime
public import Foundation
import Postgres

/// Compares `PostgresConnection.copyIn` with `psql \copy` on the same rows, shaped like the
/// events table, in one schema of the test database. Run by `scripts/bench-copy`.
public enum CopyBenchmark {
    /// The figures of one run.
    public struct Report: Sendable, CustomStringConvertible {
        public let rows: Int
        /// Best rows per second of each side over the rounds.
        public let swiftRowsPerSecond: Double
        public let psqlRowsPerSecond: Double
        /// Every round's seconds, in order.
        public let swiftSeconds: [Double]
        public let psqlSeconds: [Double]

        /// Swift's rate divided by psql's (the target is at least 0.9).
        public var ratio: Double { swiftRowsPerSecond / psqlRowsPerSecond }

        public var description: String {
            func rate(_ value: Double) -> String { String(format: "%.0f", value) }
            return """
                bench-copy rows=\(rows)
                bench-copy swift copyIn: \(rate(swiftRowsPerSecond)) rows/s (rounds: \(swiftSeconds.map { String(format: "%.3fs", $0) }.joined(separator: " ")))
                bench-copy psql \\copy:   \(rate(psqlRowsPerSecond)) rows/s (rounds: \(psqlSeconds.map { String(format: "%.3fs", $0) }.joined(separator: " ")))
                bench-copy ratio swift/psql: \(String(format: "%.3f", ratio)) (target >= 0.9)
                """
        }
    }

    static let columns = "app_id, day, event_id, time, element_type_id, command_id, user_hash, position, latency_ms"
    static let tableDefinition = """
        (app_id int4 not null, day date not null, event_id uuid not null, time timestamptz not null,
         element_type_id int4 not null, command_id int4 not null, user_hash int8 not null,
         position int2 not null, latency_ms int4 not null)
        """

    /// One generated event.
    struct Row {
        var appID: Int32
        var day: CivilDate
        var eventID: UUID
        var time: Date
        var elementTypeID: Int32
        var commandID: Int32
        var userHash: Int64
        var position: Int16
        var latency: Int32

        /// A deterministic, varied row for `index`.
        init(_ index: Int) {
            var state = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491_4F6C_DD1D
            func next() -> UInt64 {
                state ^= state >> 33
                state = state &* 0xFF51_AFD7_ED55_8CCD
                state ^= state >> 29
                return state
            }
            appID = Int32(1 + index % 3)
            let seconds = 1_700_000_000 + Double(index % 2_592_000) + Double(next() % 1_000_000) / 1_000_000
            time = Date(timeIntervalSince1970: seconds)
            day = UTCTimestamp(time).day
            let high = next()
            let low = next()
            eventID = withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { raw in
                UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], 0x40 | raw[6] & 0x0F, raw[7],
                            0x80 | raw[8] & 0x3F, raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
            }
            elementTypeID = Int32(next() % 40)
            commandID = Int32(next() % 400)
            userHash = Int64(bitPattern: next())
            position = Int16(next() % 20)
            latency = Int32(next() % 5_000)
        }

        func write(to writer: inout CopyWriter) throws {
            try writer.append(appID)
            try writer.append(day)
            try writer.append(eventID)
            try writer.append(time)
            try writer.append(elementTypeID)
            try writer.append(commandID)
            try writer.append(userHash)
            try writer.append(position)
            try writer.append(latency)
            try writer.endRow()
        }
    }

    /// Runs `rounds` alternating rounds of each side on `rows` rows, in a fresh schema of the
    /// test database (`TestDatabase`); `psql` connects with the same settings.
    public static func run(rows: Int, rounds: Int = 2, psql: URL = URL(fileURLWithPath: "/usr/bin/psql")) throws -> Report {
        try TestDatabase.withSchema(prefix: "bench") { schema in
            let conn = try schema.connect()
            try conn.execute("create table events_swift \(unsafeRaw: tableDefinition)")
            try conn.execute("create table events_psql \(unsafeRaw: tableDefinition)")

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-copy-\(UUID().uuidString).tsv")
            defer { try? FileManager.default.removeItem(at: file) }
            func runPsql(_ command: String) throws {
                let result = try ChildProcess.run(
                    psql, ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", schema.connectionString, "-c", command])
                guard result.status == 0 else {
                    throw PostgresError(kind: .copy, message: "psql exited with \(result.status): \(result.standardError)")
                }
            }
            func seconds(since start: DispatchTime) -> Double {
                Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            }

            var swiftSeconds: [Double] = []
            var psqlSeconds: [Double] = []
            for round in 0..<rounds {
                try conn.execute("truncate events_swift")
                try conn.execute(unsafeSQL: "checkpoint")
                let swiftStart = DispatchTime.now()
                let stored = try conn.copyIn("copy events_swift (\(unsafeRaw: columns)) from stdin") { writer in
                    for index in 0..<rows { try Row(index).write(to: &writer) }
                }
                swiftSeconds.append(seconds(since: swiftStart))
                guard stored == rows else { throw PostgresError(kind: .copy, message: "stored \(stored) of \(rows) rows") }
                if round == 0 {
                    // psql loads the very same rows, from a file written beforehand (not timed).
                    try runPsql("\\copy events_swift (\(columns)) to '\(file.path)'")
                }

                try conn.execute("truncate events_psql")
                try conn.execute(unsafeSQL: "checkpoint")
                let psqlStart = DispatchTime.now()
                try runPsql("\\copy events_psql (\(columns)) from '\(file.path)'")
                psqlSeconds.append(seconds(since: psqlStart))
            }
            // Both tables hold the same rows.
            let difference = try conn.query("""
                select count(*) as difference from ((table events_swift except all table events_psql)
                                                    union all (table events_psql except all table events_swift)) d
                """).first!.decode(Int.self, column: "difference")

            guard difference == 0 else {
                throw PostgresError(kind: .copy, message: "the two tables differ in \(difference) rows")
            }
            return Report(
                rows: rows, swiftRowsPerSecond: Double(rows) / swiftSeconds.min()!,
                psqlRowsPerSecond: Double(rows) / psqlSeconds.min()!, swiftSeconds: swiftSeconds,
                psqlSeconds: psqlSeconds)
        }
    }
}
