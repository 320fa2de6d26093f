@testable import Sketches
import Testing

/// `HLLSketch.pack` writes whole words at a time: its bytes are `BitWriter`'s, value by value, for
/// register arrays on both sides of the SPARSE/FULL threshold (639 and 640 filled registers),
/// empty ones, and every register value from 1 to 31.
@Suite struct HLLSketchPackTests {
    static func reference(_ registers: [UInt8]) -> [UInt8] {
        let filled = registers.filter { $0 != 0 }.count
        var writer = BitWriter()
        if filled * 16 < HLLSketch.registerCount * HLLSketch.registerWidth {
            writer.bytes = HLLSketch.header(.sparse)
            for (index, value) in registers.enumerated() where value != 0 { writer.put(UInt64(index) << 5 | UInt64(value), bits: 16) }
        } else {
            writer.bytes = HLLSketch.header(.full)
            for value in registers { writer.put(UInt64(value), bits: 5) }
        }
        writer.finish()
        return writer.bytes
    }

    @Test(arguments: [0, 1, 2, 100, 639, 640, 641, 1_500, 2_048])
    func packedAsBitWriterPacksThem(filled: Int) {
        var state: UInt64 = UInt64(filled) &+ 17
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var registers = [UInt8](repeating: 0, count: HLLSketch.registerCount)
        var order = Array(0..<HLLSketch.registerCount)
        for at in order.indices.reversed() { order.swapAt(at, Int(next() % UInt64(at + 1))) }
        for (rank, index) in order.prefix(filled).enumerated() { registers[index] = UInt8(1 + (rank + Int(next() % 31)) % 31) }
        #expect(HLLSketch.pack(registers) == Self.reference(registers))
    }
}
