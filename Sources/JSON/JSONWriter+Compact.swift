extension JSONWriter {
    /// Compact JSON text of `value` appended to a byte buffer (UTF-8): the same bytes as
    /// `JSONWriter(style: .compact).string(value)`, written without the cost of growing a `String`
    /// piece by piece (a report of a thousand element types is several megabytes of small pieces).
    public static func appendCompact(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case let .number(n): out.append(contentsOf: n.text.utf8)
        case let .string(s): appendQuoted(s, to: &out)
        case let .array(elements):
            out.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendCompact(e, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            for (i, m) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendQuoted(m.key, to: &out)
                out.append(UInt8(ascii: ":"))
                appendCompact(m.value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

extension JSONValue {
    /// Compact JSON text as UTF-8 bytes (see `JSONWriter.appendCompact`).
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        JSONWriter.appendCompact(self, to: &out)
        return out
    }
}
