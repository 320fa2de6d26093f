/// A script of SQL statements (a migration file) cut into its statements, at the semicolons that
/// end them: not those inside quoted strings (`'...'`, `E'...'`), quoted identifiers (`"..."`),
/// dollar-quoted bodies (`$$...$$`, `$fn$...$fn$`) or comments (`-- ...`, nested `/* ... */`).
///
/// Some servers need one statement at a time: Citus sends the text of a `CREATE INDEX` on a
/// distributed table to its workers as it received it, and a text of several statements fails
/// there. Not handled: SQL-standard function bodies (`BEGIN ATOMIC ... END`), whose inner
/// semicolons would cut the statement.
public enum SQLScript {
    /// The statements of `sql` in order, each without its final semicolon and trimmed; pieces that
    /// hold only whitespace and comments are left out.
    public static func statements(_ sql: String) -> [String] {
        let bytes = Array(sql.utf8)
        var statements: [String] = []
        var start = 0
        var hasContent = false
        var i = 0

        func finish(at end: Int) {
            if hasContent, let text = String(bytes: bytes[start..<end], encoding: .utf8) {
                statements.append(trimmed(text))
            }
            start = end + 1
            hasContent = false
        }

        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: ";"):
                finish(at: i)
                i += 1
            case UInt8(ascii: "-") where next(bytes, i) == UInt8(ascii: "-"):
                while i < bytes.count && bytes[i] != UInt8(ascii: "\n") { i += 1 }
            case UInt8(ascii: "/") where next(bytes, i) == UInt8(ascii: "*"):
                var depth = 0
                repeat {
                    if bytes[i] == UInt8(ascii: "/") && next(bytes, i) == UInt8(ascii: "*") {
                        depth += 1
                        i += 2
                    } else if bytes[i] == UInt8(ascii: "*") && next(bytes, i) == UInt8(ascii: "/") {
                        depth -= 1
                        i += 2
                    } else {
                        i += 1
                    }
                } while depth > 0 && i < bytes.count
            case UInt8(ascii: "'"):
                hasContent = true
                let escapes = i > 0 && (bytes[i - 1] | 0x20) == UInt8(ascii: "e") && !(i > 1 && isIdentifier(bytes[i - 2]))
                i = skipQuoted(bytes, from: i, quote: byte, backslashEscapes: escapes)
            case UInt8(ascii: "\""):
                hasContent = true
                i = skipQuoted(bytes, from: i, quote: byte, backslashEscapes: false)
            case UInt8(ascii: "$"):
                hasContent = true
                if let tagEnd = dollarTagEnd(bytes, at: i) {
                    let tag = bytes[i...tagEnd]
                    var j = tagEnd + 1
                    while j < bytes.count && !(bytes[j] == UInt8(ascii: "$") && bytes[j...].starts(with: tag)) { j += 1 }
                    i = min(bytes.count, j + tag.count)
                } else {
                    i += 1
                }
            default:
                if !isSpace(byte) { hasContent = true }
                i += 1
            }
        }
        finish(at: bytes.count)
        return statements
    }

    private static func next(_ bytes: [UInt8], _ i: Int) -> UInt8? {
        i + 1 < bytes.count ? bytes[i + 1] : nil
    }

    /// The index after the closing quote of the string or identifier opened at `from`.
    private static func skipQuoted(_ bytes: [UInt8], from: Int, quote: UInt8, backslashEscapes: Bool) -> Int {
        var i = from + 1
        while i < bytes.count {
            if backslashEscapes && bytes[i] == UInt8(ascii: "\\") {
                i += 2
            } else if bytes[i] == quote {
                if next(bytes, i) == quote { i += 2 } else { return i + 1 }
            } else {
                i += 1
            }
        }
        return i
    }

    /// The index of the `$` closing a dollar-quote tag that opens at `i` (`$$`, `$body$`), or nil
    /// when the `$` opens none (a parameter `$1`, or a `$` inside an identifier).
    private static func dollarTagEnd(_ bytes: [UInt8], at i: Int) -> Int? {
        if i > 0 && isIdentifier(bytes[i - 1]) { return nil }
        var j = i + 1
        if j < bytes.count && (bytes[j] >= UInt8(ascii: "0") && bytes[j] <= UInt8(ascii: "9")) { return nil }
        while j < bytes.count && isIdentifier(bytes[j]) && bytes[j] != UInt8(ascii: "$") { j += 1 }
        return j < bytes.count && bytes[j] == UInt8(ascii: "$") ? j : nil
    }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
