import CivilTime
import Foundation
import Observability
import Locking
import Testing

/// Log lines written to memory, for tests.
final class LineCapture: Sendable {
    private let lines = Locked<[String]>([])

    var written: [String] { lines.withLock { $0 } }

    func output(_ format: LogFormat) -> LogOutput {
        LogOutput(format: format, clock: .fixed(UTCTimestamp(microsecondsSince1970: 1_796_032_800_123_000))) { line in
            self.lines.withLock { $0.append(line) }
        }
    }
}

@Suite("Logger")
struct LoggerTests {
    @Test("logfmt lines quote and escape only where needed")
    func logfmt() {
        let capture = LineCapture()
        let logger = Logger(label: "menurank.ingest", output: capture.output(.logfmt)).with("request_id", "r-1")
        logger.info("request", metadata: [
            "status": 200, "route": "/v1/events", "query": "a=b c", "quote": "say \"hi\"\\now",
            "lines": "one\ntwo\tthree", "empty": "", "share": 0.25, "gzip": true, "bell": "\u{7}",
            "bad key": "x", "msg": "shadowed",
        ])
        #expect(capture.written == [
            "ts=2026-11-30T10:00:00.123Z level=info msg=\"request\" logger=menurank.ingest request_id=r-1 "
                + "status=200 route=/v1/events query=\"a=b c\" quote=\"say \\\"hi\\\"\\\\now\" "
                + "lines=\"one\\ntwo\\tthree\" empty=\"\" share=0.25 gzip=true bell=\"\\u0007\" bad_key=x msg_=shadowed\n",
        ])
    }

    @Test("JSON lines escape strings and keep numbers and truth values bare")
    func json() {
        let capture = LineCapture()
        let logger = Logger(label: "menurank", level: .trace, output: capture.output(.json))
        logger.warning("slow \"query\"\n", metadata: [
            "ms": 1500, "ratio": 0.5, "ok": false, "sql": "SELECT '\\'", "inf": .double(.infinity), "ts": "x",
        ])
        #expect(capture.written == [
            "{\"ts\":\"2026-11-30T10:00:00.123Z\",\"level\":\"warning\",\"msg\":\"slow \\\"query\\\"\\n\","
                + "\"logger\":\"menurank\",\"ms\":1500,\"ratio\":0.5,\"ok\":false,\"sql\":\"SELECT '\\\\'\","
                + "\"inf\":\"inf\",\"ts_\":\"x\"}\n",
        ])
        let parsed = try? JSONSerialization.jsonObject(with: Data(capture.written[0].utf8)) as? [String: Any]
        #expect(parsed?["msg"] as? String == "slow \"query\"\n")
        #expect(parsed?["ms"] as? Int == 1500)
    }

    @Test("Lines below the level are dropped without building their message or metadata")
    func levels() {
        let capture = LineCapture()
        let logger = Logger(label: "t", level: .notice, output: capture.output(.logfmt))
        var built = 0
        logger.debug({ built += 1; return "hidden" }(), metadata: { built += 1; return ["k": 1] }())
        logger.info({ built += 1; return "hidden" }())
        logger.notice("shown")
        logger.error("also shown")
        #expect(built == 0)
        #expect(capture.written.map { $0.split(separator: " ")[1] } == ["level=notice", "level=error"])
        #expect(Logger.Level.allCases.map(\.rawValue) == ["trace", "debug", "info", "notice", "warning", "error"])
        #expect(Logger.Level.trace < .error)
        #expect(!logger.isEnabled(.info) && logger.isEnabled(.warning))
    }

    @Test("Metadata keeps its order, call metadata overrides the logger's, nil removes")
    func metadata() {
        let capture = LineCapture()
        var logger = Logger(label: "t", metadata: ["a": 1, "b": 2], output: capture.output(.logfmt))
        logger[metadataKey: "a"] = nil
        logger[metadataKey: "c"] = "3"
        logger.info("m", metadata: ["b": "over", "d": 4])
        #expect(capture.written == ["ts=2026-11-30T10:00:00.123Z level=info msg=\"m\" logger=t b=over c=3 d=4\n"])
    }

    @Test("Lines written from many threads to one descriptor never interleave")
    func concurrentWrites() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let reader = Task.detached { () -> String in
            var collected: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                if count <= 0 { break }
                collected += buffer[..<count]
            }
            close(readEnd)
            return String(decoding: collected, as: UTF8.self)
        }
        let logger = Logger(label: "t", output: .fileDescriptor(writeEnd, format: .logfmt))
        let padding = String(repeating: "x", count: 300)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in 0..<200 {
                logger.info("line", metadata: ["worker": .int(worker), "index": .int(index), "pad": .string(padding)])
            }
        }
        close(writeEnd)
        let lines = await reader.value.split(separator: "\n")
        #expect(lines.count == 1_600)
        #expect(lines.allSatisfy { $0.hasPrefix("ts=") && $0.hasSuffix(" pad=" + padding) })
    }
}
