import JSON
import Menus
import Testing

/// CONVENTION: Cut, Copy and Paste (declared or read from titles) and `together` sets in a current menu.
@Suite("Lint: conventions")
struct ConventionLintTests {
    static let commands = """
        "cut": {"title": "Cut"}, "copy": {"title": "Copy…"}, "paste": {"title": "Paste"},
        "snip": {"title": "Snip", "role": "cut"}, "dup": {"title": "Copy"}, "copy_link": {"title": "Copy Link"},
        "bold": {"title": "Bold"}, "italic": {"title": "Italic"}, "under": {"title": "Underline"},
        "share": {"title": "Share"}, "print": {"title": "Print"}
        """

    func lint(_ menus: String, together: String = "[]") throws -> [LintFinding] {
        let text = "{\"app\": \"a\", \"commands\": {\(Self.commands)}, \"together\": \(together), \"menus\": {\(menus)}}"
        let report = ManifestLinter().lint(try ManifestParser.load(text))
        return report.findings.filter { $0.rule == .convention }
    }

    func described(_ findings: [LintFinding]) -> [String] { findings.map { "\($0.severity) \($0.path)" } }

    @Test("Cut, Copy, Paste together and in order: nothing, wherever the one group is")
    func clipboardKept() throws {
        #expect(try lint(#""m": {"groups": [["share"], ["cut", "copy", "copy_link", "paste"]]}"#).isEmpty)
        #expect(try lint(#""m": {"groups": [[{"submenu": "Edit", "items": ["cut", "copy", "paste"]}], ["share"]]}"#).isEmpty)
        // Two of the three, or one, are held to the same rule only when there are at least two.
        #expect(try lint(#""m": {"groups": [["copy", "paste"], ["share"]]}"#).isEmpty)
        #expect(try lint(#""m": {"groups": [["copy"], ["share", "paste"]]}"#).count == 1)
        #expect(try lint(#""m": {"groups": [["copy"], ["share"]]}"#).isEmpty)
        // "Copy Link" is no clipboard Copy; nor is a second "Copy" after the first.
        #expect(try lint(#""m": {"groups": [["cut", "copy", "paste"], [{"submenu": "More", "items": ["dup"]}]]}"#).isEmpty)
    }

    @Test("split across groups or into a submenu: a warning at the first one out, naming where each is")
    func clipboardSplit() throws {
        let split = try lint(#""m": {"groups": [["cut", "copy"], ["share", "paste"]]}"#)
        #expect(described(split) == ["warning menus.m.groups[1][1]"])
        #expect(split[0].message == "Cut, Copy and Paste are split (\"Cut\" (cut), \"Copy…\" (copy) in group 1; "
            + "\"Paste\" (paste) in group 2): people look for them side by side, so keep them in one group, "
            + "in the order Cut, Copy, Paste")
        let submenu = try lint(#""m": {"groups": [["cut", {"submenu": "Clipboard", "items": ["copy", "paste"]}]]}"#)
        #expect(described(submenu) == ["warning menus.m.groups[0][1].items[0]"])
        #expect(submenu[0].message.contains("\"Cut\" (cut) in group 1; \"Copy…\" (copy), \"Paste\" (paste) in submenu \"Clipboard\" of group 1"))
        let two = try lint(#""m": {"groups": [["copy"], ["paste"]]}"#)
        #expect(two.first?.message.hasPrefix("Copy and Paste are split (") == true)
    }

    @Test("out of order: a warning at the first that comes too early")
    func clipboardOrder() throws {
        let order = try lint(#""m": {"groups": [["paste", "cut", "copy"]]}"#)
        #expect(described(order) == ["warning menus.m.groups[0][0]"])
        #expect(order[0].message == "\"Paste\" (paste) comes before \"Cut\" (cut); the convention is Cut, Copy, Paste, in that order")
        let both = try lint(#""m": {"groups": [["copy"], ["share", "cut"]]}"#)
        #expect(described(both) == ["warning menus.m.groups[0][0]", "warning menus.m.groups[1][1]"])
    }

    @Test("a declared role counts, and a declared role other than the title's wins")
    func declaredRoles() throws {
        // snip is declared cut: before it, Copy is out of order.
        #expect(described(try lint(#""m": {"groups": [["copy", "snip", "paste"]]}"#)) == ["warning menus.m.groups[0][0]"])
        // A "Cut" declared as share is no cut.
        let text = """
            {"app": "a", "commands": {"cut": {"title": "Cut", "role": "share"}, "copy": {"title": "Copy"}},
             "menus": {"m": {"groups": [["copy"], ["cut"]]}}}
            """
        #expect(ManifestLinter().lint(try ManifestParser.load(text)).findings.filter { $0.rule == .convention }.isEmpty)
    }

    @Test("a together set split across groups: a warning; listed in another order: an info")
    func together() throws {
        let sets = #"[["bold", "italic", "under"], ["share", "print"]]"#
        #expect(try lint(#""m": {"groups": [["bold", "italic", "under"], ["share", "print"]]}"#, together: sets).isEmpty)
        // A set the menu lists one of (or none) is not checked.
        #expect(try lint(#""m": {"groups": [["bold"], ["share"]]}"#, together: sets).isEmpty)
        let split = try lint(#""m": {"groups": [["bold", "italic"], [{"submenu": "Format", "items": ["under"]}]]}"#, together: sets)
        #expect(described(split) == ["warning menus.m.groups[1][0].items[0]"])
        #expect(split[0].message == "together[0] moves \"Bold\" (bold), \"Italic\" (italic), \"Underline\" (under) as one "
            + "unit, but this menu splits it (\"Bold\" (bold), \"Italic\" (italic) in group 1; \"Underline\" (under) in "
            + "submenu \"Format\" of group 2); keep its commands in one group, or take out of the set those that belong apart")
        let order = try lint(#""m": {"groups": [["print", "share"], ["italic", "bold"]]}"#, together: sets)
        #expect(described(order) == ["info menus.m.groups[0][0]", "info menus.m.groups[1][0]"])
        #expect(order[1].message == "\"Italic\" (italic) comes before \"Bold\" (bold) here, but together[0] lists "
            + "bold, italic, under, the order proposals keep; write the set in the order you mean")
        #expect(order.allSatisfy { $0.elementType == "m" })
    }

    @Test("the rule in lint's JSON and text")
    func output() throws {
        let text = """
            {"app": "a", "commands": {"copy": {"title": "Copy…"}, "paste": {"title": "Paste"}},
             "menus": {"m": {"groups": [["paste", "copy"]]}}}
            """
        let report = ManifestLinter().lint(try ManifestParser.load(text))
        #expect(report.description == "warning CONVENTION menus.m.groups[0][0]: \"Paste\" (paste) comes before "
            + "\"Copy…\" (copy); the convention is Cut, Copy, Paste, in that order\n")
        #expect(report.jsonValue["findings"]?.arrayValue?.first?["rule"] == "CONVENTION")
        #expect(report.exitStatus(strict: false) == 0 && report.exitStatus(strict: true) == 1)
    }
}
