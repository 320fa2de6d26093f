/// The JSON object of one event, exactly as it goes into a batch's `events` array. It is made once,
/// at record time, and stored in the journal as is, so a batch is a run of copies and a retry sends
/// the same bytes (same id, same time).
enum EventPayload {
    static func encode(_ event: MenurankEvent, id: (high: UInt64, low: UInt64)?, millis: Int64,
                       defaults: MenurankContext) -> [UInt8] {
        encode(event, id: id, millis: millis, defaults: defaults, leadingBytes: 0)
    }

    /// The payload after `leadingBytes` zero bytes: room for the journal's record header, so that
    /// `record` makes one array per event and the journal writes it as is.
    static func encode(_ event: MenurankEvent, id: (high: UInt64, low: UInt64)?, millis: Int64,
                       defaults: MenurankContext, leadingBytes: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(leadingBytes + 320)
        for _ in 0..<leadingBytes { out.append(0) }
        literal(#"{"id":""#, &out)
        if let id {
            UUIDv7Generator.append(id, to: &out)
        } else if let given = event.id {
            appendEscaped(given.uuidString, to: &out)
        }
        literal(#"","time":""#, &out)
        WireTime.append(millis, to: &out)
        out.append(UInt8(ascii: "\""))
        string(#","element_type":""#, event.elementType, &out)
        if let command = event.command { string(#","command":""#, command, &out) }
        if event.kind == .dismiss { literal(#","kind":"dismiss""#, &out) }
        if let position = event.position { integer(#","position":"#, position, &out) }
        if let latency = event.latencyMs { integer(#","latency_ms":"#, latency, &out) }
        if let value = event.menuVersion { string(#","menu_version":""#, value, &out) }
        if let value = event.trigger { string(#","trigger":""#, value, &out) }
        if let value = event.user ?? defaults.user { string(#","user":""#, value, &out) }
        if let value = event.session ?? defaults.session { string(#","session":""#, value, &out) }
        // The context members last, in this order: `BatchBody` sends those a batch shares once.
        if let value = event.appVersion ?? defaults.appVersion { string(#","app_version":""#, value, &out) }
        if let value = event.platform ?? defaults.platform { string(#","platform":""#, value, &out) }
        if let value = event.locale ?? defaults.locale { string(#","locale":""#, value, &out) }
        if defaults.isTest { literal(#","is_test":true"#, &out) }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// Fixed text (keys and their punctuation) straight from the binary's constant bytes.
    @inline(__always)
    private static func literal(_ text: StaticString, _ out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// `prefix` (`,"name":"`), the escaped value and its closing quote.
    private static func string(_ prefix: StaticString, _ value: String, _ out: inout [UInt8]) {
        literal(prefix, &out)
        appendEscaped(value, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    private static func integer(_ prefix: StaticString, _ value: Int, _ out: inout [UInt8]) {
        literal(prefix, &out)
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        var (i, j) = (start, out.count - 1)
        while i < j {
            out.swapAt(i, j)
            i += 1
            j -= 1
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// A JSON string's content: quote, backslash and control characters escaped, the rest as UTF-8.
    static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        // Names, versions and ids almost never need escaping: scan a native string's bytes in place
        // and copy them whole.
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            for byte in bytes where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if copied == true { return }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
    }

    /// The `id` of a stored payload (the 36 characters after `{"id":"`).
    static func id(of payload: ArraySlice<UInt8>) -> String {
        let start = payload.startIndex + 7
        guard payload.count >= 7 + 36 else { return "" }
        return String(decoding: payload[start..<(start + 36)], as: UTF8.self)
    }
}
