/// A small gzip (RFC 1952) encoder: one DEFLATE block with the fixed Huffman codes (RFC 1951
/// 3.2.6) over greedy LZ77 matches found through a hash chain. Foundation has no compression API
/// on Linux, and a client library should not pull in zlib's C module just for this; JSON batches
/// repeat long runs (field names, element types, commands), so fixed codes already shrink a batch
/// to about a sixth. Not a general-purpose compressor: no dynamic Huffman tables, short chains.
enum GzipEncoder {
    private static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                                            67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
                                             5, 5, 5, 5, 0]
    private static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513,
                                              769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
                                               11, 11, 12, 12, 13, 13]
    /// For each match length 3...258: its length code's index into `lengthBase`.
    private static let lengthIndex: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 259)
        var code = 0
        for length in 3...258 {
            while code + 1 < lengthBase.count && lengthBase[code + 1] <= length { code += 1 }
            table[length] = UInt8(code)
        }
        return table
    }()

    private static let windowSize = 32_768
    private static let hashBits = 15
    private static let maxChain = 24
    private static let maxMatch = 258

    /// The gzip member holding `input`.
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var writer = BitWriter()
        writer.output.reserveCapacity(input.count / 4 + 64)
        writer.output.append(contentsOf: [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF])
        writer.write(1, bits: 1)  // BFINAL
        writer.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes
        input.withUnsafeBufferPointer { data in
            let count = data.count
            var head = [Int32](repeating: -1, count: 1 << hashBits)
            var previous = [Int32](repeating: -1, count: windowSize)
            func hash(_ i: Int) -> Int {
                let v = UInt32(data[i]) << 16 | UInt32(data[i + 1]) << 8 | UInt32(data[i + 2])
                return Int((v &* 2_654_435_761) >> UInt32(32 - hashBits))
            }
            func insert(_ i: Int) {
                guard i + 2 < count else { return }
                let h = hash(i)
                previous[i & (windowSize - 1)] = head[h]
                head[h] = Int32(i)
            }
            var i = 0
            while i < count {
                var bestLength = 0
                var bestDistance = 0
                if i + 2 < count {
                    var candidate = Int(head[hash(i)])
                    var chain = maxChain
                    let limit = min(maxMatch, count - i)
                    while candidate >= 0 && i - candidate <= windowSize && chain > 0 {
                        if data[candidate + bestLength] == data[i + bestLength] || bestLength == 0 {
                            var length = 0
                            while length < limit && data[candidate + length] == data[i + length] { length += 1 }
                            if length > bestLength {
                                bestLength = length
                                bestDistance = i - candidate
                                if length == limit { break }
                            }
                        }
                        let next = Int(previous[candidate & (windowSize - 1)])
                        if next >= candidate { break }
                        candidate = next
                        chain -= 1
                    }
                }
                if bestLength >= 3 {
                    writer.writeLength(bestLength)
                    writer.writeDistance(bestDistance)
                    for j in i..<(i + bestLength) { insert(j) }
                    i += bestLength
                } else {
                    writer.writeLiteral(Int(data[i]))
                    insert(i)
                    i += 1
                }
            }
        }
        writer.writeLiteral(256)  // end of block
        writer.flush()
        let crc = CRC32.checksum(input)
        let size = UInt32(truncatingIfNeeded: input.count)
        for shift in stride(from: 0, to: 32, by: 8) { writer.output.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
        for shift in stride(from: 0, to: 32, by: 8) { writer.output.append(UInt8(truncatingIfNeeded: size >> UInt32(shift))) }
        return writer.output
    }

    /// Bits packed least significant first, as DEFLATE wants; Huffman codes go in reversed.
    private struct BitWriter {
        var output: [UInt8] = []
        private var buffer: UInt64 = 0
        private var count: UInt64 = 0

        mutating func write(_ value: Int, bits: Int) {
            buffer |= UInt64(value) << count
            count += UInt64(bits)
            while count >= 8 {
                output.append(UInt8(truncatingIfNeeded: buffer))
                buffer >>= 8
                count -= 8
            }
        }

        /// A Huffman code of `bits` bits, most significant bit first.
        mutating func writeCode(_ code: Int, bits: Int) {
            var reversed = 0
            var c = code
            for _ in 0..<bits {
                reversed = (reversed << 1) | (c & 1)
                c >>= 1
            }
            write(reversed, bits: bits)
        }

        /// A literal/length symbol 0...287 in the fixed code.
        mutating func writeLiteral(_ symbol: Int) {
            switch symbol {
            case 0...143: writeCode(0x30 + symbol, bits: 8)
            case 144...255: writeCode(0x190 + symbol - 144, bits: 9)
            case 256...279: writeCode(symbol - 256, bits: 7)
            default: writeCode(0xC0 + symbol - 280, bits: 8)
            }
        }

        mutating func writeLength(_ length: Int) {
            let index = Int(GzipEncoder.lengthIndex[length])
            writeLiteral(257 + index)
            let extra = GzipEncoder.lengthExtra[index]
            if extra > 0 { write(length - GzipEncoder.lengthBase[index], bits: extra) }
        }

        mutating func writeDistance(_ distance: Int) {
            var index = 0
            while index + 1 < GzipEncoder.distanceBase.count && GzipEncoder.distanceBase[index + 1] <= distance { index += 1 }
            writeCode(index, bits: 5)
            let extra = GzipEncoder.distanceExtra[index]
            if extra > 0 { write(distance - GzipEncoder.distanceBase[index], bits: extra) }
        }

        mutating func flush() {
            if count > 0 {
                output.append(UInt8(truncatingIfNeeded: buffer))
                buffer = 0
                count = 0
            }
        }
    }
}
