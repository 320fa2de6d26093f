import CivilTime
import Events
import Foundation
import Testing

/// Decode speed of `EventBatchDecoder` against Foundation's `JSONDecoder` on the same realistic
/// 500-event batch. Off by default; run it in release mode:
///
///     MENURANK_BENCH=1 swift test -c release --filter DecodeBenchmark
///
/// It prints events per second for both and their ratio; it asserts only that both decoders agree,
/// never a duration.
@Suite("DecodeBenchmark", .enabled(if: ProcessInfo.processInfo.environment["MENURANK_BENCH"] == "1"))
struct DecodeBenchmarkTests {
    /// What a Codable-based server would decode the same body into.
    struct CodableBatch: Decodable {
        struct Context: Decodable {
            var app_version: String?
            var platform: String?
            var locale: String?
            var is_test: Bool?
        }
        struct Event: Decodable {
            var id: UUID
            var time: Date
            var element_type: String
            var command: String?
            var kind: String?
            var position: Int?
            var latency_ms: Int?
            var menu_version: String?
            var user: String?
            var session: String?
            var trigger: String?
        }
        var sent_at: Date?
        var context: Context?
        var events: [Event]
    }

    static func codableDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        nonisolated(unsafe) let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        decoder.dateDecodingStrategy = .custom { d in
            let text = try d.singleValueContainer().decode(String.self)
            guard let date = formatter.date(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: d.codingPath, debugDescription: "bad date"))
            }
            return date
        }
        return decoder
    }

    /// Runs `body` repeatedly for at least `budget` and returns runs per second.
    static func rate(budget: Duration = .milliseconds(1500), _ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        try body()  // warm up
        var runs = 0
        let start = clock.now
        var elapsed = Duration.zero
        while elapsed < budget {
            try body()
            runs += 1
            elapsed = clock.now - start
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(runs) / seconds
    }

    @Test func decodeSpeed() throws {
        let count = 500
        let text = SampleBodies.realisticBatch(count: count)
        let bytes = Array(text.utf8)
        let data = Foundation.Data(bytes)
        let decoder = EventBatchDecoder()
        let codable = Self.codableDecoder()

        let ours = try decoder.decode(bytes)
        let theirs = try codable.decode(CodableBatch.self, from: data)
        #expect(ours.events.count == count)
        #expect(theirs.events.count == count)
        #expect(ours.events.map(\.id.uuid) == theirs.events.map(\.id))
        #expect(ours.events.map { $0.time / 1000 } == theirs.events.map { Int64(($0.time.timeIntervalSince1970 * 1000).rounded()) })

        var sink = 0
        let oursRate = try Self.rate {
            let batch = try decoder.decode(bytes)
            sink &+= batch.events.count
        }
        let theirsRate = try Self.rate {
            let batch = try codable.decode(CodableBatch.self, from: data)
            sink &+= batch.events.count
        }
        let receivedAt = RFC3339.parse("2026-11-29T10:00:06Z")!
        let pipelineRate = try Self.rate {
            let batch = EventPolicy().apply(to: try decoder.decode(bytes), receivedAt: UTCTimestamp(microsecondsSince1970: receivedAt))
            let body = IngestResponse(accepted: batch.events.count, duplicates: 0, rejected: batch.rejections,
                                      serverTime: receivedAt).jsonBytes()
            sink &+= body.count
        }
        #expect(sink > 0)
        let megabytes = Double(bytes.count) / 1_000_000
        func fmt(_ v: Double) -> String { String(format: "%.0f", v) }
        print("""
            DecodeBenchmark: \(count)-event batch, \(bytes.count) bytes
              EventBatchDecoder:          \(fmt(oursRate * Double(count))) events/s (\(String(format: "%.1f", oursRate * megabytes)) MB/s)
              + policy + response body:   \(fmt(pipelineRate * Double(count))) events/s
              Foundation JSONDecoder:     \(fmt(theirsRate * Double(count))) events/s (\(String(format: "%.1f", theirsRate * megabytes)) MB/s)
              ratio:                      \(String(format: "%.1f", oursRate / theirsRate))x
            """)
    }
}
