import Menus
import Testing
import TestSupport

@Suite("Manifest export")
struct ManifestExporterTests {
    @Test("the DESIGN.md example exports in the fixed order, one group per line")
    func designExample() throws {
        let m = try ManifestParser.parse(Fixtures.designExample)
        let text = ManifestExporter().export(m)
        #expect(text == """
            {
              "app": "mail",
              "version": "2026.11.1",
              "commands": {
                "archive": {"title": "Archive"},
                "copy_link": {"title": "Copy Link"},
                "delete": {"title": "Delete", "destructive": true},
                "flag": {"title": "Flag", "keep": true},
                "forward": {"title": "Forward"},
                "move": {"title": "Move..."},
                "print": {"title": "Print"},
                "reply": {"title": "Reply"},
                "reply_all": {"title": "Reply All"}
              },
              "menus": {
                "mail.message": {
                  "groups": [
                    ["reply", "reply_all", "forward"],
                    ["move", "archive", "flag"],
                    [{"submenu": "Share", "items": ["copy_link", "print"]}],
                    ["delete"]
                  ]
                }
              }
            }

            """)
        #expect(try ManifestParser.parse(text) == m)
    }

    @Test("attributes in a fixed order, only when set; groups that do not fit break one item per line")
    func attributesAndBreaking() throws {
        let m = Manifest(
            app: "a", version: "",
            commands: [
                "b": CommandInfo(title: "B \"quoted\"", destructive: true, pinned: true, keep: true, category: "edit"),
                "a": CommandInfo(title: "Открыть…", category: ""),
            ],
            menus: [
                "z": ElementMenu(layout: Layout(groups: []), editMenu: true),
                "m": ElementMenu(layout: Layout(groups: [
                    [.command("a"), .submenu(Submenu(title: "Share", items: [.command("b"), .command("a"), .command("b")]))],
                    [],
                ]), preview: true),
            ])
        let text = ManifestExporter(lineWidth: 40).export(m)
        #expect(text == """
            {
              "app": "a",
              "commands": {
                "a": {"title": "Открыть…", "category": ""},
                "b": {"title": "B \\"quoted\\"", "destructive": true, "pinned": true, "keep": true, "category": "edit"}
              },
              "menus": {
                "m": {
                  "preview": true,
                  "groups": [
                    [
                      "a",
                      {
                        "submenu": "Share",
                        "items": ["b", "a", "b"]
                      }
                    ],
                    []
                  ]
                },
                "z": {
                  "edit_menu": true,
                  "groups": []
                }
              }
            }

            """)
        #expect(try ManifestParser.parse(text) == m)
    }

    @Test("role after the other attributes, together after commands, one set per line; both round trip")
    func roleAndTogether() throws {
        let text = """
            {
              "app": "notes",
              "commands": {
                "bold": {"title": "Bold", "role": "toggle_boldface"},
                "copy": {"title": "Copy", "keep": true, "category": "edit", "role": "copy"},
                "cut": {"title": "Cut", "role": "cut"},
                "italic": {"title": "Italic", "role": "toggle_italics"},
                "paste": {"title": "Paste", "role": "paste"},
                "underline": {"title": "Underline", "role": "toggle_underline"}
              },
              "together": [
                ["bold", "italic", "underline"],
                ["cut", "copy"]
              ],
              "menus": {
                "notes.text": {
                  "groups": [
                    ["cut", "copy", "paste"],
                    ["bold", "italic", "underline"]
                  ]
                }
              }
            }

            """
        let m = try ManifestParser.parse(text)
        #expect(m.commands["copy"]?.role == .copy)
        #expect(m.together == [["bold", "italic", "underline"], ["cut", "copy"]])
        #expect(ManifestExporter().export(m) == text)
        #expect(try ManifestParser.parse(ManifestExporter().export(m)) == m)
        // A set too long for the line breaks one command per line, as a group does.
        let narrow = ManifestExporter(lineWidth: 30).export(m)
        #expect(narrow.contains("  \"together\": [\n    [\n      \"bold\",\n      \"italic\",\n      \"underline\"\n    ],\n    [\"cut\", \"copy\"]\n  ],\n"))
        #expect(try ManifestParser.parse(narrow) == m)
    }

    @Test("an empty manifest")
    func empty() throws {
        let m = Manifest(app: "a", version: "1", commands: [:], menus: [:])
        let text = ManifestExporter().export(m)
        #expect(text == "{\n  \"app\": \"a\",\n  \"version\": \"1\",\n  \"commands\": {},\n  \"menus\": {}\n}\n")
        #expect(try ManifestParser.parse(text) == m)
    }

    @Test("generated manifests round trip and export byte for byte the same", arguments: 0..<200)
    func generatedRoundTrip(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed))
        let m = Self.randomManifest(using: &rng)
        for width in [100, 30] {
            let exporter = ManifestExporter(lineWidth: width)
            let text = exporter.export(m)
            let back = try ManifestParser.parse(text)
            #expect(back == m)
            #expect(exporter.export(back) == text)
        }
    }

    @Test("export does not depend on the order members were read in")
    func orderIndependent() throws {
        let a = try ManifestParser.parse(#"{"menus": {"y": {"groups": [["p"]]}, "x": {"groups": []}}, "commands": {"q": {"title": "Q"}, "p": {"title": "P"}}, "app": "a"}"#)
        let b = try ManifestParser.parse(#"{"app": "a", "commands": {"p": {"title": "P"}, "q": {"title": "Q"}}, "menus": {"x": {"groups": []}, "y": {"groups": [["p"]]}}}"#)
        #expect(ManifestExporter().export(a) == ManifestExporter().export(b))
    }

    // MARK: Generation

    static func randomManifest(using rng: inout SplitMix64) -> Manifest {
        let idCharacters = Array((0x21...0x7E).map { Character(Unicode.Scalar(UInt8($0))) })
        func randomID() -> String {
            String((0..<Int.random(in: 1...12, using: &rng)).map { _ in idCharacters.randomElement(using: &rng)! })
        }
        let titlePieces = ["Reply", "Open", "…", "\"", "\\", "\n", "\u{1}", "Ещё", "é", " ", "Copy Path/Reference", "😀", "/"]
        func randomTitle(allowEmpty: Bool) -> String {
            let n = Int.random(in: (allowEmpty ? 0 : 1)...4, using: &rng)
            return (0..<n).map { _ in titlePieces.randomElement(using: &rng)! }.joined()
        }
        var commands: [String: CommandInfo] = [:]
        for _ in 0..<Int.random(in: 1...15, using: &rng) {
            commands[randomID()] = CommandInfo(
                title: randomTitle(allowEmpty: false), destructive: Bool.random(using: &rng),
                pinned: Bool.random(using: &rng), keep: Bool.random(using: &rng),
                category: Bool.random(using: &rng) ? randomTitle(allowEmpty: true) : nil,
                role: Bool.random(using: &rng) ? CommandRole.allCases.randomElement(using: &rng) : nil)
        }
        let ids = commands.keys.sorted()
        // Disjoint sets of 2 to 4 commands each, in a random order, from a shuffled share of the ids.
        var free = ids.shuffled(using: &rng).prefix(Int.random(in: 0...ids.count, using: &rng))
        var together: [[String]] = []
        while free.count >= 2 {
            let size = min(free.count, Int.random(in: 2...4, using: &rng))
            together.append(Array(free.prefix(size)))
            free = free.dropFirst(size)
        }
        func randomItem(depth: Int) -> MenuItem {
            if depth < 3, Int.random(in: 0..<5, using: &rng) == 0 {
                let items = (0..<Int.random(in: 0...5, using: &rng)).map { _ in randomItem(depth: depth + 1) }
                return .submenu(Submenu(title: randomTitle(allowEmpty: true), items: items))
            }
            return .command(ids.randomElement(using: &rng)!)
        }
        var menus: [String: ElementMenu] = [:]
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            let groups = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                (0..<Int.random(in: 0...6, using: &rng)).map { _ in randomItem(depth: 0) }
            }
            menus[randomID()] = ElementMenu(layout: Layout(groups: groups), editMenu: Bool.random(using: &rng),
                                            preview: Bool.random(using: &rng))
        }
        let version = Bool.random(using: &rng) ? "" : randomTitle(allowEmpty: false)
        return Manifest(app: randomTitle(allowEmpty: false), version: version, commands: commands, menus: menus,
                        together: together)
    }
}
