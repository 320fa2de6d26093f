import Foundation
import HTTP
@testable import MenurankClient
import Testing

/// The pure parts: gzip (read back by the daemon's zlib inflater), UTC text, UUIDv7 order, the
/// backoff and the decision table.
@Suite("MenurankClient: pure parts")
struct ClientUnitTests {
    @Test(arguments: [0, 1, 3, 100, 4096, 70_000, 300_000])
    func gzipRoundTripsThroughZlib(size: Int) throws {
        var random = Xoshiro256(seed: (1, 2, UInt64(size), 4))
        // Mixed content: JSON-like repeats (long matches, far distances) and random bytes.
        var input: [UInt8] = []
        while input.count < size {
            if random.next() % 3 == 0 {
                input.append(contentsOf: (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            } else {
                input.append(contentsOf: #"{"id":"0193a4c2-6f1e-7c3a","element_type":"mail.message","command":"reply"}"#.utf8)
            }
        }
        input = Array(input.prefix(size))
        let compressed = GzipEncoder.compress(input)
        #expect(try Gzip.inflate(compressed, limit: size + 1) == input)
        if size >= 4096 { #expect(compressed.count < size / 2, "\(compressed.count) of \(size)") }
    }

    @Test func wireTimeIsRFC3339InUTCWithMilliseconds() {
        #expect(WireTime.text(0) == "1970-01-01T00:00:00.000Z")
        #expect(WireTime.text(1_795_946_398_120) == "2026-11-29T09:59:58.120Z")
        #expect(WireTime.text(951_782_400_000) == "2000-02-29T00:00:00.000Z")
        #expect(WireTime.text(-1) == "1969-12-31T23:59:59.999Z")
    }

    /// The date part kept from one time to the next gives the text computed afresh, across days,
    /// back and forth, and before 1970.
    @Test func wireTimeWithTheDayKeptIsTheSameText() {
        var random = Xoshiro256(seed: (7, 8, 9, 10))
        var days = WireTime.Days()
        var millis: Int64 = 1_795_946_398_120
        for n in 0..<20_000 {
            switch n % 4 {
            case 0: millis += Int64(random.next() % 4_000_000)
            case 1: millis -= Int64(random.next() % 200_000_000)
            case 2: millis = Int64(random.next() % 4_000_000_000_000) - 1_000_000_000_000
            default: millis += 1
            }
            var cached: [UInt8] = []
            ByteWriter.append(to: &cached, capacity: WireTime.width) { WireTime.write(millis, to: &$0, days: &days) }
            #expect(String(decoding: cached, as: UTF8.self) == WireTime.text(millis))
        }
    }

    @Test func uuidsStayUniqueAndOrderedWhenTheClockStepsBack() {
        var generator = UUIDv7Generator()
        var texts: [String] = []
        for millis in [1_795_946_398_120, 1_795_946_398_120, 1_795_946_398_121, 1_700_000_000_000, 1_700_000_000_000,
                       1_795_946_399_000] as [Int64] {
            var out: [UInt8] = []
            UUIDv7Generator.append(generator.next(millis: millis), to: &out)
            texts.append(String(decoding: out, as: UTF8.self))
        }
        #expect(Set(texts).count == texts.count)
        #expect(texts == texts.sorted(), "\(texts)")
        for text in texts {
            let characters = Array(text)
            #expect(characters.count == 36 && characters[14] == "7" && "89ab".contains(characters[19]))
        }
        // The timestamp bits are the clock's milliseconds while it moves forward.
        let stamp = String(1_795_946_398_120, radix: 16)
        let padded = String(repeating: "0", count: 12 - stamp.count) + stamp
        #expect(texts[0].hasPrefix(padded.prefix(8) + "-" + padded.dropFirst(8)))
    }

    @Test func backoffIsFullJitterCappedAndNeverShorterThanRetryAfter() {
        let backoff = Backoff(base: 0.5, cap: 60, maxRetryAfter: 600)
        #expect(backoff.delay(attempt: 0, retryAfter: nil, unit: 0) == 0)
        #expect(backoff.delay(attempt: 0, retryAfter: nil, unit: 1) == 0.5)
        #expect(backoff.delay(attempt: 3, retryAfter: nil, unit: 0.5) == 2)
        #expect(backoff.delay(attempt: 40, retryAfter: nil, unit: 1) == 60)
        #expect(backoff.delay(attempt: 0, retryAfter: 7, unit: 0.9) == 7)
        #expect(backoff.delay(attempt: 10, retryAfter: 1, unit: 1) == 60)
        #expect(backoff.delay(attempt: 0, retryAfter: 10_000, unit: 0) == 600)
        #expect(Backoff.parseRetryAfter(" 3 ", now: 0) == 3)
        #expect(Backoff.parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_770) == 7)
        #expect(Backoff.parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: 784_111_790) == 0)
        #expect(Backoff.parseRetryAfter("soon", now: 0) == nil)
        #expect(Backoff.parseRetryAfter(nil, now: 0) == nil)
    }

    @Test(arguments: [(200, DeliveryDecision.acknowledged), (413, .split(code: "payload_too_large")),
                      (400, .split(code: "invalid_batch")), (401, .stop), (403, .stop), (404, .stop), (415, .stop),
                      (429, .retry), (503, .retry), (500, .retry), (502, .retry), (408, .retry)])
    func decisionTable(status: Int, decision: DeliveryDecision) {
        #expect(DeliveryDecision.classify(status: status) == decision)
    }

    @Test func payloadEscapesStringsAndCarriesTheContext() throws {
        var event = MenurankEvent(elementType: "mail.message", command: "say \"hi\"\n\\", position: 2, latencyMs: 840,
                                  menuVersion: "2026.11.1", trigger: "long_press")
        event.user = "u-1"
        let payload = EventPayload.encode(event, id: (0x0193_A4C2_6F1E_7C3A, 0x9D2B_4E5F_6071_8293), millis: 1_795_946_398_120,
                                          defaults: MenurankContext(appVersion: "5.2.1", platform: "iOS 18.1", locale: "ru_RU"))
        let object = try #require(JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        #expect(object["id"] as? String == "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293")
        #expect(EventPayload.id(of: payload[...]) == "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293")
        #expect(object["time"] as? String == "2026-11-29T09:59:58.120Z")
        #expect(object["command"] as? String == "say \"hi\"\n\\")
        #expect(object["kind"] == nil && object["position"] as? Int == 2 && object["latency_ms"] as? Int == 840)
        #expect(object["app_version"] as? String == "5.2.1" && object["user"] as? String == "u-1")
    }

    @Test func crc32MatchesTheStandardAndTheBytewiseLoop() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        var random = Xoshiro256(seed: (9, 8, 7, 6))
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            // A lazy map has no contiguous storage: the generic bytewise loop.
            let bytewise = CRC32.checksum(bytes.lazy.map { $0 })
            #expect(CRC32.checksum(bytes) == bytewise)
            #expect(CRC32.checksum(bytes[...], continuing: 0) == bytewise)
        }
    }

    @Test func negativeAndLargeIntegersAndIdsMadeFromBits() throws {
        let event = MenurankEvent(elementType: "mail.message", command: "reply", position: -12, latencyMs: Int.max)
        let payload = EventPayload.encode(event, id: (0x0193_A4C2_6F1E_7C3A, 0x9D2B_4E5F_6071_8293), millis: 0,
                                          defaults: MenurankContext(), leadingBytes: 8)
        #expect(payload.prefix(8).allSatisfy { $0 == 0 })
        let object = try #require(JSONSerialization.jsonObject(with: Data(payload.dropFirst(8))) as? [String: Any])
        #expect(object["position"] as? Int == -12 && object["latency_ms"] as? Int == Int.max)
        #expect(object["time"] as? String == "1970-01-01T00:00:00.000Z")
        let id = MenurankEventID(bits: (0x0193_A4C2_6F1E_7C3A, 0x9D2B_4E5F_6071_8293))
        #expect(id.uuidString == "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293")
        #expect(id == MenurankEventID(uuidString: "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293"))
        #expect(Set([id, MenurankEventID(uuidString: id.uuidString)]).count == 1)
    }

    /// `record` encodes into a buffer sized by `maxSize`, with no check per byte: the bound holds
    /// for texts that need every kind of escape, multi-byte characters, extreme integers, given ids.
    @Test func maxSizeBoundsEveryPayload() throws {
        let texts = ["", "a", "\u{0}\u{1f}\"\\", String(repeating: "\u{1}", count: 300), "ü€😀", "mail.message",
                     String(repeating: "\"", count: 1000)]
        var random = Xoshiro256(seed: (1, 2, 3, 4))
        func pick() -> String { texts[Int(random.next() % UInt64(texts.count))] }
        for n in 0..<500 {
            var event = MenurankEvent(elementType: pick(), command: n % 5 == 0 ? nil : pick(),
                                      kind: n % 5 == 0 ? .dismiss : .select,
                                      position: n % 3 == 0 ? nil : Int.min + n, latencyMs: n % 2 == 0 ? Int.max : nil,
                                      menuVersion: pick(), trigger: n % 4 == 0 ? nil : pick())
            event.user = pick()
            event.session = pick()
            event.appVersion = pick()
            event.platform = pick()
            event.locale = n % 6 == 0 ? nil : pick()
            if n % 2 == 0 { event.id = MenurankEventID(uuidString: pick()) }
            let defaults = MenurankContext(appVersion: pick(), platform: pick(), locale: pick(), user: pick(),
                                           isTest: n % 2 == 1)
            let payload = EventPayload.encode(event, id: n % 2 == 0 ? nil : (random.next(), random.next()),
                                              millis: Int64(bitPattern: random.next()) / 1000, defaults: defaults)
            #expect(payload.count <= EventPayload.maxSize(event, defaults: defaults))
            let object = try #require(JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
            #expect(object["element_type"] as? String == event.elementType)
        }
    }

    /// The eight-bytes-at-a-time test for bytes that need escaping agrees with the byte-by-byte
    /// one: every byte value alone and at every position of texts up to 19 bytes, among bytes
    /// that need none (ASCII letters, the top-bit bytes of UTF-8).
    @Test func needsEscapeAgreesWithTheBytewiseTest() {
        func bytewise(_ bytes: [UInt8]) -> Bool { bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } }
        for length in 0..<20 {
            for filler in [UInt8(ascii: "a"), 0x7F, 0x80, 0xC3, 0xFF, 0x21, 0x23, 0x5B, 0x5D, 0x20] {
                for position in 0..<max(length, 1) {
                    var bytes = [UInt8](repeating: filler, count: length)
                    for value in UInt8.min...UInt8.max {
                        if length > 0 { bytes[position] = value }
                        let fast = bytes.withUnsafeBytes { EventPayload.needsEscape($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, length) }
                        if fast != bytewise(bytes) {
                            Issue.record("length \(length), filler \(filler), \(value) at \(position)")
                            return
                        }
                    }
                }
            }
        }
    }

    /// The second journal format's record checksum: pinned (a change would make every journal
    /// left by an earlier run look torn), and changed by any single flipped bit and by any length.
    @Test func theRecordChecksumIsPinnedAndSeesEveryFlippedBit() {
        let pinned = Array(#"{"id":"0193a4c2-6f1e-7c3a-9d2b-4e5f60718293","element_type":"mail.message"}"#.utf8)
        #expect(pinned.withUnsafeBytes { RecordChecksum.mix($0) } == 0x532B_3061)
        #expect([UInt8]().withUnsafeBytes { RecordChecksum.mix($0) } == 0x3A74_164C)
        var random = Xoshiro256(seed: (5, 6, 7, 8))
        var bytes = (0..<300).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let original = bytes.withUnsafeBytes { RecordChecksum.mix($0) }
        for bit in 0..<(bytes.count * 8) {
            bytes[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(bytes.withUnsafeBytes { RecordChecksum.mix($0) } != original)
            bytes[bit / 8] ^= 1 << UInt8(bit % 8)
        }
        // Zeros of every length up to 64 (the padding of a last word is not taken for data).
        let zeros = [UInt8](repeating: 0, count: 64)
        let sums = Set((0...64).map { n in zeros.withUnsafeBytes { RecordChecksum.mix(UnsafeRawBufferPointer(rebasing: $0[0..<n])) } })
        #expect(sums.count == 65)
    }
}
