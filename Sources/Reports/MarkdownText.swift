/// Escaping for GitHub-flavoured Markdown.
enum MarkdownText {
    /// Plain text that stays plain: Markdown punctuation and table pipes are backslash-escaped, and
    /// line breaks become spaces (a table cell is one line).
    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "#", "~":
                out.append("\\")
                out.append(c)
            case "\n", "\r":
                out.append(" ")
            default:
                out.append(c)
            }
        }
        return out
    }

    /// A code span holding `text` verbatim: the fence is longer than any run of backticks inside.
    static func code(_ text: String) -> String {
        var longest = 0
        var run = 0
        for c in text {
            run = c == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = text.hasPrefix("`") || text.hasSuffix("`") ? " " : ""
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return fence + pad + flat + pad + fence
    }

    /// A table: a header row, the alignment row (`true` right-aligns), then the rows.
    static func table(_ header: [String], rightAligned: [Bool], rows: [[String]]) -> String {
        var out = "| " + header.joined(separator: " | ") + " |\n"
        out += "|" + rightAligned.map { $0 ? "---:" : "---" }.joined(separator: "|") + "|\n"
        for row in rows {
            out += "| " + row.map { $0.isEmpty ? " " : $0 }.joined(separator: " | ") + " |\n"
        }
        return out
    }
}
