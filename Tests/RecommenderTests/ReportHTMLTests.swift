import Menus
import Recommender
import Reports
import Testing

@Suite("Report HTML rendering")
struct ReportHTMLTests {
    let html = HTMLReportRenderer(titles: ReportFixtures.titles).render(ReportFixtures.report())

    @Test func selfContainedPage() {
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"))
        #expect(html.hasSuffix("</body>\n</html>\n"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("<link"))
        #expect(!html.contains("src="))
        // The only URL is the SVG namespace.
        #expect(html.components(separatedBy: "http:").count == 2 && !html.contains("https:"))
        // Its own policy forbids every script, as a file has no headers.
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'none';"))
        #expect(html.contains("xmlns=\"http://www.w3.org/2000/svg\""))
    }

    @Test func chartHasABarAndAWhiskerPerCommand() {
        #expect(html.components(separatedBy: "<rect class=\"bar").count - 1 == 9)
        #expect(html.components(separatedBy: "<line class=\"whisker\"").count - 1 == 27)
        #expect(html.contains("<rect class=\"bar moved_up\""))
        #expect(html.contains("<rect class=\"bar pruned\""))
        #expect(html.contains(">17.75%  3 → 2</text>"))
        #expect(html.contains(">0.20%  7.2 → pruned</text>"))
        #expect(html.contains("<title>Print: 0.20% (0.13% – 0.30%), 20 selections, 9 users</title>"))
    }

    @Test func layoutsPruneAndLint() {
        #expect(html.contains("<caption>Current</caption>"))
        #expect(html.contains("<caption>Proposed</caption>"))
        #expect(html.contains("<td class=\"label\">&#160;&#160;Print</td>"))
        #expect(html.contains("<td class=\"moved_out_of_submenu\">← out of &quot;Share&quot; 7.1→7</td>"))
        #expect(html.contains("<h3>Flagged for pruning</h3>"))
        #expect(html.contains("<span class=\"severity warning\">warning</span> HIG-6 at <code>menus.mail.message.groups</code>"))
    }

    @Test func tagsAreBalanced() throws {
        try Self.checkBalanced(html)
        try Self.checkBalanced(HTMLReportRenderer().render(ReportFixtures.document()))
        try Self.checkBalanced(HTMLReportRenderer().render(Self.hostileDocument()))
    }

    @Test func theCheckerCatchesUnbalancedMarkup() {
        #expect(throws: Unbalanced.self) { try Self.checkBalanced("<div><span></div>") }
        #expect(throws: Unbalanced.self) { try Self.checkBalanced("<p>a <b>.type</p>") }
        #expect(throws: Never.self) { try Self.checkBalanced("<svg><rect x=\"1\"/></svg><meta charset=\"utf-8\">") }
    }

    @Test func everythingFromTheDataIsEscaped() throws {
        let document = Self.hostileDocument()
        let page = HTMLReportRenderer(titles: ["<script>": "<script>alert(\"t\")</script>"]).render(document)
        #expect(!page.contains("<script"))
        #expect(!page.contains("<img"))
        #expect(page.contains("&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;"))
        #expect(page.contains("Tom &amp; Jerry&#39;s &lt;img src=x&gt;"))
        #expect(page.contains("<code>&lt;b&gt;.type</code>"))
        try Self.checkBalanced(page)
        let untitled = HTMLReportRenderer().render(document)
        #expect(untitled.contains("&lt;script&gt;"))
        #expect(!untitled.contains("<script"))
    }

    /// A menu whose command id, submenu title and element type are markup.
    static func hostileDocument() -> ProposalDocument {
        let commands: [String: CommandInfo] = [
            "<script>": CommandInfo(title: "x"), "b": CommandInfo(title: "b"), "c": CommandInfo(title: "c"),
        ]
        let menu = ElementMenu(layout: Layout(groups: [
            [.command("b"), .submenu(Submenu(title: "Tom & Jerry's <img src=x>", items: [.command("<script>"), .command("c")]))],
        ]))
        var document = ReportFixtures.document(menu: menu, commands: commands,
                                               selections: ["<script>": 500, "b": 20, "c": 300])
        document.elementType = "<b>.type"
        document.lint.append(ReportFinding(rule: .hig3, severity: .error, path: "menus.<b>.groups[0][1]",
                                           message: "title \"<i>\" & more"))
        return document
    }

    struct Unbalanced: Error, CustomStringConvertible {
        let description: String
    }

    /// Every element opened is closed in order; void elements (`meta`) and self-closed SVG shapes
    /// (`<rect .../>`) stand alone.
    static func checkBalanced(_ html: String) throws {
        let void: Set<String> = ["meta", "br", "hr", "img", "input", "link"]
        var stack: [String] = []
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { throw Unbalanced(description: "unterminated tag") }
            let tag = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("!") { continue }
            if tag.hasPrefix("/") {
                let name = String(tag.dropFirst())
                guard stack.popLast() == name else { throw Unbalanced(description: "</\(name)> closes nothing open") }
                continue
            }
            let name = String(tag.prefix { $0 != " " && $0 != "/" })
            if tag.hasSuffix("/") || void.contains(name) { continue }
            stack.append(name)
        }
        guard stack.isEmpty else { throw Unbalanced(description: "left open: \(stack)") }
    }
}
