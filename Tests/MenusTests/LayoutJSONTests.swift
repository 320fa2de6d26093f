import JSON
import Menus
import Testing
import TestSupport

@Suite("Layout as JSON")
struct LayoutJSONTests {
    static let layout = Layout(groups: [
        [.command("reply"), .command("forward")],
        [.submenu(Submenu(title: "Share", items: [.command("copy_link"), .command("print")]))],
        [],
    ])

    @Test("the manifest's shape, compact")
    func shape() throws {
        #expect(Self.layout.jsonText
            == #"[["reply","forward"],[{"submenu":"Share","items":["copy_link","print"]}],[]]"#)
        #expect(Self.layout.jsonValue == [["reply", "forward"], [["submenu": "Share", "items": ["copy_link", "print"]]], []])
    }

    @Test("round trips through JSON value and text")
    func roundTrip() throws {
        #expect(try Layout(json: Self.layout.jsonValue) == Self.layout)
        #expect(try Layout(jsonText: Self.layout.jsonText) == Self.layout)
        #expect(try Layout(jsonText: Self.layout.jsonText, commands: ["reply", "forward", "copy_link", "print"]) == Self.layout)
        var rng = SplitMix64(seed: 7)
        for _ in 0..<50 {
            let m = ManifestExporterTests.randomManifest(using: &rng)
            for menu in m.menus.values {
                #expect(try Layout(jsonText: menu.layout.jsonText) == menu.layout)
            }
        }
    }

    @Test("errors carry paths from the layout's root")
    func errors() throws {
        let e1 = try #require(throws: ManifestError.self) {
            try Layout(jsonText: #"[["reply", "bad id"], [{"submenu": "S"}], 3]"#)
        }
        #expect(e1.issues.map(\.path.description) == ["$[0][1]", "$[1][0].items", "$[2]"])
        let e2 = try #require(throws: ManifestError.self) {
            try Layout(jsonText: #"[["reply", "forward"]]"#, commands: ["reply"])
        }
        #expect(e2.issues.map(\.description) == [#"$[0][1]: command "forward" is not declared in commands"#])
        let e3 = try #require(throws: ManifestError.self) { try Layout(jsonText: "[[") }
        #expect(e3.kind == .syntax)
        let e4 = try #require(throws: ManifestError.self) {
            try Layout(json: ["x"], path: .groups("m"))
        }
        #expect(e4.issues.map(\.path.description) == ["menus.m.groups[0]"])
    }

    @Test("located items: paths, groups, depth")
    func located() {
        let items = Self.layout.locatedItems(under: .groups("mail.message"))
        #expect(items.map(\.path.description) == [
            "menus.mail.message.groups[0][0]", "menus.mail.message.groups[0][1]", "menus.mail.message.groups[1][0]",
            "menus.mail.message.groups[1][0].items[0]", "menus.mail.message.groups[1][0].items[1]",
        ])
        #expect(items.map(\.depth) == [0, 0, 0, 1, 1])
        #expect(items.map(\.group) == [0, 0, 1, 1, 1])
        #expect(items[4].enclosingSubmenus == ["Share"])
        #expect(Self.layout.topLevelItemCount == 3)
    }
}
