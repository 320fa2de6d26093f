import JSON
import Menus
import Testing

@Suite("Manifest loading")
struct ManifestParserTests {
    @Test("the DESIGN.md example manifest loads")
    func designExample() throws {
        let m = try ManifestParser.parse(Fixtures.designExample)
        #expect(m.app == "mail")
        #expect(m.version == "2026.11.1")
        #expect(m.commands.count == 9)
        #expect(m.commands["flag"] == CommandInfo(title: "Flag", keep: true))
        #expect(m.commands["delete"] == CommandInfo(title: "Delete", destructive: true))
        #expect(m.commands["move"]?.title == "Move...")
        let menu = try #require(m.menus["mail.message"])
        #expect(!menu.editMenu && !menu.preview)
        #expect(menu.layout == Layout(groups: [
            [.command("reply"), .command("reply_all"), .command("forward")],
            [.command("move"), .command("archive"), .command("flag")],
            [.submenu(Submenu(title: "Share", items: [.command("copy_link"), .command("print")]))],
            [.command("delete")],
        ]))
        #expect(try ManifestParser.parse(bytes: Array(Fixtures.designExample.utf8)) == m)
    }

    @Test("every attribute is read")
    func attributes() throws {
        let doc = try ManifestParser.load(Fixtures.manifest(
            menus: #""files.folder": {"edit_menu": true, "preview": true, "groups": []}"#,
            commands: #""x": {"title": "X", "destructive": true, "pinned": true, "keep": true, "category": "edit", "role": "delete"}"#))
        #expect(doc.manifest.commands["x"] == CommandInfo(title: "X", destructive: true, pinned: true, keep: true,
                                                          category: "edit", role: .delete))
        #expect(doc.manifest.menus["files.folder"] == ElementMenu(layout: Layout(groups: []), editMenu: true, preview: true))
        #expect(doc.ignored.isEmpty)
    }

    @Test("every role is read by its snake-case name; a command without one has none, whatever its title")
    func roles() throws {
        for role in CommandRole.allCases {
            let m = try ManifestParser.parse(Fixtures.manifest(menus: "", commands: "\"x\": {\"title\": \"X\", \"role\": \"\(role.rawValue)\"}"))
            #expect(m.commands["x"]?.role == role)
        }
        // The parser keeps what the manifest declares; reading Cut/Copy/Paste from titles is the convention's.
        let m = try ManifestParser.parse(Fixtures.manifest(menus: "", commands: #""cut": {"title": "Cut"}, "c": {"title": "Copy", "role": "copy"}"#))
        #expect(m.commands["cut"]?.role == nil)
        #expect(m.commands["c"]?.role == .copy)
        #expect(CommandRole.inferred(fromTitle: "Cut") == .cut)
    }

    @Test("together: sets of declared commands, in the order given")
    func together() throws {
        let m = try ManifestParser.parse("""
            {"app": "a", "commands": {"b": {"title": "Bold"}, "i": {"title": "Italic"}, "u": {"title": "Underline"},
             "x": {"title": "X"}, "y": {"title": "Y"}},
             "together": [["u", "b", "i"], ["y", "x"]], "menus": {}}
            """)
        #expect(m.together == [["u", "b", "i"], ["y", "x"]])
        #expect(try ManifestParser.parse(#"{"app": "a", "commands": {}, "together": [], "menus": {}}"#).together == [])
    }

    @Test("an unknown member does not load: its path, the nearest known member when one is close, the known members")
    func unknownMembers() throws {
        let error = try #require(throws: ManifestError.self) {
            try ManifestParser.load("""
                {"$schema": "x", "app": "a", "commands": {"delete": {"title": "Delete", "destrutive": true}},
                 "categories": {"c": {"titel": "C"}},
                 "menus": {"m": {"groups": [[{"submenu": "S", "items": ["delete"], "icon": "x"}]], "preveiw": true, "Groups": []},
                           "n": {"groups": [{"title": "T", "item": []}]}}}
                """)
        }
        #expect(error.issues.map(\.path.description) == [
            "$schema", "categories.c.titel", "categories.c.title", "commands.delete.destrutive", "menus.m.preveiw",
            "menus.m.Groups", "menus.m.groups[0][0].icon", "menus.n.groups[0].item", "menus.n.groups[0].items",
        ])
        #expect(error.issues[0].message
            == "unknown member \"$schema\" (a manifest's members are app, version, categories, together, commands, menus)")
        #expect(error.issues[1].message == "unknown member \"titel\"; did you mean \"title\"? (a category's members are title)")
        #expect(error.issues[3].message == "unknown member \"destrutive\"; did you mean \"destructive\"? "
            + "(a command's members are title, destructive, pinned, keep, category, role)")
        #expect(error.issues[4].message.hasPrefix("unknown member \"preveiw\"; did you mean \"preview\"? (a menu's members are "))
        #expect(error.issues[5].message.hasPrefix("unknown member \"Groups\"; did you mean \"groups\"?"))
        #expect(error.issues[6].message == "unknown member \"icon\" (a submenu's members are submenu, items)")
        #expect(error.issues[7].message.hasPrefix("unknown member \"item\"; did you mean \"items\"? (a titled group's"))
    }

    @Test("a stored manifest loads without what earlier versions accepted unread, and lists it")
    func storedTolerance() throws {
        let text = """
            {"app": "a", "notes": "x", "commands": {"d": {"title": "Delete", "destrutive": true, "role": "erase"},
             "c": {"title": "Copy", "role": "copy"}},
             "together": [["d"]], "menus": {"m": {"groups": [["c", "d"]], "colour": 1}}}
            """
        #expect(throws: ManifestError.self) { try ManifestParser.load(text) }
        let doc = try ManifestParser.loadStored(text)
        #expect(doc.manifest.commands == ["d": CommandInfo(title: "Delete"), "c": CommandInfo(title: "Copy", role: .copy)])
        #expect(doc.manifest.together == [])
        #expect(doc.manifest.menus["m"]?.layout.commandsInOrder == ["c", "d"])
        #expect(doc.ignored.map(\.path.description) == [
            "notes", "commands.d.destrutive", "commands.d.role", "together[0]", "menus.m.colour",
        ])
        #expect(doc.ignored[2].message.hasPrefix("unknown role \"erase\" (the roles are cut, copy, paste,"))
        // What was an error before stays one.
        #expect(throws: ManifestError.self) {
            try ManifestParser.loadStored(#"{"app": "a", "commands": {"d": {"title": 1}}, "menus": {}}"#)
        }
        #expect(try ManifestParser.loadStored(Fixtures.designExample).ignored.isEmpty)
    }

    /// The "did you mean" of an unknown command member named `member`, or of an unknown role `role`.
    func suggestion(member: String? = nil, role: String? = nil) throws -> String? {
        let attribute = member.map { "\"\($0)\": true" } ?? "\"role\": \"\(role ?? "")\""
        let error = try #require(throws: ManifestError.self) {
            try ManifestParser.parse(Fixtures.manifest(menus: "", commands: "\"x\": {\"title\": \"X\", \(attribute)}"))
        }
        let message = try #require(error.issues.first?.message)
        guard let range = message.range(of: "did you mean \"") else { return nil }
        return String(message[range.upperBound...].prefix { $0 != "\"" })
    }

    @Test("the nearest known name, as the command line's: an edit per three letters, a swap is one edit")
    func nearestName() throws {
        #expect(try suggestion(member: "destrutive") == "destructive")
        #expect(try suggestion(member: "distructiv") == "destructive")
        #expect(try suggestion(member: "categroy") == "category")
        #expect(try suggestion(member: "Title") == "title")
        #expect(try suggestion(member: "kep") == "keep")
        #expect(try suggestion(member: "rol") == "role")
        #expect(try suggestion(member: "kp") == nil)
        #expect(try suggestion(member: "categ") == "category")
        #expect(try suggestion(member: "colour") == nil)
        #expect(try suggestion(role: "selectall") == "select_all")
        #expect(try suggestion(role: "Paste") == "paste")
        #expect(try suggestion(role: "copy_link") == nil)
        #expect(try suggestion(role: "") == nil)
    }

    @Test("version is optional")
    func versionOptional() throws {
        let m = try ManifestParser.parse(#"{"app": "a", "commands": {}, "menus": {}}"#)
        #expect(m.version == "")
    }

    @Test("what only lint objects to still loads")
    func lintNotLoadErrors() throws {
        let text = Fixtures.manifest(menus: """
            "m": {"groups": [
              ["reply", "reply", {"submenu": "More", "items": [{"submenu": "Deep", "items": ["copy"]}]}],
              [], ["print"], ["move"], [{"submenu": "", "items": []}]
            ]}
            """)
        let m = try ManifestParser.parse(text)
        #expect(m.menus["m"]?.layout.groups.count == 5)
        #expect(m.menus["m"]?.layout.commandsInOrder == ["reply", "reply", "copy", "print", "move"])
    }

    struct BadManifest: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        /// Expected issues: path and a part of the message.
        let issues: [(path: String, message: String)]
        var testDescription: String { name }
    }

    static let badManifests: [BadManifest] = [
        BadManifest(name: "not an object", text: "[]", issues: [("$", "expected an object (a menu manifest), found an array")]),
        BadManifest(name: "nothing required", text: "{}", issues: [
            ("app", "missing required member"), ("commands", "missing required member"), ("menus", "missing required member"),
        ]),
        BadManifest(name: "wrong top-level types", text: #"{"app": 3, "version": true, "commands": [], "menus": "x"}"#, issues: [
            ("app", "expected a string (the app's name), found a number"), ("version", "expected a string, found a boolean"),
            ("commands", "found an array"), ("menus", "found a string"),
        ]),
        BadManifest(name: "empty app", text: #"{"app": "", "commands": {}, "menus": {}}"#, issues: [("app", "must not be empty")]),
        BadManifest(name: "command id with a space", text: Fixtures.manifest(menus: "", commands: #""my cmd": {"title": "X"}"#),
                    issues: [("commands.my cmd", "command id \"my cmd\" must be 1-128 printable ASCII characters without spaces")]),
        BadManifest(name: "command id too long",
                    text: Fixtures.manifest(menus: "", commands: "\"\(String(repeating: "c", count: 129))\": {\"title\": \"X\"}"),
                    issues: [("commands." + String(repeating: "c", count: 129), "must be 1-128 printable ASCII")]),
        BadManifest(name: "command id not ASCII", text: Fixtures.manifest(menus: "", commands: #""ответить": {"title": "X"}"#),
                    issues: [("commands.ответить", "must be 1-128 printable ASCII")]),
        BadManifest(name: "empty command id", text: Fixtures.manifest(menus: "", commands: #""": {"title": "X"}"#),
                    issues: [("commands.", "must be 1-128 printable ASCII")]),
        BadManifest(name: "element type with a space", text: Fixtures.manifest(menus: #""mail message": {"groups": []}"#),
                    issues: [("menus.mail message", "element type \"mail message\" must be 1-128")]),
        BadManifest(name: "command title missing", text: Fixtures.manifest(menus: "", commands: #""reply": {}"#),
                    issues: [("commands.reply.title", "missing required member: a string, the command's title")]),
        BadManifest(name: "command title not a string", text: Fixtures.manifest(menus: "", commands: #""reply": {"title": ["R"]}"#),
                    issues: [("commands.reply.title", "expected a string (the command's title), found an array")]),
        BadManifest(name: "command title empty", text: Fixtures.manifest(menus: "", commands: #""reply": {"title": ""}"#),
                    issues: [("commands.reply.title", "must not be empty")]),
        BadManifest(name: "command not an object", text: Fixtures.manifest(menus: "", commands: #""reply": "Reply""#),
                    issues: [("commands.reply", "expected an object of command attributes, found a string")]),
        BadManifest(name: "destructive: \"yes\"",
                    text: Fixtures.manifest(menus: "", commands: #""reply": {"title": "R", "destructive": "yes"}"#),
                    issues: [("commands.reply.destructive", "expected true or false, found the string \"yes\"")]),
        BadManifest(name: "pinned, keep, category of the wrong type",
                    text: Fixtures.manifest(menus: "", commands: #""reply": {"title": "R", "pinned": 1, "keep": null, "category": false}"#),
                    issues: [("commands.reply.pinned", "found a number"), ("commands.reply.keep", "found null"),
                             ("commands.reply.category", "expected a string, found a boolean")]),
        BadManifest(name: "a role that is not a string",
                    text: Fixtures.manifest(menus: "", commands: #""copy": {"title": "Copy", "role": ["copy"]}"#),
                    issues: [("commands.copy.role", "expected a string (a role: cut, copy, paste, paste_and_match_style, "
                        + "delete, select_all, select, duplicate, rename, move, share, print, find, toggle_boldface, "
                        + "toggle_italics, toggle_underline), found an array")]),
        BadManifest(name: "an unknown role",
                    text: Fixtures.manifest(menus: "", commands: #""copy": {"title": "Copy", "role": "cpy"}"#),
                    issues: [("commands.copy.role", "unknown role \"cpy\"; did you mean \"copy\"? (the roles are cut, copy, paste, ")]),
        BadManifest(name: "together not an array of arrays",
                    text: #"{"app": "a", "commands": {}, "together": {"a": ["b"]}, "menus": {}}"#,
                    issues: [("together", "expected an array of sets, each an array of command ids, found an object")]),
        BadManifest(name: "together: a set not an array, an id not a string",
                    text: #"{"app": "a", "commands": {"b": {"title": "B"}}, "together": ["b", ["b", 3]], "menus": {}}"#,
                    issues: [("together[0]", "expected a set (an array of command ids), found a string"),
                             ("together[1][1]", "expected a command id (a string), found a number")]),
        BadManifest(name: "together: an undeclared command, a set of one, a command twice in a set and in two sets",
                    text: """
                        {"app": "a", "commands": {"b": {"title": "B"}, "i": {"title": "I"}, "u": {"title": "U"}},
                         "together": [["b", "ghost", "i", "b"], ["u"], [], ["i", "u"]], "menus": {}}
                        """,
                    issues: [("together[0][1]", "command \"ghost\" is not declared in commands"),
                             ("together[0][3]", "command \"b\" is listed twice in this set (first at together[0][0]); list it once"),
                             ("together[1]", "a set moves 2 or more commands as one unit; this one has 1"),
                             ("together[2]", "this one has 0"),
                             ("together[3][0]", "command \"i\" is already in the set at together[0]; a command moves with one set"),
                             ("together[3][1]", "command \"u\" is already in the set at together[1]")]),
        BadManifest(name: "edit_menu and preview of the wrong type",
                    text: Fixtures.manifest(menus: #""m": {"edit_menu": "true", "preview": 0, "groups": []}"#),
                    issues: [("menus.m.edit_menu", "expected true or false"), ("menus.m.preview", "found a number")]),
        BadManifest(name: "menu not an object", text: Fixtures.manifest(menus: #""m": [["reply"]]"#),
                    issues: [("menus.m", "expected an object (the element type's menu), found an array")]),
        BadManifest(name: "groups missing", text: Fixtures.manifest(menus: #""m": {"preview": true}"#),
                    issues: [("menus.m.groups", "missing required member: an array of groups")]),
        BadManifest(name: "groups not an array", text: Fixtures.manifest(menus: #""m": {"groups": {"a": ["reply"]}}"#),
                    issues: [("menus.m.groups", "expected an array of groups, found an object")]),
        BadManifest(name: "group not an array", text: Fixtures.manifest(menus: #""m": {"groups": [["reply"], "forward"]}"#),
                    issues: [("menus.m.groups[1]", "expected a group (an array of command ids and submenus), found a string")]),
        BadManifest(name: "item of the wrong type", text: Fixtures.manifest(menus: #""m": {"groups": [["reply", 7, null]]}"#),
                    issues: [("menus.m.groups[0][1]", "expected a command id (a string) or a submenu object, found a number"),
                             ("menus.m.groups[0][2]", "found null")]),
        BadManifest(name: "undeclared command", text: Fixtures.manifest(menus: #""mail.message": {"groups": [["reply", "reply_all"]]}"#),
                    issues: [("menus.mail.message.groups[0][1]", "command \"reply_all\" is not declared in commands")]),
        BadManifest(name: "submenu without items",
                    text: Fixtures.manifest(menus: #""mail.message": {"groups": [["reply"], ["copy"], [{"submenu": "Share"}]]}"#),
                    issues: [("menus.mail.message.groups[2][0].items", "missing required member: an array of the submenu's items")]),
        BadManifest(name: "submenu items not an array",
                    text: Fixtures.manifest(menus: #""m": {"groups": [[{"submenu": "Share", "items": "copy"}]]}"#),
                    issues: [("menus.m.groups[0][0].items", "expected an array of the submenu's items, found a string")]),
        BadManifest(name: "submenu without a title", text: Fixtures.manifest(menus: #""m": {"groups": [[{"items": ["copy"]}]]}"#),
                    issues: [("menus.m.groups[0][0].submenu", "missing required member: a string, the submenu's title")]),
        BadManifest(name: "submenu title not a string",
                    text: Fixtures.manifest(menus: #""m": {"groups": [[{"submenu": null, "items": ["copy"]}]]}"#),
                    issues: [("menus.m.groups[0][0].submenu", "expected a string (the submenu's title), found null")]),
        BadManifest(name: "undeclared command in a nested submenu",
                    text: Fixtures.manifest(menus: #""m": {"groups": [[{"submenu": "A", "items": ["copy", {"submenu": "B", "items": ["nope"]}]}]]}"#),
                    issues: [("menus.m.groups[0][0].items[1].items[0]", "command \"nope\" is not declared")]),
        BadManifest(name: "a command declared twice",
                    text: Fixtures.manifest(menus: "", commands: #""a": {"title": "A"}, "a": {"title": "B"}"#),
                    issues: [("commands.a", "\"a\" appears more than once in this object")]),
        BadManifest(name: "an attribute given twice",
                    text: Fixtures.manifest(menus: #""m": {"groups": [], "groups": []}"#),
                    issues: [("menus.m.groups", "appears more than once")]),
        BadManifest(name: "every error is collected, in document order", text: """
            {"app": "a", "commands": {"reply": {"title": "R", "keep": "no"}, "bad id": {"title": "B"}},
             "menus": {"m": {"groups": [["reply", "ghost"], [{"submenu": "S"}]]}, "n": {"groups": 1}}}
            """, issues: [
                ("commands.reply.keep", "expected true or false"), ("commands.bad id", "must be 1-128"),
                ("menus.m.groups[0][1]", "\"ghost\" is not declared"), ("menus.m.groups[1][0].items", "missing"),
                ("menus.n.groups", "expected an array of groups, found a number"),
            ]),
    ]

    @Test("manifest errors are reported with their paths", arguments: badManifests)
    func badManifest(_ bad: BadManifest) throws {
        let error = try #require(throws: ManifestError.self) { try ManifestParser.parse(bad.text) }
        #expect(error.kind == .invalid)
        #expect(error.issues.map(\.path.description) == bad.issues.map(\.path))
        for (issue, expected) in zip(error.issues, bad.issues) {
            #expect(issue.message.contains(expected.message), "\(issue.message)")
        }
    }

    @Test("JSON syntax errors report line and column")
    func syntaxError() throws {
        let text = "{\n  \"app\": \"mail\",\n  \"commands\": {,}\n}"
        let error = try #require(throws: ManifestError.self) { try ManifestParser.parse(text) }
        #expect(error.kind == .syntax)
        #expect(error.line == 3)
        #expect(error.column == 16)
        #expect(error.issues.count == 1)
        #expect(error.issues[0].path == .root)
        #expect(error.description.contains("line 3, column 16"))
        #expect(error.jsonValue["line"] == 3)
        #expect(error.jsonValue["column"] == 16)
        #expect(error.jsonValue["error"] == "syntax")
    }

    @Test("errors as JSON")
    func errorJSON() throws {
        let error = try #require(throws: ManifestError.self) {
            try ManifestParser.parse(#"{"app": "a", "commands": {}, "menus": {"m": {"groups": [["x"]]}}}"#)
        }
        #expect(error.jsonValue.jsonText == #"{"error":"invalid","issues":[{"path":"menus.m.groups[0][0]","#
            + #""message":"command \"x\" is not declared in commands"}]}"#)
    }

    @Test("the character rule of ids")
    func identifierRule() {
        #expect(MenuIdentifier.isValid("$Copy"))
        #expect(MenuIdentifier.isValid("workbench.action.files.save"))
        #expect(MenuIdentifier.isValid(String(repeating: "x", count: 128)))
        #expect(!MenuIdentifier.isValid(String(repeating: "x", count: 129)))
        #expect(!MenuIdentifier.isValid(""))
        #expect(!MenuIdentifier.isValid("a b"))
        #expect(!MenuIdentifier.isValid("a\tb"))
        #expect(!MenuIdentifier.isValid("a\u{7F}"))
        #expect(!MenuIdentifier.isValid("é"))
    }

    @Test("paths read the way the brief writes them")
    func pathText() {
        let path = ManifestPath.groups("mail.message").appending(2).appending(0).appending("items")
        #expect(path.description == "menus.mail.message.groups[2][0].items")
        #expect(ManifestPath.command("reply").appending("title").description == "commands.reply.title")
        #expect(ManifestPath.root.description == "$")
        #expect(ManifestPath.groups("m").appending(2) < ManifestPath.groups("m").appending(10))
        #expect(ManifestPath.groups("m") < ManifestPath.groups("m").appending(0))
    }
}
