import Reports
import Testing

/// Issue 32: titles and element types reach the terminal with their control and bidi formatting
/// characters shown as `\u{XXXX}`, never raw (an ESC sequence, a CSI, an override).
@Suite struct ReportTerminalTests {
    @Test func controlAndBidiCharactersAreShownVisibly() {
        var titles = ReportFixtures.titles
        titles["reply"] = "Reply\u{1B}]0;pwned\u{07}"
        titles["forward"] = "Forward \u{202E}gnp.exe\u{9B}2J"
        var document = ReportFixtures.document()
        document.elementType = "mail\u{2066}.message"
        for colour in [false, true] {
            let text = TextReportRenderer(colour: colour, titles: titles).render(document)
            let raw = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n" && $0 != "\u{1B}") || (0x7F...0x9F).contains($0.value)
                || [0x202E, 0x2066].contains($0.value) }
            #expect(raw.isEmpty, "raw scalars reach the terminal: \(raw.map { String($0.value, radix: 16) })")
            #expect(text.contains("Reply\\u{001B}]0;pwned\\u{0007}"))
            #expect(text.contains("Forward \\u{202E}gnp.exe\\u{009B}2J"))
            #expect(text.contains("mail\\u{2066}.message"))
            // With colour, the only ESC bytes are the renderer's own SGR codes.
            let escapes = text.components(separatedBy: "\u{1B}").dropFirst()
            #expect(escapes.allSatisfy { $0.hasPrefix("[") && $0.prefix(6).contains("m") }, "\(colour)")
        }
    }
}
