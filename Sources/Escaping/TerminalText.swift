/// Text from data made safe to print to a terminal: every control character (C0, DEL, C1, line
/// breaks included) and every bidirectional formatting character is shown as `\u{XXXX}`, so that
/// nothing in a title, note or `menu_version` can move the cursor, change colours, set the
/// window title or reorder what the reader sees. Everything else is unchanged.
public enum TerminalText {
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { FreeText.isRefused($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if FreeText.isRefused(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: "\\u{\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
