import Escaping

/// Writes `JSONValue`s as text: compact for machines, or pretty with a stable layout for files that
/// people diff (two-space indent, members in the order given, short arrays of scalars on one line).
public struct JSONWriter: Sendable {
    public enum Style: Sendable { case compact, pretty }
    public var style: Style
    /// With `.pretty`, arrays of scalars that fit in this many characters stay on one line.
    public var inlineArrayWidth: Int

    public init(style: Style = .compact, inlineArrayWidth: Int = 100) {
        self.style = style
        self.inlineArrayWidth = inlineArrayWidth
    }

    public func string(_ value: JSONValue) -> String {
        if style == .compact { return String(decoding: value.jsonBytes, as: UTF8.self) }
        var out = ""
        write(value, indent: 0, into: &out)
        if style == .pretty { out.append("\n") }
        return out
    }

    public func write(_ value: JSONValue, indent: Int, into out: inout String) {
        switch value {
        case .null: out.append("null")
        case let .bool(b): out.append(b ? "true" : "false")
        case let .number(n): out.append(n.text)
        case let .string(s): JSONWriter.appendQuoted(s, to: &out)
        case let .array(elements):
            if elements.isEmpty { out.append("[]"); return }
            if style == .compact || fitsInline(elements, indent: indent) {
                out.append("[")
                for (i, e) in elements.enumerated() {
                    if i > 0 { out.append(style == .compact ? "," : ", ") }
                    write(e, indent: indent, into: &out)
                }
                out.append("]")
                return
            }
            out.append("[\n")
            for (i, e) in elements.enumerated() {
                out.append(String(repeating: " ", count: indent + 2))
                write(e, indent: indent + 2, into: &out)
                out.append(i + 1 < elements.count ? ",\n" : "\n")
            }
            out.append(String(repeating: " ", count: indent) + "]")
        case let .object(members):
            if members.isEmpty { out.append("{}"); return }
            if style == .compact {
                out.append("{")
                for (i, m) in members.enumerated() {
                    if i > 0 { out.append(",") }
                    JSONWriter.appendQuoted(m.key, to: &out)
                    out.append(":")
                    write(m.value, indent: indent, into: &out)
                }
                out.append("}")
                return
            }
            if fitsInline(members.map(\.value), indent: indent), members.count <= 3,
               members.allSatisfy({ !isContainer($0.value) })
            {
                out.append("{")
                for (i, m) in members.enumerated() {
                    if i > 0 { out.append(", ") }
                    JSONWriter.appendQuoted(m.key, to: &out)
                    out.append(": ")
                    write(m.value, indent: indent, into: &out)
                }
                out.append("}")
                return
            }
            out.append("{\n")
            for (i, m) in members.enumerated() {
                out.append(String(repeating: " ", count: indent + 2))
                JSONWriter.appendQuoted(m.key, to: &out)
                out.append(": ")
                write(m.value, indent: indent + 2, into: &out)
                out.append(i + 1 < members.count ? ",\n" : "\n")
            }
            out.append(String(repeating: " ", count: indent) + "}")
        }
    }

    private func isContainer(_ v: JSONValue) -> Bool {
        switch v {
        case .array, .object: return true
        default: return false
        }
    }

    private func fitsInline(_ elements: [JSONValue], indent: Int) -> Bool {
        var width = indent
        for e in elements {
            switch e {
            case .array(let inner):
                // An array of short scalar arrays/objects (a menu group) may stay inline too.
                if inner.contains(where: isContainer) { return false }
                for x in inner { width += scalarWidth(x) + 2 }
            case .object(let members):
                if members.contains(where: { isContainer($0.value) && !isShortScalarArray($0.value) }) { return false }
                for m in members { width += m.key.utf8.count + 4 + scalarWidth(m.value) }
            default:
                width += scalarWidth(e) + 2
            }
            if width > inlineArrayWidth { return false }
        }
        return true
    }

    private func isShortScalarArray(_ v: JSONValue) -> Bool {
        guard case let .array(a) = v else { return false }
        return !a.contains(where: isContainer)
    }

    private func scalarWidth(_ v: JSONValue) -> Int {
        switch v {
        case .null: return 4
        case .bool(let b): return b ? 4 : 5
        case .number(let n): return n.text.utf8.count
        case .string(let s): return s.utf8.count + 2
        case .array(let a): return a.reduce(2) { $0 + scalarWidth($1) + 2 }
        case .object: return 1000
        }
    }

    /// Appends `s` as a JSON string literal (quotes, backslashes and control characters escaped
    /// by Escaping's `JSONText`, the one rule for every JSON output).
    public static func appendQuoted(_ s: String, to out: inout String) {
        JSONText.appendQuoted(s, to: &out)
    }
}

extension JSONValue {
    /// Compact JSON text.
    public var jsonText: String { JSONWriter().string(self) }
}
