import Escaping

/// The invariants the escaper fuzz targets check (`precondition`, so a break stops the fuzzer).
/// They are stated on bytes, the escapers' own unit: what a parser of HTML or Markdown needs in
/// order to read structure out of the output. The real parsers check the same on random Unicode
/// in the test suite (`EscapingTests`, with html5lib and cmark-gfm).
enum EscaperInvariants {
    static func html(_ text: String) {
        let out = Array(HTMLText.escaped(text).utf8)
        let references: [[UInt8]] = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].map { Array($0.utf8) }
        let raw: [UInt8] = ["&", "<", ">", "\"", "'"].map { UInt8(ascii: $0) }
        var undone: [UInt8] = []
        var i = 0
        while i < out.count {
            let b = out[i]
            precondition(b != UInt8(ascii: "<") && b != UInt8(ascii: ">") && b != UInt8(ascii: "\"")
                         && b != UInt8(ascii: "'"), "a markup byte left raw at \(i)")
            if b == UInt8(ascii: "&") {
                guard let k = references.firstIndex(where: { out[i...].starts(with: $0) }) else {
                    preconditionFailure("an & that starts no reference at \(i)")
                }
                undone.append(raw[k])
                i += references[k].count
            } else {
                undone.append(b)
                i += 1
            }
        }
        precondition(undone == Array(text.utf8), "unescaping does not give the input back")
    }

    static func markdown(_ text: String) {
        let tick = UInt8(ascii: "`")
        for inTable in [false, true] {
            let span = Array(MarkdownText.code(text, inTable: inTable).utf8)
            var fence = 0
            while fence < span.count && span[fence] == tick { fence += 1 }
            precondition(fence > 0 && span.count >= 2 * fence && span.suffix(fence).allSatisfy { $0 == tick }
                         && (span.count == 2 * fence || span[span.count - fence - 1] != tick),
                         "the code span is not fenced")
            var inner = Array(span[fence..<(span.count - fence)])
            // No run of exactly `fence` backticks inside: the span cannot close early.
            var run = 0
            for b in inner + [0] {
                if b == tick { run += 1 } else { precondition(run != fence, "a closing fence inside"); run = 0 }
            }
            precondition(!inner.contains(0x0A) && !inner.contains(0x0D), "a line break inside")
            if inner.count >= 2 && inner.first == 0x20 && inner.last == 0x20 && inner.contains(where: { $0 != 0x20 }) {
                inner = Array(inner.dropFirst().dropLast())
            }
            var shown: [UInt8] = []
            var k = 0
            while k < inner.count {
                if inTable && inner[k] == UInt8(ascii: "\\") && k + 1 < inner.count && inner[k + 1] == UInt8(ascii: "|") {
                    shown.append(UInt8(ascii: "|"))
                    k += 2
                } else {
                    precondition(!(inTable && inner[k] == UInt8(ascii: "|")), "a raw pipe in a table cell")
                    shown.append(inner[k])
                    k += 1
                }
            }
            let expected = Array(text.utf8).map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
            precondition(text.isEmpty ? shown == [0x20] || shown.isEmpty : shown == expected,
                         "the code span does not hold the text")
        }
        let plain = Array(MarkdownText.escaped(text).utf8)
        precondition(!plain.contains(0x0A) && !plain.contains(0x0D) && !plain.contains(0x09), "a line break in escaped text")
        precondition(plain.first != 0x20, "a leading blank in escaped text")
        let always = Set("\\`*_[]<>#|~&".utf8)
        let sometimes = Set("-+:.".utf8)
        var escapedAt = Set<Int>()
        var i = 0
        while i < plain.count {
            let b = plain[i]
            if b == UInt8(ascii: "\\") {
                precondition(i + 1 < plain.count && (always.contains(plain[i + 1]) || sometimes.contains(plain[i + 1])),
                             "a backslash that escapes nothing at \(i)")
                escapedAt.insert(i + 1)
                i += 2
                continue
            }
            precondition(!always.contains(b), "unescaped punctuation at \(i)")
            if b == UInt8(ascii: "@") {
                precondition(plain[(i + 1)...].starts(with: [0xE2, 0x81, 0xA0]), "an @ without the word joiner")
            }
            if b == UInt8(ascii: ":") {
                precondition(!plain[(i + 1)...].starts(with: Array("//".utf8)), "an autolink's :// left raw")
            }
            if b == UInt8(ascii: ".") && i >= 3 {
                precondition(!plain[(i - 3)..<i].allSatisfy { $0 | 0x20 == UInt8(ascii: "w") }, "an autolink's www. left raw")
            }
            i += 1
        }
        precondition(!(plain.first == UInt8(ascii: "-") || plain.first == UInt8(ascii: "+")), "a list marker at the start")
    }

    static func terminal(_ text: String) {
        let shown = TerminalText.visible(text)
        precondition(FreeText.firstRefused(in: shown) == nil, "a refused scalar reached the terminal")
        precondition((FreeText.firstRefused(in: text) == nil) == (shown == text), "visible changed clean text")
        var copy = text
        let byBytes = copy.withUTF8 { FreeText.containsRefused(utf8: $0) }
        precondition(byBytes == (FreeText.firstRefused(in: text) != nil), "the byte check and the scalar rule disagree")
    }
}
