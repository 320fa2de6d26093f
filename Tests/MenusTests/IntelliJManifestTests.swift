import Menus
import Testing

/// The real IntelliJ Project View menu (shared/data/intellij-projectview, read in place).
@Suite("IntelliJ Project View manifest")
struct IntelliJManifestTests {
    static let menusFile = "intellij-projectview/menus.json"
    static let countsFile = "intellij-projectview/counts.csv"

    func load() throws -> ManifestDocument {
        try ManifestParser.load(bytes: try Fixtures.requireSharedData(Self.menusFile))
    }

    /// Per-command use summed over users (`user,command,count`).
    func usage() throws -> MenuUsage {
        let text = String(decoding: try Fixtures.requireSharedData(Self.countsFile), as: UTF8.self)
        var selections: [String: Int] = [:]
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",")
            guard fields.count == 3, let count = Int(fields[2]) else { continue }
            selections[String(fields[1]), default: 0] += count
        }
        return MenuUsage(elements: ["project.file": ElementUsage(selections: selections, dismissals: 0)])
    }

    @Test("loads: 73 commands, 11 groups")
    func loads() throws {
        let doc = try load()
        #expect(doc.manifest.app == "ide")
        #expect(doc.manifest.commands.count == 73)
        #expect(doc.ignored.isEmpty)
        let menu = try #require(doc.manifest.menus["project.file"])
        #expect(menu.layout.groups.count == 11)
        #expect(menu.layout.distinctCommands.count == 73)
        #expect(menu.layout.commandsInOrder.count == 74)
    }

    @Test("lint: the nested submenu, RenameElement twice, more than three groups, too many items")
    func lint() throws {
        let report = ManifestLinter().lint(try load())
        func at(_ rule: LintRule) -> [String] {
            report.findings.filter { $0.rule == rule }.map { "\($0.severity) \($0.path)" }
        }
        #expect(at(.hig4) == ["error menus.project.file.groups[3][1].items[3]"])
        #expect(report.findings.first { $0.rule == .hig4 }?.message
            == "submenu \"Extract/Introduce\" is nested inside submenu \"Refactor\"; keep submenus to one level")
        #expect(at(.structure) == ["warning menus.project.file.groups[3][1].items[1]"])
        #expect(report.findings.first { $0.rule == .structure }?.message.hasPrefix(
            "\"Rename…\" (RenameElement) is listed more than once in this menu (first at menus.project.file.groups[3][0])") == true)
        #expect(at(.hig6) == ["warning menus.project.file.groups"])
        #expect(report.findings.first { $0.rule == .hig6 }?.message.contains("11 groups") == true)
        #expect(at(.hig2).first == "warning menus.project.file.groups")
        #expect(at(.hig7).isEmpty && at(.hig8).isEmpty && at(.manifest).isEmpty)
        #expect(report.hasErrors)
        #expect(report.exitStatus(strict: false) == 1)
    }

    @Test("lint with the recorded use: Find in Files, the most used, is in the third group (HIG-5)")
    func lintWithUsage() throws {
        let report = ManifestLinter().lint(try load(), usage: try usage())
        let hig5 = report.findings.filter { $0.rule == .hig5 }
        #expect(hig5.map(\.path.description) == ["menus.project.file.groups[2][1]"])
        #expect(hig5.first?.message.hasPrefix("\"Find in Files…\" (FindInPath) is the most-used command") == true)
        #expect(report.findings.filter { $0.rule == .hig1 }.isEmpty)
    }

    @Test("exports, round trips and re-exports byte for byte")
    func roundTrip() throws {
        let m = try load().manifest
        let text = ManifestExporter().export(m)
        let back = try ManifestParser.parse(text)
        #expect(back == m)
        #expect(ManifestExporter().export(back) == text)
        #expect(text.contains("\n        [\"FindUsages\", \"FindInPath\", \"ReplaceInPath\", \"InspectCode\"],\n"))
    }
}
