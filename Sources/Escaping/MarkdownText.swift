/// Escaping for GitHub-flavoured Markdown (pull requests, chat webhooks): the one place that turns
/// text into Markdown for `--format markdown` and the webhook's `markdown` member.
///
/// Two ways in, both working on UTF-8 bytes (never on `Character`s: a "Prepend" scalar such as
/// U+0600 joins the backtick or bracket after it into one Character that a Character loop does not
/// see; `HTMLText` says more):
/// - `code(_:)` for every name that comes from data (command ids and titles, element types, menu
///   versions, app names): a code span, which Markdown never turns into a link, an image, HTML or
///   emphasis, and in which chat and GitHub do not read mentions.
/// - `escaped(_:)` for the renderer's own prose, which may quote such names inside a sentence (lint
///   messages, evidence, comparisons): punctuation is backslash-escaped so that no link, autolink
///   (`https://`, `www.`), HTML or emphasis forms, and `@` is followed by a word joiner (U+2060,
///   invisible) so that no `@everyone` or `@name` mention (nor `user@host` autolink) forms either.
public enum MarkdownText {
    /// Plain text that stays plain on one line. Leading blanks are dropped and line breaks and tabs
    /// become spaces; ASCII punctuation with a meaning in CommonMark or GFM (emphasis, code, links,
    /// images, HTML, entities, tables, strikethrough, headings, quotes) is backslash-escaped, as
    /// are `-` and `+` at the start (a list) and the `:` of `://` and the `.` of `www.` (GFM's
    /// autolinks); `@` gets a word joiner after it (no mention, no e-mail autolink).
    public static func escaped(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        var i = 0
        // Leading blanks would start an indented code block at the start of a line.
        while i < bytes.count && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        let start = i
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x0A, 0x0D, 0x09:
                out.append(0x20)
            case UInt8(ascii: "@"):
                out.append(b)
                out.append(contentsOf: [0xE2, 0x81, 0xA0])  // U+2060 WORD JOINER
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                if i == start { out.append(UInt8(ascii: "\\")) }
                out.append(b)
            case UInt8(ascii: ":"):
                if bytes[(i + 1)...].starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) { out.append(UInt8(ascii: "\\")) }
                out.append(b)
            case UInt8(ascii: "."):
                if i >= 3 && bytes[(i - 3)..<i].allSatisfy({ $0 | 0x20 == UInt8(ascii: "w") }) { out.append(UInt8(ascii: "\\")) }
                out.append(b)
            default:
                if escapedPunctuation.contains(b) { out.append(UInt8(ascii: "\\")) }
                out.append(b)
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// ASCII punctuation that `escaped` always backslash-escapes.
    static let escapedPunctuation: Set<UInt8> = Set("\\`*_[]<>#|~&".utf8)

    /// A code span holding `text` verbatim: the fence is one backtick longer than the longest run
    /// of backticks inside, padded with a space when the text starts or ends with a backtick or a
    /// space (Markdown strips one space from each side of a padded span). Line breaks become
    /// spaces. `inTable`: pipes are backslash-escaped, as a GFM table cell needs even inside a
    /// code span (the cell shows the pipe without the backslash).
    public static func code(_ text: String, inTable: Bool = false) -> String {
        let flat = text.utf8.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
        var longest = 0
        var run = 0
        for b in flat {
            run = b == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = [UInt8](repeating: UInt8(ascii: "`"), count: longest + 1)
        let edges: Set<UInt8> = [UInt8(ascii: "`"), 0x20]
        // Markdown strips one space from each end only when the content is not all spaces.
        let pad = flat.contains { $0 != 0x20 } && (edges.contains(flat.first!) || edges.contains(flat.last!))
        var out = fence
        if pad || flat.isEmpty { out.append(0x20) }
        for b in flat {
            if inTable && b == UInt8(ascii: "|") { out.append(UInt8(ascii: "\\")) }
            out.append(b)
        }
        if pad { out.append(0x20) }
        out += fence
        return String(decoding: out, as: UTF8.self)
    }

    /// A table: a header row, the alignment row (`true` right-aligns), then the rows. Cells are
    /// Markdown already (from `escaped` or `code(_:inTable: true)`).
    public static func table(_ header: [String], rightAligned: [Bool], rows: [[String]]) -> String {
        var out = "| " + header.joined(separator: " | ") + " |\n"
        out += "|" + rightAligned.map { $0 ? "---:" : "---" }.joined(separator: "|") + "|\n"
        for row in rows {
            out += "| " + row.map { $0.isEmpty ? " " : $0 }.joined(separator: " | ") + " |\n"
        }
        return out
    }
}
