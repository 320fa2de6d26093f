import Foundation
import Reports
import TestSupport
import Testing

/// Issue 32's stored XSS, in real headless Chromium (`Tests/browser/report_charts.py`): titles and
/// element types that put markup after a Prepend scalar (U+0600 joins the `<` or `"` after it into
/// one `Character`) must show as text, and the page's own `<meta>` policy must stop a script even
/// when one gets into the page.
@Suite struct ReportScriptTests {
    static var chromium: String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func open(_ html: String, name: String) throws -> [String: Any] {
        let chromium = try #require(Self.chromium, "chromium is not installed (scripts/deps installs it)")
        let root = try RepositoryPaths.root()
        let file = root.appendingPathComponent(".menurank/\(name).html")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(html.utf8).write(to: file)
        let script = root.appendingPathComponent("Tests/browser/report_charts.py").path
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [
            "python3", script, "--file", file.path, "--chromium", chromium,
            "--screenshot", root.appendingPathComponent(".menurank/\(name).png").path,
        ])
        try #require(result.status == 0, "report_charts.py failed: \(result.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    static let attack = "document.title='pwned'"

    @Test func markupAfterAPrependMarkStaysText() throws {
        var titles = ReportFixtures.titles
        titles["reply"] = "\u{600}<img src=x onerror=\"\(Self.attack)\">"
        titles["forward"] = "\u{600}\"\u{600}><svg onload=\"\(Self.attack)\"></svg>"
        var document = ReportFixtures.document()
        document.elementType = "mail\u{600}<script>\(Self.attack)</script>"
        let html = HTMLReportRenderer(titles: titles).render(document)
        #expect(!html.contains("<img") && !html.contains("<script") && !html.contains("<svg onload"))
        let seen = try Self.open(html, name: "report-prepend")
        #expect((seen["title"] as? String)?.hasPrefix("Menu proposal for mail\u{600}<script>") == true, "\(seen["title"] ?? "")")
        #expect(seen["console_problems"] as? [String] == [], "\(seen["console_problems"] ?? "")")
        let charts = try #require(seen["charts"] as? [[String: Any]])
        #expect(charts.count == 1 && (charts.first?["width"] as? Double ?? 0) > 100, "the chart still renders")
    }

    @Test func thePagePolicyBlocksAScriptThatGetsIn() throws {
        let html = HTMLReportRenderer(titles: ReportFixtures.titles).render(ReportFixtures.document())
            .replacingOccurrences(of: "</body>", with: "<script>\(Self.attack)</script><img src=x onerror=\"\(Self.attack)\"></body>")
        let seen = try Self.open(html, name: "report-injected")
        #expect(seen["title"] as? String != "pwned")
        let problems = (seen["console_problems"] as? [String] ?? []).joined(separator: "\n")
        #expect(problems.contains("Content Security Policy"), "\(problems)")
    }
}
