import Escaping
import Foundation
import TestSupport
import Testing

/// The escapers against real parsers (`Tests/markup/check_markup.py`): html5lib, which implements
/// the HTML5 parsing algorithm browsers use, and Python's html.parser for HTML; cmark-gfm, GitHub's
/// own Markdown, for Markdown. Random text (`RandomText`: markup next to Prepend and combining
/// marks, links, mentions, controls) must never add an element, an attribute, a link, a mention
/// or HTML, and must come back as the text that went in.
@Suite struct RealParserTests {
    static let python = "/usr/bin/python3"

    static func check(_ mode: String, _ text: String) throws -> [String: Any] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("menurank-markup-\(UUID().uuidString)")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = try RepositoryPaths.root().appendingPathComponent("Tests/markup/check_markup.py").path
        let result = try ChildProcess.run(URL(fileURLWithPath: python), [script, mode, file.path])
        try #require(result.status == 0, "check_markup.py failed (scripts/deps installs python3-html5lib and python3-cmarkgfm): \(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    /// What an HTML parser makes of the text: CR LF and lone CR are read as LF.
    static func htmlNormalized(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// A document with every text in element content and in an attribute value, in HTML and in
    /// inline SVG (as the reports use both).
    static func htmlDocument(_ texts: [String]) -> String {
        var body = ""
        for (k, text) in texts.enumerated() {
            let e = HTMLText.escaped(text)
            body += "<p data-i=\"h\(k)\" title=\"\(e)\">\(e)</p>\n"
            body += "<svg><text data-i=\"s\(k)\" title='\(e)'>\(e)</text></svg>\n"
        }
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>t</title></head><body>\n\(body)</body></html>\n"
    }

    @Test func randomUnicodeNeverBecomesAnElementOrAttribute() throws {
        var random = SplitMix64(seed: 0x5EED_0032)
        let texts = (0..<600).map { _ in RandomText.next(&random) }
        #expect(texts.contains { $0.unicodeScalars.contains("\u{600}") && $0.contains("<") }, "the generator reached a Prepend mark")
        let report = try Self.check("html", Self.htmlDocument(texts))
        let baseline = try Self.check("html", Self.htmlDocument(texts.map { _ in "x" }))
        for parser in ["html5lib", "html.parser"] {
            let seen = try #require(report[parser] as? [String: Any])
            let expected = try #require(baseline[parser] as? [String: Any])
            let elements = try #require(seen["elements"] as? [[Any]]).map { "\($0)" }
            let expectedElements = try #require(expected["elements"] as? [[Any]]).map { "\($0)" }
            #expect(elements == expectedElements, "\(parser): the elements differ from the template's")
            let marked = try #require(seen["marked"] as? [String: [String: String]])
            var wrong = 0
            for (k, text) in texts.enumerated() {
                for id in ["h\(k)", "s\(k)"] {
                    let found = marked[id]
                    let want = Array(Self.htmlNormalized(text).unicodeScalars)
                    if found?["title"].map({ Array($0.unicodeScalars) }) != want || found?["text"].map({ Array($0.unicodeScalars) }) != want {
                        wrong += 1
                        if wrong <= 3 { Issue.record("\(parser) \(id): \(String(reflecting: text)) read back as \(String(describing: found))") }
                    }
                }
            }
            #expect(wrong == 0, "\(parser): \(wrong) texts did not read back as they went in")
        }
    }

    @Test func randomUnicodeNeverBecomesALinkMentionOrHTMLInMarkdown() throws {
        var random = SplitMix64(seed: 0x5EED_0033)
        let texts = (0..<400).map { _ in RandomText.next(&random) }
        var markdown = ""
        for (k, text) in texts.enumerated() { markdown += "- item \(k): \(MarkdownText.code(text))\n" }
        markdown += "\n" + MarkdownText.table(["k", "code", "prose"], rightAligned: [true, false, false],
                                              rows: texts.enumerated().map { k, text in
                                                  [String(k), MarkdownText.code(text, inTable: true), MarkdownText.escaped(text)]
                                              })
        for (k, text) in texts.enumerated() { markdown += "\nparagraph \(k): \(MarkdownText.escaped(text))\n" }
        for text in texts { markdown += "\n- " + MarkdownText.escaped(text) + "\n" }
        let report = try Self.check("markdown", markdown)
        let elements = Set(try #require(report["elements"] as? [[Any]]).compactMap { $0.first as? String })
        #expect(elements.isSubset(of: ["ul", "li", "code", "p", "table", "thead", "tbody", "tr", "th", "td"]),
                "elements that no renderer writes: \(elements.subtracting(["ul", "li", "code", "p", "table", "thead", "tbody", "tr", "th", "td"]).sorted())")
        let codes = try #require(report["codes"] as? [String])
        // Compared scalar by scalar (String's == would accept canonically equivalent text).
        let flat = texts.map { text -> [UInt32] in
            let one = text.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? 0x20 : $0.value }
            return one.isEmpty ? [0x20] : one
        }
        let read = codes.map { $0.unicodeScalars.map(\.value) }
        #expect(read == flat + flat, "the code spans do not hold the texts")
        for (k, pair) in zip(read, flat + flat).enumerated() where pair.0 != pair.1 {
            Issue.record("code \(k): \(pair.1.map { String($0, radix: 16) }) read back as \(pair.0.map { String($0, radix: 16) })")
            break
        }
        let outside = try #require(report["outside"] as? String)
        let mentions = outside.unicodeScalars.indices.filter { i in
            outside.unicodeScalars[i] == "@" && outside.unicodeScalars.index(after: i) < outside.unicodeScalars.endIndex
                && outside.unicodeScalars[outside.unicodeScalars.index(after: i)] != "\u{2060}"
        }
        #expect(mentions.isEmpty, "an @ that a chat can read as a mention, outside code")
        #expect(texts.contains { $0.contains("@everyone") } && texts.contains { $0.contains("https://") })
    }
}
