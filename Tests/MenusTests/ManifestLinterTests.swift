import Menus
import Testing

@Suite("Lint")
struct ManifestLinterTests {
    /// Lints a manifest whose `menus` member holds `menus`.
    func lint(_ menus: String, usage: MenuUsage? = nil, options: LintOptions = LintOptions()) throws -> LintReport {
        let doc = try ManifestParser.load(Fixtures.manifest(menus: menus))
        return ManifestLinter(options: options).lint(doc, usage: usage)
    }

    /// The findings of `rule` as `severity path` strings.
    func found(_ report: LintReport, _ rule: LintRule) -> [String] {
        report.findings.filter { $0.rule == rule }.map { "\($0.severity) \($0.path)" }
    }

    @Test("the DESIGN.md example: HIG-6 only (4 groups)")
    func designExample() throws {
        let doc = try ManifestParser.load(Fixtures.designExample)
        let usage = MenuUsage(elements: ["mail.message": ElementUsage(selections: Fixtures.designSelections, dismissals: 300)])
        for report in [ManifestLinter().lint(doc), ManifestLinter().lint(doc, usage: usage)] {
            #expect(report.findings.map(\.description) == [
                "warning HIG-6 menus.mail.message.groups: the menu has 4 groups; keep to at most 3 by merging related groups",
            ])
            #expect(!report.hasErrors)
            #expect(report.hasWarnings)
            #expect(report.exitStatus(strict: false) == 0)
            #expect(report.exitStatus(strict: true) == 1)
        }
    }

    // MARK: HIG-1

    @Test("HIG-1: telemetry for an element type without a menu, a menu nobody opened")
    func hig1() throws {
        let menus = #""a": {"groups": [["reply"]]}, "b": {"groups": [["copy"]]}, "c": {"edit_menu": true, "groups": []}"#
        let usage = MenuUsage(elements: [
            "a": ElementUsage(opens: 10, selections: ["reply": 8]),
            "b": ElementUsage(opens: 0),
            "x.unknown": ElementUsage(selections: ["copy": 3], dismissals: 2),
            "y.quiet": ElementUsage(opens: 0),
        ])
        let report = try lint(menus, usage: usage)
        #expect(found(report, .hig1) == ["warning menus.b", "warning menus.x.unknown"])
        let unknown = try #require(report.findings.first { $0.elementType == "x.unknown" })
        #expect(unknown.message.contains("opened 5 times"))
    }

    @Test("HIG-1: nothing without usage data, nothing when every menu is opened")
    func hig1Negative() throws {
        let menus = #""a": {"groups": [["reply"]]}, "b": {"groups": [["copy"]]}"#
        #expect(found(try lint(menus), .hig1).isEmpty)
        let usage = MenuUsage(elements: ["a": ElementUsage(opens: 4), "b": ElementUsage(selections: ["copy": 1], dismissals: 0)])
        #expect(found(try lint(menus, usage: usage), .hig1).isEmpty)
    }

    // MARK: HIG-2

    @Test("HIG-2: more top-level items than maxGroups * maxGroupSize")
    func hig2() throws {
        let menus = #""m": {"groups": [["reply", "forward", "archive", "copy"], ["print", "move", "flag"], ["share", "rename", "delete"]]}"#
        let report = try lint(menus)
        #expect(found(report, .hig2) == ["warning menus.m.groups", "info menus.m.groups[0]"])
        #expect(report.findings.first { $0.rule == .hig2 }?.message.contains("10 items at the top level") == true)
        #expect(found(try lint(menus, options: LintOptions(maxGroups: 3, maxGroupSize: 4)), .hig2).isEmpty)
    }

    @Test("HIG-2: nine items in three groups of three pass; a submenu counts as one item")
    func hig2Negative() throws {
        let menus = """
            "m": {"groups": [["reply", "forward", "archive"], ["print", "move", "flag"],
                             ["share", "rename", {"submenu": "Copy", "items": ["copy", "view"]}]]}
            """
        #expect(found(try lint(menus), .hig2).isEmpty)
    }

    // MARK: HIG-3

    @Test("HIG-3: generic titles", arguments: ["More", "more…", "Other...", "  OPTIONS ", "Misc", "Actions", "...", "…",
                                               "Ещё", "Другое"])
    func hig3Generic(title: String) throws {
        let report = try lint(#""m": {"groups": [[{"submenu": "\#(title)", "items": ["copy", "print"]}]]}"#)
        #expect(found(report, .hig3) == ["warning menus.m.groups[0][0].submenu"])
    }

    @Test("HIG-3: action-oriented titles pass", arguments: ["Share", "More Run/Debug", "Open In", "Move to…", "Поделиться"])
    func hig3Negative(title: String) throws {
        let report = try lint(#""m": {"groups": [[{"submenu": "\#(title)", "items": ["copy", "print"]}]]}"#)
        #expect(found(report, .hig3).isEmpty)
    }

    @Test("HIG-3: an empty title is an error, an empty submenu a warning, a single item an info")
    func hig3Shapes() throws {
        let report = try lint("""
            "m": {"groups": [[{"submenu": " ", "items": ["copy", "print"]}, {"submenu": "Share", "items": []},
                              {"submenu": "Send", "items": ["share"]}]]}
            """)
        #expect(found(report, .hig3) == [
            "error menus.m.groups[0][0].submenu", "warning menus.m.groups[0][1].items", "info menus.m.groups[0][2]",
        ])
        #expect(report.hasErrors)
        #expect(report.findings.last?.message == "submenu \"Send\" holds a single item; put \"Share\" (share) in its place")
    }

    // MARK: HIG-4

    @Test("HIG-4: each nested submenu is an error at its path")
    func hig4() throws {
        let report = try lint("""
            "m": {"groups": [["reply"], [{"submenu": "Edit", "items": ["copy",
                {"submenu": "Transform", "items": ["print", {"submenu": "Deeper", "items": ["move", "flag"]}]}]}]]}
            """)
        #expect(found(report, .hig4) == ["error menus.m.groups[1][0].items[1]", "error menus.m.groups[1][0].items[1].items[1]"])
        #expect(report.findings.first { $0.rule == .hig4 }?.message
            == "submenu \"Transform\" is nested inside submenu \"Edit\"; keep submenus to one level")
        #expect(report.exitStatus(strict: false) == 1)
    }

    @Test("HIG-4: submenus one level deep pass")
    func hig4Negative() throws {
        let report = try lint(#""m": {"groups": [[{"submenu": "Edit", "items": ["copy", "print"]}, {"submenu": "Send", "items": ["share", "move"]}]]}"#)
        #expect(found(report, .hig4).isEmpty)
    }

    // MARK: HIG-5

    @Test("HIG-5: the most-used command far from the top")
    func hig5() throws {
        let menus = #""m": {"groups": [["reply", "forward"], ["archive", {"submenu": "Share", "items": ["copy", "print"]}]]}"#
        let usage = MenuUsage(elements: ["m": ElementUsage(
            selections: ["reply": 10, "forward": 5, "archive": 3, "copy": 82], dismissals: 0)])
        let report = try lint(menus, usage: usage)
        #expect(found(report, .hig5) == ["warning menus.m.groups[1][1].items[0]"])
        #expect(report.findings.first { $0.rule == .hig5 }?.message == "\"Copy\" (copy) is the most-used command of this "
            + "menu (82 of 100 selections, 82.0%) but is item 4 in reading order, inside submenu \"Share\"; put it among "
            + "the first 3 items of the first group")
    }

    @Test("HIG-5: the fourth item of a long first group is not near the top")
    func hig5FourthItem() throws {
        let menus = #""m": {"groups": [["reply", "forward", "archive", "copy"]]}"#
        let usage = MenuUsage(elements: ["m": ElementUsage(opens: 20, selections: ["copy": 9, "reply": 1])])
        #expect(found(try lint(menus, usage: usage), .hig5) == ["warning menus.m.groups[0][3]"])
    }

    @Test("HIG-5: most-used at the top, a tie with an item at the top, no selections, no usage")
    func hig5Negative() throws {
        let menus = #""m": {"groups": [["reply", "forward"], ["archive", "copy"]]}"#
        let cases: [MenuUsage?] = [
            nil,
            MenuUsage(elements: ["m": ElementUsage(opens: 9, selections: ["reply": 5, "forward": 3, "copy": 1])]),
            MenuUsage(elements: ["m": ElementUsage(opens: 9, selections: ["forward": 4, "copy": 4])]),
            MenuUsage(elements: ["m": ElementUsage(opens: 9, selections: [:])]),
            MenuUsage(elements: ["m": ElementUsage(opens: 9, selections: ["not_in_menu": 50, "reply": 1])]),
        ]
        for usage in cases {
            #expect(found(try lint(menus, usage: usage), .hig5).isEmpty)
        }
    }

    // MARK: HIG-6

    @Test("HIG-6: more than three groups")
    func hig6() throws {
        let menus = #""m": {"groups": [["reply"], ["forward"], ["archive"], ["delete"]]}"#
        #expect(found(try lint(menus), .hig6) == ["warning menus.m.groups"])
        #expect(found(try lint(menus, options: LintOptions(maxGroups: 4)), .hig6).isEmpty)
    }

    @Test("HIG-6: three groups pass")
    func hig6Negative() throws {
        #expect(found(try lint(#""m": {"groups": [["reply"], ["forward"], ["delete"]]}"#), .hig6).isEmpty)
    }

    // MARK: HIG-7

    @Test("HIG-7: an edit menu and a context menu on one element type")
    func hig7() throws {
        let report = try lint(#""text.field": {"edit_menu": true, "groups": [["copy"]]}"#)
        #expect(found(report, .hig7) == ["error menus.text.field.edit_menu"])
        #expect(report.hasErrors)
    }

    @Test("HIG-7: an edit menu alone, or a context menu alone, passes")
    func hig7Negative() throws {
        let report = try lint(#""a": {"edit_menu": true, "groups": []}, "b": {"edit_menu": false, "groups": [["copy"]]}"#)
        #expect(found(report, .hig7).isEmpty)
        #expect(report.findings.filter { $0.elementType == "a" }.isEmpty)
    }

    // MARK: HIG-8

    @Test("HIG-8: open commands on a previewed element")
    func hig8() throws {
        let report = try lint(#""photo": {"preview": true, "groups": [["view", "share"], ["files.open", "open_window"]]}"#)
        #expect(found(report, .hig8) == [
            "warning menus.photo.groups[0][0]", "warning menus.photo.groups[1][0]", "info menus.photo.groups[1][1]",
        ])
    }

    @Test("HIG-8: nothing without a preview, nothing without an open command")
    func hig8Negative() throws {
        let report = try lint("""
            "a": {"groups": [["view", "files.open", "open_window"]]}, "b": {"preview": true, "groups": [["share", "copy"]]}
            """)
        #expect(found(report, .hig8).isEmpty)
    }

    @Test("HIG-8: what counts as opening", arguments: [
        ("open", nil, ManifestLinter.OpenLikeness.open), ("$Open", nil, .open), ("files.open", "Show", .open),
        ("x", "Open", .open), ("x", "open…", .open), ("x", "Открыть", .open),
        ("x", "Open in New Window", .openElsewhere), ("x", "Open With...", .openElsewhere),
        ("OpenInRightSplit", "Right Split", .openElsewhere), ("open_with", nil, .openElsewhere),
        ("x", "Открыть в новом окне", .openElsewhere),
        ("opener", "Opener", nil), ("reopen", "Reopen", nil), ("x", "Openness", nil), ("openFolder.x", "Show", nil),
    ] as [(String, String?, ManifestLinter.OpenLikeness?)])
    func openLikeness(id: String, title: String?, expected: ManifestLinter.OpenLikeness?) {
        #expect(ManifestLinter.openLikeness(id: id, title: title) == expected)
    }

    // MARK: STRUCTURE and MANIFEST

    @Test("STRUCTURE: a command listed twice, an empty group, a menu without groups")
    func structure() throws {
        let report = try lint(#""m": {"groups": [["reply", "copy"], [], [{"submenu": "Edit", "items": ["copy", "print"]}]]}, "n": {"groups": []}"#)
        #expect(found(report, .structure) == [
            "warning menus.m.groups[1]", "warning menus.m.groups[2][0].items[0]", "warning menus.n.groups",
        ])
        #expect(report.findings.contains { $0.message == "\"Copy\" (copy) is listed more than once in this menu "
            + "(first at menus.m.groups[0][1]); keep one" })
    }

    @Test("STRUCTURE: one command in two menus is not a repeat")
    func structureNegative() throws {
        let report = try lint(#""a": {"groups": [["reply", "copy"]]}, "b": {"groups": [["copy", "reply"]]}"#)
        #expect(found(report, .structure).isEmpty)
    }

    @Test("MANIFEST: unused commands inform (an unknown member does not load: ManifestParserTests)")
    func manifestRule() throws {
        let doc = try ManifestParser.load("""
            {"app": "a", "commands": {"copy": {"title": "Copy"}, "spare": {"title": "Spare"}},
             "menus": {"m": {"groups": [["copy"]]}}}
            """)
        let report = ManifestLinter().lint(doc)
        #expect(report.findings.map { "\($0.rule) \($0.severity) \($0.path)" } == ["MANIFEST info commands.spare"])
        #expect(report.findings[0].message == "\"Spare\" (spare) is declared but no menu lists it")
        #expect(report.findings[0].elementType == nil)
    }

    // MARK: Report

    @Test("findings sort by element type, then path, whatever the dictionary order")
    func ordering() throws {
        let menus = """
            "z.last": {"groups": [["reply"], ["forward"], ["archive"], ["copy", "copy"]]},
            "a.first": {"edit_menu": true, "groups": [[{"submenu": "More", "items": ["print"]}], [], ["move"], ["flag"],
                        ["share"], ["rename"], ["delete"], ["view"], ["reply"], ["forward"], ["archive"]]}
            """
        let report = try lint(menus)
        let expected = [
            "a.first menus.a.first.edit_menu HIG-7", "a.first menus.a.first.groups HIG-2",
            "a.first menus.a.first.groups HIG-6", "a.first menus.a.first.groups[0][0] HIG-3",
            "a.first menus.a.first.groups[0][0].submenu HIG-3", "a.first menus.a.first.groups[1] STRUCTURE",
            "z.last menus.z.last.groups HIG-6", "z.last menus.z.last.groups[3][1] STRUCTURE",
        ]
        let unused = report.findings.filter { $0.elementType == nil }.map(\.path.description)
        #expect(unused == ["commands.files.open", "commands.open_window"])
        #expect(report.findings.filter { $0.elementType != nil }.map { "\($0.elementType!) \($0.path) \($0.rule)" } == expected)
        for _ in 0..<5 {
            #expect(try lint(menus) == report)
        }
        #expect(report.count(.error) == 1)
        #expect(report.description.hasPrefix("info MANIFEST commands.files.open: "))
    }

    @Test("a clean menu has no findings and exits 0 even when strict")
    func clean() throws {
        let doc = try ManifestParser.load("""
            {"app": "a", "commands": {"reply": {"title": "Reply"}, "copy": {"title": "Copy"}, "delete": {"title": "Delete"}},
             "menus": {"m": {"groups": [["reply", "copy"], ["delete"]]}}}
            """)
        let report = ManifestLinter().lint(doc, usage: MenuUsage(elements: ["m": ElementUsage(opens: 3, selections: ["reply": 2])]))
        #expect(report.findings.isEmpty)
        #expect(report.exitStatus(strict: true) == 0)
        #expect(report.jsonValue.jsonText == #"{"findings":[],"errors":0,"warnings":0,"infos":0}"#)
    }
}
