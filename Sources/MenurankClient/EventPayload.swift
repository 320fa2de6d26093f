/// The JSON object of one event, exactly as it goes into a batch's `events` array. It is made once,
/// at record time, and stored in the journal as is, so a batch is a run of copies and a retry sends
/// the same bytes (same id, same time).
enum EventPayload {
    static func encode(_ event: MenurankEvent, id: (high: UInt64, low: UInt64)?, millis: Int64,
                       defaults: MenurankContext) -> [UInt8] {
        encode(event, id: id, millis: millis, defaults: defaults, leadingBytes: 0)
    }

    /// The payload after `leadingBytes` zero bytes, in an array of its own (tests, and events too
    /// large for `record`'s buffer).
    static func encode(_ event: MenurankEvent, id: (high: UInt64, low: UInt64)?, millis: Int64,
                       defaults: MenurankContext, leadingBytes: Int) -> [UInt8] {
        let capacity = leadingBytes + maxSize(event, defaults: defaults)
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            let base = buffer.baseAddress!
            base.initialize(repeating: 0, count: leadingBytes)
            var out = ByteWriter(base + leadingBytes)
            write(event, id: id, millis: millis, defaults: defaults, to: &out)
            count = leadingBytes + out.count
        }
    }

    /// An upper bound of the payload's size: its fixed text, and every string as if each of its
    /// bytes needed the longest escape (`\u00XX`, six bytes). O(1) for native strings.
    static func maxSize(_ event: MenurankEvent, defaults: MenurankContext) -> Int {
        func length(_ text: String?) -> Int { text?.utf8.count ?? 0 }
        // An event's own text and the default it overrides both counted (a bound: `??` would copy
        // each text, a retain and a release per field per event).
        var bytes = length(event.elementType) + length(event.command) + length(event.menuVersion)
        bytes += length(event.trigger) + length(event.user) + length(defaults.user) + length(event.session)
        bytes += length(defaults.session) + length(event.appVersion) + length(defaults.appVersion)
        bytes += length(event.platform) + length(defaults.platform) + length(event.locale) + length(defaults.locale)
        if let id = event.id { bytes += id.textLength }
        // Keys and punctuation (under 250 bytes), a 36-character id, the 24-character time, two
        // integers of up to 20 characters.
        return fixedBytes + 6 * bytes
    }

    private static let fixedBytes = 400

    /// Writes the payload into memory of at least `maxSize` bytes.
    static func write(_ event: MenurankEvent, id: (high: UInt64, low: UInt64)?, millis: Int64,
                      defaults: MenurankContext, to out: inout ByteWriter) {
        var days = WireTime.Days()
        write(event, id: id, millis: millis, defaults: defaults, to: &out, days: &days)
    }

    /// The same, with the date part of the event's time kept in `days` from one event to the next.
    static func write(_ event: MenurankEvent, id: (high: UInt64, low: UInt64)?, millis: Int64,
                      defaults: MenurankContext, to out: inout ByteWriter, days: inout WireTime.Days) {
        out.text(#"{"id":""#)
        if let id {
            UUIDv7Generator.write(id, to: &out)
        } else if let given = event.id {
            escaped(given.uuidString, &out)
        }
        out.text(#"","time":""#)
        WireTime.write(millis, to: &out, days: &days)
        out.byte(UInt8(ascii: "\""))
        string(#","element_type":""#, event.elementType, &out)
        if let command = event.command { string(#","command":""#, command, &out) }
        if event.kind == .dismiss { out.text(#","kind":"dismiss""#) }
        if let position = event.position { integer(#","position":"#, position, &out) }
        if let latency = event.latencyMs { integer(#","latency_ms":"#, latency, &out) }
        if let value = event.menuVersion { string(#","menu_version":""#, value, &out) }
        if let value = event.trigger { string(#","trigger":""#, value, &out) }
        // The event's own value, else the default (each bound where it is: `??` copied the text).
        if let value = event.user { string(#","user":""#, value, &out) } else if let value = defaults.user { string(#","user":""#, value, &out) }
        if let value = event.session { string(#","session":""#, value, &out) } else if let value = defaults.session { string(#","session":""#, value, &out) }
        // The context members last, in this order: `BatchBody` sends those a batch shares once.
        if let value = event.appVersion { string(#","app_version":""#, value, &out) } else if let value = defaults.appVersion { string(#","app_version":""#, value, &out) }
        if let value = event.platform { string(#","platform":""#, value, &out) } else if let value = defaults.platform { string(#","platform":""#, value, &out) }
        if let value = event.locale { string(#","locale":""#, value, &out) } else if let value = defaults.locale { string(#","locale":""#, value, &out) }
        if defaults.isTest { out.text(#","is_test":true"#) }
        out.byte(UInt8(ascii: "}"))
    }

    /// `prefix` (`,"name":"`), the escaped value and its closing quote.
    @inline(__always)
    private static func string(_ prefix: StaticString, _ value: String, _ out: inout ByteWriter) {
        out.text(prefix)
        escaped(value, &out)
        out.byte(UInt8(ascii: "\""))
    }

    private static func integer(_ prefix: StaticString, _ value: Int, _ out: inout ByteWriter) {
        out.text(prefix)
        if value < 0 { out.byte(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var i = digits - 1
        while i >= 0 {
            out.base[out.count + i] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            i -= 1
        }
        out.advance(by: digits)
    }

    private static let hex: StaticString = "0123456789abcdef"

    /// A JSON string's content: quote, backslash and control characters escaped, the rest as UTF-8.
    private static func escaped(_ text: String, _ out: inout ByteWriter) {
        // Names, versions and ids almost never need escaping: scan a native string's bytes in place
        // and copy them whole.
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let start = bytes.baseAddress, !needsEscape(UnsafeRawPointer(start), bytes.count) else {
                return bytes.isEmpty
            }
            out.bytes(bytes)
            return true
        }
        if copied == true { return }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""):
                out.byte(UInt8(ascii: "\\"))
                out.byte(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"):
                out.byte(UInt8(ascii: "\\"))
                out.byte(UInt8(ascii: "\\"))
            case 0..<0x20:
                out.text(#"\u00"#)
                out.byte(hex.utf8Start[Int(byte >> 4)])
                out.byte(hex.utf8Start[Int(byte & 0xF)])
            default: out.byte(byte)
            }
        }
    }

    /// Whether any of the `count` bytes at `start` needs an escape in a JSON string (a control
    /// character, a quote, a backslash), eight bytes per step: `x - 0x20 * ones` borrows into a
    /// byte's top bit exactly when some byte is below 0x20 (with `& ~x` leaving out bytes that had
    /// the top bit set), and the same test for zero finds a byte equal to `"` or `\` after an XOR.
    /// Exact as a yes or no for the whole word, which is all this needs.
    static func needsEscape(_ start: UnsafeRawPointer, _ count: Int) -> Bool {
        guard count >= 8 else {
            // Shorter than a word: byte by byte.
            for i in 0..<count {
                let byte = start.load(fromByteOffset: i, as: UInt8.self)
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            }
            return false
        }
        var i = 0
        while i + 8 < count {
            if hasSpecialByte(UInt64(littleEndian: start.loadUnaligned(fromByteOffset: i, as: UInt64.self))) { return true }
            i += 8
        }
        // The last eight bytes (overlapping the word before when the count is not a multiple of 8).
        return hasSpecialByte(UInt64(littleEndian: start.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)))
    }

    @inline(__always)
    private static func hasSpecialByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let equal = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highs
        return control | equal != 0
    }

    /// The `id` of a stored payload (the 36 characters after `{"id":"`).
    static func id<Payload: RandomAccessCollection<UInt8>>(of payload: Payload) -> String where Payload.Index == Int {
        let start = payload.startIndex + 7
        guard payload.count >= 7 + 36 else { return "" }
        return String(decoding: payload[start..<(start + 36)], as: UTF8.self)
    }
}
