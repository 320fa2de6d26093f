import Foundation
import Postgres
import Testing
import TestSupport

/// The manifest's `role` and `together` and its unknown members through the real binary: `lint`,
/// `menus import` and `recommend --manifest` refuse an unknown member with its path and the nearest
/// known member; `menus import` then `menus export` gives back the manifest byte for byte; an import
/// made by an earlier version, which kept an unknown member, still exports, without it.
@Suite struct ManifestCommandTests {
    let cli = CLIRunner()

    /// A manifest as `menus export` writes it, with roles and a `together` set.
    static let notes = """
        {
          "app": "notes",
          "version": "3",
          "commands": {
            "bold": {"title": "Bold", "role": "toggle_boldface"},
            "copy": {"title": "Copy", "role": "copy"},
            "cut": {"title": "Cut", "role": "cut"},
            "delete": {"title": "Delete", "destructive": true, "role": "delete"},
            "italic": {"title": "Italic", "role": "toggle_italics"},
            "paste": {"title": "Paste", "role": "paste"}
          },
          "together": [
            ["bold", "italic"]
          ],
          "menus": {
            "notes.text": {
              "groups": [
                ["cut", "copy", "paste"],
                ["bold", "italic"],
                ["delete"]
              ]
            }
          }
        }

        """

    /// `notes` with Delete's `destructive` misspelt.
    static let misspelt = notes.replacingOccurrences(of: #""destructive": true"#, with: #""destrutive": true"#)

    static let expectedError = #"commands.delete.destrutive: unknown member "destrutive"; did you mean "destructive"?"#

    @Test func anUnknownMemberIsRefusedByLintImportAndRecommend() throws {
        let file = try CLIRunner.temporaryFile(Self.misspelt)
        let lint = try cli.run(["lint", file])
        #expect(lint.status == 1)
        #expect(lint.output.contains("\(file): error: \(Self.expectedError)"), "\(lint.output)")
        let json = try cli.run(["lint", file, "--format", "json"])
        #expect(json.status == 1)
        #expect(json.output.contains(#""path":"commands.delete.destrutive""#), "\(json.output)")
        #expect(json.output.contains(#"did you mean \"destructive\"?"#))

        // Refused before any database is needed: nothing listens at this one.
        let nowhere = ["DATABASE_URL": "postgresql://nobody@127.0.0.1:1/nothing", "PGHOST": "/nonexistent"]
        let imported = try CLIRunner(database: nil).run(["menus", "import", file], environment: nowhere)
        #expect(imported.status == 1)
        #expect(imported.error.contains("\(file): error: \(Self.expectedError)"), "\(imported.error)")
        #expect(imported.error.contains("is not a valid manifest; nothing was imported"))

        let events = try CLIRunner.temporaryFile("", name: "events.jsonl")
        let recommended = try CLIRunner(database: nil).run(
            ["recommend", "--manifest", file, "--events", events], environment: nowhere)
        #expect(recommended.status == 1)
        #expect(recommended.error.contains(Self.expectedError), "\(recommended.error)")
        #expect(recommended.output.isEmpty)

        // The same manifest spelt right passes.
        #expect(try cli.run(["lint", try CLIRunner.temporaryFile(Self.notes)]).status == 0)
    }

    @Test func lintExplainsTheConventions() throws {
        // Paste moved to the formatting group; the together set split across two groups.
        let file = try CLIRunner.temporaryFile(Self.notes.replacingOccurrences(
            of: #"["cut", "copy", "paste"],\#n        ["bold", "italic"],"#,
            with: #"["cut", "copy", "bold"],\#n        ["paste", "italic"],"#))
        let text = try cli.run(["lint", file])
        #expect(text.status == 0, "\(text.output)")
        #expect(text.output.contains("warning CONVENTION menus.notes.text.groups[1][0]: Cut, Copy and Paste are split ("),
                "\(text.output)")
        #expect(text.output.contains("warning CONVENTION menus.notes.text.groups[1][1]: together[0] moves \"Bold\" (bold), "
            + "\"Italic\" (italic) as one unit, but this menu splits it"))
        #expect(text.output.contains("0 errors, 2 warnings, 0 notes"))
        #expect(try cli.run(["lint", file, "--strict"]).status == 1)
        let json = try cli.run(["lint", file, "--format", "json"])
        #expect(json.output.contains(#""rule":"CONVENTION""#))
    }

    @Test(TestDatabase.enabled) func importThenExportGivesTheManifestBack() throws {
        try TestDatabase.withSchema(prefix: "climanifest") { schema in
            try CLIRunner.migrate(schema)
            let cli = CLIRunner(database: schema.connectionString)
            #expect(try cli.run(["apps", "create", "notes"]).status == 0)
            let imported = try cli.run(["menus", "import", try CLIRunner.temporaryFile(Self.notes)])
            #expect(imported.status == 0, "\(imported.error)")
            let exported = try cli.run(["menus", "export", "--app", "notes"])
            #expect(exported.status == 0, "\(exported.error)")
            // menu_version is the one field the store adds.
            #expect(exported.output == Self.notes.replacingOccurrences(
                of: "\"notes.text\": {\n", with: "\"notes.text\": {\n      \"menu_version\": \"3\",\n"))
            #expect(exported.error.isEmpty)

            // An earlier version imported a manifest with a misspelt member (then a lint warning): it
            // still loads from the store, and export leaves the member out and says so.
            let connection = try schema.connect()
            try connection.execute("""
                INSERT INTO manifests (app_id, version, body)
                SELECT app_id, '4', \(Self.misspelt)::jsonb FROM apps WHERE name = 'notes'
                """)
            let old = try cli.run(["menus", "export", "--app", "notes"])
            #expect(old.status == 0, "\(old.error)")
            #expect(old.error.contains("warning: \(Self.expectedError)"), "\(old.error)")
            #expect(old.error.contains("left out of the export"))
            #expect(old.output.contains(#""delete": {"title": "Delete", "role": "delete"}"#), "\(old.output)")
        }
    }
}
