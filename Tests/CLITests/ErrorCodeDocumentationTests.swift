import Foundation
import Testing

/// The documentation's error codes (README.md and docs/) against the code: the whole-request error table of the ingestion API, the
/// admin API's codes, and the per-event rejection codes are exactly those the sources can produce
/// (every `code: "..."` of an error response and every `RejectionCode(rawValue: "...")`), so a new
/// code cannot ship undocumented and the README cannot list one that does not exist.
@Suite("README error codes")
struct ErrorCodeDocumentationTests {
    static let root = CLIRunner.repositoryRoot

    static func sources(under folders: [String]) throws -> [(path: String, text: String)] {
        var out: [(String, String)] = []
        for folder in folders {
            let base = root.appendingPathComponent("Sources/\(folder)")
            let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            for file in files { out.append((file.lastPathComponent, try String(contentsOf: file, encoding: .utf8))) }
        }
        return out
    }

    static func matches(_ pattern: String, in text: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return Set(regex.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        })
    }

    /// The README text between the line starting with `start` and the next line starting with `end`.
    static func section(_ readme: String, from start: String, to end: String) throws -> String {
        let lines = readme.components(separatedBy: "\n")
        let first = try #require(lines.firstIndex { $0.hasPrefix(start) }, "README has no line starting \(start)")
        let last = lines[(first + 1)...].firstIndex { $0.hasPrefix(end) } ?? lines.endIndex
        return lines[first..<last].joined(separator: "\n")
    }

    /// README.md and every docs/*.md, one after the other.
    static func documentation() throws -> String {
        let docs = Self.root.appendingPathComponent("docs")
        let files = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        var text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        for file in files { text += "\n" + (try String(contentsOf: docs.appendingPathComponent(file), encoding: .utf8)) }
        return text
    }

    @Test func wholeRequestAndAdminCodesMatchTheCode() throws {
        let readme = try Self.documentation()
        let table = try Self.section(readme, from: "Whole-request errors", to: "Bad input never")
        // Codes in the table's second column.
        var documented = Set<String>()
        for line in table.components(separatedBy: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| status") {
            let cells = line.components(separatedBy: "|")
            if cells.count > 2 { documented.formUnion(Self.matches("`([a-z_]+)`", in: cells[2])) }
        }
        let admin = try Self.section(readme, from: "Errors use the API's shape", to: "Every decision records")
        documented.formUnion(Self.matches("`([a-z_]+)`", in: admin))

        // The codes of `APIErrorCode` that some answer uses (`.caseName` outside the enum's file),
        // and the batch errors' codes of Events (`Kind(code: "...")`).
        var produced = Set<String>()
        let sources = try Self.sources(under: ["HTTP", "Ingest", "Events"])
        let enumText = try #require(sources.first { $0.path == "APIErrorCode.swift" }?.text)
        let uses = sources.filter { $0.path != "APIErrorCode.swift" }.map(\.text).joined(separator: "\n")
        let regex = try NSRegularExpression(pattern: #"case (\w+) = "([a-z_]+)""#)
        for match in regex.matches(in: enumText, range: NSRange(enumText.startIndex..., in: enumText)) {
            guard let name = Range(match.range(at: 1), in: enumText).map({ String(enumText[$0]) }),
                  let code = Range(match.range(at: 2), in: enumText).map({ String(enumText[$0]) }) else { continue }
            if !Self.matches("\\.(\(name))\\b", in: uses).isEmpty { produced.insert(code) }
        }
        for (_, text) in sources {
            produced.formUnion(Self.matches(#"code: "([a-z_]+)""#, in: text))
        }
        #expect(!produced.isEmpty && produced.contains("rate_limited") && produced.contains("token_lookups_throttled"))
        #expect(produced.subtracting(documented).isEmpty, "in the code, not in README: \(produced.subtracting(documented).sorted())")
        #expect(documented.subtracting(produced).isEmpty, "in README, not in the code: \(documented.subtracting(produced).sorted())")
    }

    @Test func rejectionCodesMatchTheCode() throws {
        let readme = try Self.documentation()
        let bullet = try Self.section(readme, from: "- A `200` means every accepted event", to: "- Idempotent")
        let documented = Self.matches("`([a-z_]+)`", in: bullet).subtracting(["code", "rejected", "events"])
        var produced = Set<String>()
        for (_, text) in try Self.sources(under: ["Events", "Storage", "Ingest"]) {
            produced.formUnion(Self.matches(#"RejectionCode\(rawValue: "([a-z_]+)"\)"#, in: text))
        }
        #expect(produced.count >= 15, "\(produced.sorted())")
        #expect(produced == documented,
                "code only: \(produced.subtracting(documented).sorted()); README only: \(documented.subtracting(produced).sorted())")
    }
}
