import Foundation
import Testing
import TestSupport

/// Exit codes of the real binary: help 0, usage errors 64, lint errors 1, `--strict`.
@Suite struct CLIExitCodeTests {
    let cli = CLIRunner()

    static let clean = """
        {"app": "mail", "commands": {"reply": {"title": "Reply"}, "forward": {"title": "Forward"},
         "delete": {"title": "Delete", "destructive": true}},
         "menus": {"mail.message": {"groups": [["reply", "forward"], ["delete"]]}}}
        """

    /// Four groups: a HIG-6 warning, no error.
    static let warnings = """
        {"app": "mail", "commands": {"a": {"title": "A"}, "b": {"title": "B"}, "c": {"title": "C"}, "d": {"title": "D"}},
         "menus": {"x.y": {"groups": [["a"], ["b"], ["c"], ["d"]]}}}
        """

    /// A nested submenu (HIG-4) and an element type with an edit menu and a context menu (HIG-7).
    static let errors = """
        {"app": "mail", "commands": {"a": {"title": "A"}, "b": {"title": "B"}},
         "menus": {"x.y": {"groups": [[{"submenu": "Share", "items": [{"submenu": "Deeper", "items": ["a"]}]}]]},
                   "x.z": {"edit_menu": true, "groups": [["b"]]}}}
        """

    @Test(arguments: [["--help"], ["help", "recommend"], ["recommend", "--help"], ["proposals", "accept", "--help"],
                      ["lint", "--help"], ["menus"], ["rank", "--help"]])
    func helpExitsZero(_ arguments: [String]) throws {
        let outcome = try cli.run(arguments)
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("USAGE:"))
    }

    @Test(arguments: [
        ["recommend", "--bogus"], ["recommend", "--app", "a", "--all"], ["recommend", "--window", "12h"],
        ["recommend", "--max-groups", "0"], ["rank"], ["rank", "--app", "a", "--format", "xml"],
        ["proposals", "accept"], ["proposals", "show", "abc"], ["lint"], ["rollup", "--all", "--app", "x"],
        ["menus", "export"],
    ])
    func usageErrorsExit64(_ arguments: [String]) throws {
        let outcome = try cli.run(arguments)
        #expect(outcome.status == 64)
        #expect(outcome.error.hasPrefix("Error: "))
        #expect(outcome.output.isEmpty)
    }

    /// `proposals reject` checks the options it declares only: it once also asked for
    /// `--keep-pruned`, which only accept declares, and crashed before reaching the database. An
    /// unreachable database is then the failure: exit 1 with an `Error:` line.
    @Test func rejectChecksItsOwnOptionsAndReachesForTheDatabase() throws {
        let outcome = try cli.run(["proposals", "reject", "7", "--note", "no", "--by", "test",
                                   "--database", "postgresql://nobody@127.0.0.1:1/none"])
        #expect(outcome.status == 1, "\(outcome.error)")
        #expect(outcome.error.hasPrefix("Error: "), "\(outcome.error)")
    }

    @Test func lintExitCodes() throws {
        let clean = try CLIRunner.temporaryFile(Self.clean)
        let warnings = try CLIRunner.temporaryFile(Self.warnings)
        let errors = try CLIRunner.temporaryFile(Self.errors)
        #expect(try cli.run(["lint", clean]).status == 0)
        #expect(try cli.run(["lint", clean, "--strict"]).status == 0)
        let warned = try cli.run(["lint", warnings])
        #expect(warned.status == 0)
        #expect(warned.output.contains("warning HIG-6 menus.x.y.groups"))
        #expect(try cli.run(["lint", warnings, "--strict"]).status == 1)
        #expect(try cli.run(["lint", warnings, "--max-groups", "4", "--strict"]).status == 0)
        let failed = try cli.run(["lint", errors])
        #expect(failed.status == 1)
        #expect(failed.output.contains("error HIG-4"))
        #expect(failed.output.contains("error HIG-7 menus.x.z"))
        let json = try cli.run(["lint", errors, "--format", "json"])
        #expect(json.status == 1)
        #expect(json.output.hasPrefix("{\"findings\":["))
    }

    @Test func lintRefusesAnInvalidManifestWithItsPath() throws {
        let broken = try CLIRunner.temporaryFile("""
            {"app": "mail", "commands": {"a": {"title": "A"}}, "menus": {"x.y": {"groups": [["a", "nope"]]}}}
            """)
        let outcome = try cli.run(["lint", broken])
        #expect(outcome.status == 1)
        #expect(outcome.output.contains("menus.x.y.groups[0][1]"))
        let missing = try cli.run(["lint", "/nonexistent/manifest.json"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("cannot read"))
    }
}
