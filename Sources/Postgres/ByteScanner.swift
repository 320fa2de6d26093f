/// Reads ASCII fields from a byte buffer.
struct ByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    var isAtEnd: Bool { index == bytes.endIndex }

    func peek() -> UInt8? { index < bytes.endIndex ? bytes[index] : nil }

    mutating func skip() { index += 1 }

    mutating func take(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        index += 1
        return true
    }

    /// Consumes `literal` when the rest of the input starts with it.
    mutating func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.endIndex - index >= count else { return false }
        let found = literal.withUTF8Buffer { literalBytes in
            (0..<count).allSatisfy { bytes[index + $0] == literalBytes[$0] }
        }
        if found { index += count }
        return found
    }

    mutating func digit() -> Int? {
        guard let byte = peek(), byte >= 0x30, byte <= 0x39 else { return nil }
        index += 1
        return Int(byte - 0x30)
    }

    mutating func integer(minDigits: Int, maxDigits: Int = 9) -> Int? {
        var value = 0
        var count = 0
        while count < maxDigits, let digit = digit() {
            value = value * 10 + digit
            count += 1
        }
        return count >= minDigits ? value : nil
    }
}
