import JSON

/// Writes a `Manifest` as JSON text laid out so that a pull request shows only real changes.
///
/// Members come in the fixed order of `Manifest.jsonValue` (commands sorted by id, menus by element
/// type, attributes only when set). The document, `commands`, `together`, `menus`, each menu and its
/// `groups` always break over lines; each command stays on one line; each `together` set and each
/// group takes one line when it fits
/// in `lineWidth` columns, else one line per item (a submenu that does not fit breaks the same way).
/// Two-space indent, `\n` line ends, a final newline, non-ASCII characters written as they are.
///
/// `ManifestParser.parse(export(m)) == m` for every manifest the parser accepts, and exporting what
/// the parser read from an export gives the same bytes.
public struct ManifestExporter: Sendable {
    public var lineWidth: Int

    public init(lineWidth: Int = 100) { self.lineWidth = lineWidth }

    public func export(_ manifest: Manifest) -> String {
        var out = "{\n"
        out += "  \"app\": \(Self.inline(.string(manifest.app)))"
        if !manifest.version.isEmpty { out += ",\n  \"version\": \(Self.inline(.string(manifest.version)))" }
        if !manifest.categories.isEmpty {
            out += ",\n  \"categories\": {\n"
            out += manifest.categories.sorted { $0.key < $1.key }.map { entry in
                "    \(Self.inline(.string(entry.key))): \(Self.inline(["title": .string(entry.value.title)]))"
            }.joined(separator: ",\n")
            out += "\n  }"
        }

        out += ",\n  \"commands\": {"
        let commands = manifest.commands.sorted { $0.key < $1.key }
        if commands.isEmpty {
            out += "}"
        } else {
            out += "\n"
            out += commands.map { "    \(Self.inline(.string($0.key))): \(Self.inline($0.value.jsonValue))" }
                .joined(separator: ",\n")
            out += "\n  }"
        }

        if !manifest.together.isEmpty {
            out += ",\n  \"together\": [\n"
            let sets = manifest.togetherJSON.arrayValue ?? []
            out += sets.enumerated().map { s, set in
                let suffix = s + 1 < sets.count ? "," : ""
                return flexible(set, indent: 4, prefix: 0, suffix: suffix.count) + suffix
            }.joined(separator: "\n")
            out += "\n  ]"
        }

        out += ",\n  \"menus\": {"
        let menus = manifest.menus.sorted { $0.key < $1.key }
        if menus.isEmpty {
            out += "}"
        } else {
            out += "\n"
            out += menus.map { menuText(elementType: $0.key, $0.value) }.joined(separator: ",\n")
            out += "\n  }"
        }
        out += "\n}\n"
        return out
    }

    private func menuText(elementType: String, _ menu: ElementMenu) -> String {
        var lines: [String] = []
        if let version = menu.menuVersion { lines.append("      \"menu_version\": \(Self.inline(.string(version)))") }
        if menu.editMenu { lines.append("      \"edit_menu\": true") }
        if menu.preview { lines.append("      \"preview\": true") }
        var groups = "      \"groups\": ["
        if menu.layout.groups.isEmpty {
            groups += "]"
        } else {
            groups += "\n"
            let values = menu.groupsJSON.arrayValue ?? []
            let count = values.count
            for (g, group) in values.enumerated() {
                let suffix = g + 1 < count ? "," : ""
                groups += flexible(group, indent: 8, prefix: 0, suffix: suffix.count)
                groups += suffix + "\n"
            }
            groups += "      ]"
        }
        lines.append(groups)
        return "    \(Self.inline(.string(elementType))): {\n" + lines.joined(separator: ",\n") + "\n    }"
    }

    /// `value` on one line when `indent + prefix + text + suffix` fits, else broken one element per
    /// line. The caller has already written `indent` spaces plus a `prefix` of that many columns
    /// (for a member, its name) and will write `suffix` columns after it.
    private func flexible(_ value: JSONValue, indent: Int, prefix: Int, suffix: Int) -> String {
        let oneLine = Self.inline(value)
        let pad = String(repeating: " ", count: indent)
        let firstPad = prefix == 0 ? pad : ""
        if indent + prefix + oneLine.count + suffix <= lineWidth { return firstPad + oneLine }
        switch value {
        case let .array(elements) where !elements.isEmpty:
            var out = firstPad + "[\n"
            for (i, element) in elements.enumerated() {
                let comma = i + 1 < elements.count ? "," : ""
                out += flexible(element, indent: indent + 2, prefix: 0, suffix: comma.count) + comma + "\n"
            }
            return out + pad + "]"
        case let .object(members) where !members.isEmpty:
            var out = firstPad + "{\n"
            for (i, member) in members.enumerated() {
                let comma = i + 1 < members.count ? "," : ""
                let key = Self.inline(.string(member.key)) + ": "
                out += String(repeating: " ", count: indent + 2) + key
                out += flexible(member.value, indent: indent + 2, prefix: key.count, suffix: comma.count) + comma + "\n"
            }
            return out + pad + "}"
        default:
            return firstPad + oneLine
        }
    }

    /// One-line JSON with a space after each `,` and `:`.
    static func inline(_ value: JSONValue) -> String {
        var out = ""
        appendInline(value, to: &out)
        return out
    }

    private static func appendInline(_ value: JSONValue, to out: inout String) {
        switch value {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(n): out += n.text
        case let .string(s): JSONWriter.appendQuoted(s, to: &out)
        case let .array(elements):
            out += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { out += ", " }
                appendInline(element, to: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += ", " }
                JSONWriter.appendQuoted(member.key, to: &out)
                out += ": "
                appendInline(member.value, to: &out)
            }
            out += "}"
        }
    }
}
