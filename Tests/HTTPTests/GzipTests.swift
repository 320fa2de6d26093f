import HTTP
import Testing
import TestSupport

@Suite("Gzip")
struct GzipTests {
    @Test("round trip of text and binary data", arguments: [0, 1, 1000, 200_000])
    func roundTrip(size: Int) throws {
        var generator = SplitMix64(seed: UInt64(size))
        let original = (0..<size).map { index in index % 3 == 0 ? UInt8(truncatingIfNeeded: generator.next()) : UInt8(index % 7) }
        let compressed = Gzip.deflate(original)
        #expect(compressed.starts(with: [0x1F, 0x8B]))
        #expect(try Gzip.inflate(compressed, limit: size) == original)
    }

    @Test("an output of exactly the limit is fine, one byte more is tooLarge")
    func limitBoundary() throws {
        let original = [UInt8](repeating: 0x41, count: 5000)
        let compressed = Gzip.deflate(original)
        #expect(try Gzip.inflate(compressed, limit: 5000) == original)
        #expect(throws: GzipError.self) { try Gzip.inflate(compressed, limit: 4999) }
        do {
            _ = try Gzip.inflate(compressed, limit: 4999)
        } catch {
            #expect(error.kind == .tooLarge)
        }
    }

    @Test("a gzip bomb stops at the limit")
    func bomb() {
        let bomb = Gzip.deflate([UInt8](repeating: 0, count: 10 * 1024 * 1024), level: 9)
        #expect(bomb.count < 20 * 1024)
        do {
            _ = try Gzip.inflate(bomb, limit: 1024 * 1024)
            Issue.record("bomb inflated")
        } catch {
            #expect(error.kind == .tooLarge)
        }
    }

    @Test("zlib format is detected too")
    func zlibFormat() throws {
        // "hello" compressed by zlib.compress (zlib header 78 9c).
        let zlib: [UInt8] = [0x78, 0x9C, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x06, 0x2C, 0x02, 0x15]
        #expect(try Gzip.inflate(zlib, limit: 100) == Array("hello".utf8))
    }

    @Test("concatenated gzip members are decompressed one after the other")
    func members() throws {
        let joined = Gzip.deflate(Array("abc".utf8)) + Gzip.deflate(Array("def".utf8))
        #expect(try Gzip.inflate(joined, limit: 100) == Array("abcdef".utf8))
    }

    @Test("corrupt and truncated input is reported as corrupt")
    func corrupt() {
        let good = Gzip.deflate(Array(String(repeating: "menurank ", count: 500).utf8))
        var flipped = good
        flipped[flipped.count / 2] ^= 0xFF
        let cases: [[UInt8]] = [
            [],
            Array("not gzip at all".utf8),
            Array(good.prefix(good.count / 2)),
            Array(good.dropLast(4)),
            flipped,
            good + [0x00, 0x01, 0x02],
        ]
        for input in cases {
            do {
                _ = try Gzip.inflate(input, limit: 1 << 20)
                Issue.record("accepted corrupt input of \(input.count) bytes")
            } catch {
                #expect(error.kind == .corrupt, "\(error)")
            }
        }
    }
}

