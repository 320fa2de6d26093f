/// Percent-decoding of URL parts.
enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusIsSpace`); nil when an escape is
    /// malformed or the result is not UTF-8.
    static func decode<S: StringProtocol>(_ text: S, plusIsSpace: Bool = false) -> String? {
        let utf8 = Array(text.utf8)
        guard utf8.contains(where: { $0 == 0x25 || (plusIsSpace && $0 == 0x2B) }) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == 0x25 {
                guard index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
                else { return nil }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(plusIsSpace && byte == 0x2B ? 0x20 : byte)
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
