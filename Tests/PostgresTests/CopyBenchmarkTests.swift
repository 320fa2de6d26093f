import Foundation
import Postgres
import TestSupport
import Testing

/// Runs only from `scripts/bench-copy` (which sets `BENCH_COPY_ROWS` and builds in release).
@Suite struct CopyBenchmarkTests {
    static let rows = ProcessInfo.processInfo.environment["BENCH_COPY_ROWS"].flatMap { Int($0) }

    @Test(.enabled(if: rows != nil, "set BENCH_COPY_ROWS (scripts/bench-copy does) to run the COPY benchmark"))
    func copyBenchmark() throws {
        let report = try CopyBenchmark.run(rows: Self.rows ?? 0)
        print(report)
        #expect(report.swiftRowsPerSecond > 0 && report.psqlRowsPerSecond > 0)
    }
}
