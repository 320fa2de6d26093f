@testable import Escaping
import Testing

/// The cases of issue 32 one by one, and the free-text rule checked over every scalar.
@Suite struct EscaperTests {
    @Test(arguments: ["\u{600}<script>alert(1)</script>", "v2\u{600}\"\u{600} onmouseover=\u{600}'x",
                      "\u{110BD}>", "a\u{301}&b", "\u{1F469}\u{200D}<"])
    func htmlEscapesMarkupAfterAGluingScalar(_ text: String) {
        let out = HTMLText.escaped(text)
        #expect(!out.contains { "<>\"'".contains($0) } && !out.utf8.contains { [0x3C, 0x3E, 0x22, 0x27].contains($0) },
                "\(String(reflecting: out))")
    }

    @Test func htmlLeavesPlainTextAlone() {
        #expect(HTMLText.escaped("Reply all — ✉︎") == "Reply all — ✉︎")
        #expect(HTMLText.escaped("a&b<c>\"d'") == "a&amp;b&lt;c&gt;&quot;d&#39;")
    }

    @Test func codeSpanFenceCountsBackticksAfterAGluingScalar() {
        // "\u{600}`" is one Character: a Character loop saw no backtick and fenced with one.
        #expect(MarkdownText.code("\u{600}`x") == "``\u{600}`x``")
        #expect(MarkdownText.code("a\u{600}``b") == "```a\u{600}``b```")
        #expect(MarkdownText.code("`x") == "`` `x ``")
        #expect(MarkdownText.code("") == "` `")
        #expect(MarkdownText.code("a|b", inTable: true) == "`a\\|b`")
        #expect(MarkdownText.code("a\nb\r") == "` a b  `")  // padded: it ends with a space
    }

    @Test func escapedProseHasNoLinkOrMention() {
        #expect(MarkdownText.escaped("see https://evil.example/login or WWW.evil.example") == "see https\\://evil.example/login or WWW\\.evil.example")
        #expect(MarkdownText.escaped("model: a (b) [c](d) <e> *f* x_y `g` #h ~i~ j|k &amp;") == "model: a (b) \\[c\\](d) \\<e\\> \\*f\\* x\\_y \\`g\\` \\#h \\~i\\~ j\\|k \\&amp;")
        #expect(MarkdownText.escaped("@everyone") == "@\u{2060}everyone")
        #expect(MarkdownText.escaped("- item\nnext") == "\\- item next")
        #expect(MarkdownText.escaped("    indented") == "indented")
    }

    @Test func terminalShowsControlsAndBidiVisibly() {
        #expect(TerminalText.visible("txt\u{202E}exe.\u{1B}[31m\u{9B}2J") == "txt\\u{202E}exe.\\u{001B}[31m\\u{009B}2J")
        #expect(TerminalText.visible("line\nnext") == "line\\u{000A}next")
        #expect(TerminalText.visible("Répondre à tous ✉︎") == "Répondre à tous ✉︎")
    }

    @Test func refusedScalarsAreExactlyTheControlsAndBidiFormatting() {
        let refused = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter { FreeText.isRefused($0) }.map(\.value)
        let expected = Array(0...0x1F) + Array(0x7F...0x9F) + [0x061C, 0x200E, 0x200F] + Array(0x202A...0x202E)
            + Array(0x2066...0x2069)
        #expect(refused == expected.map(UInt32.init))
        #expect(!FreeText.isRefused("\n", allowingLineBreaks: true) && !FreeText.isRefused("\t", allowingLineBreaks: true))
        #expect(FreeText.isRefused("\r", allowingLineBreaks: true))
    }

    /// The ingest path's byte check agrees with the scalar rule on every scalar, alone and with
    /// neighbours on both sides (so a lead byte at the end of the buffer is covered too).
    @Test func byteCheckAgreesWithTheScalarRule() {
        var disagreements: [UInt32] = []
        for value in 0...0x10FFFF {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            for text in [String(scalar), "a" + String(scalar) + "é"] {
                var copy = text
                let byBytes = copy.withUTF8 { FreeText.containsRefused(utf8: $0) }
                if byBytes != FreeText.isRefused(scalar) { disagreements.append(UInt32(value)) }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10).map { String($0, radix: 16) })")
    }
}
