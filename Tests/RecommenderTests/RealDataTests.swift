import Foundation
import Menus
import Recommender
import Testing

/// IntelliJ IDEA's Project View menu with real use counts (/work/shared/data/intellij-projectview,
/// read in place, never copied into the repository).
@Suite("Real data: IntelliJ Project View")
struct RealDataTests {
    struct Dataset {
        var menu: ElementMenu
        var commands: [String: CommandInfo]
        var selections: [String: Int]
        var users: [String: Int]
    }

    /// The data folder: `MENURANK_DATA_DIR`, else `shared/data/intellij-projectview` next to the
    /// package or one of its ancestors (the package may be a worktree below the project folder).
    static func dataFolder() -> URL? {
        let fileManager = FileManager.default
        if let explicit = ProcessInfo.processInfo.environment["MENURANK_DATA_DIR"] {
            return URL(fileURLWithPath: explicit)
        }
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !fileManager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            guard folder.path != "/" else { return nil }
            folder.deleteLastPathComponent()
        }
        while folder.path != "/" {
            folder.deleteLastPathComponent()
            let candidate = folder.appendingPathComponent("shared/data/intellij-projectview")
            if fileManager.fileExists(atPath: candidate.appendingPathComponent("menus.json").path) { return candidate }
        }
        return nil
    }

    static func load() throws -> Dataset? {
        guard let folder = dataFolder() else { return nil }
        let json = try Data(contentsOf: folder.appendingPathComponent("menus.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let rawCommands = try #require(root["commands"] as? [String: [String: Any]])
        var commands: [String: CommandInfo] = [:]
        for (id, attributes) in rawCommands {
            commands[id] = CommandInfo(
                title: attributes["title"] as? String ?? id, destructive: attributes["destructive"] as? Bool ?? false,
                pinned: attributes["pinned"] as? Bool ?? false, keep: attributes["keep"] as? Bool ?? false,
                category: attributes["category"] as? String)
        }
        let menus = try #require(root["menus"] as? [String: [String: Any]])
        let raw = try #require(menus["project.file"]?["groups"] as? [[Any]])
        func item(_ value: Any) throws -> MenuItem {
            if let id = value as? String { return .command(id) }
            let object = try #require(value as? [String: Any])
            let title = try #require(object["submenu"] as? String)
            let items = try #require(object["items"] as? [Any])
            return .submenu(Submenu(title: title, items: try items.map(item)))
        }
        let layout = Layout(groups: try raw.map { try $0.map(item) })

        let csv = try String(contentsOf: folder.appendingPathComponent("counts.csv"), encoding: .utf8)
        var selections: [String: Int] = [:]
        var users: [String: Int] = [:]
        for line in csv.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3, let count = Int(fields[2]) else { continue }
            selections[String(fields[1]), default: 0] += count
            if count > 0 { users[String(fields[1]), default: 0] += 1 }
        }
        return Dataset(menu: ElementMenu(layout: layout), commands: commands, selections: selections, users: users)
    }

    @Test(arguments: Recommender.Grouping.allCases)
    func invariantsHoldOnRealData(grouping: Recommender.Grouping) throws {
        guard let data = try Self.load() else {
            if ProcessInfo.processInfo.environment["CI"] != nil {
                Issue.record("real data not found (shared/data/intellij-projectview); set MENURANK_DATA_DIR")
            }
            return
        }
        #expect(data.selections.values.reduce(0, +) == 109_480)
        #expect(data.menu.layout.distinctCommands.count == 73)
        let options = Recommender.Options(grouping: grouping)
        let recommender = Recommender(options: options)
        var usage: [String: UsageCount] = [:]
        for (id, count) in data.selections { usage[id] = UsageCount(selections: count, users: data.users[id] ?? 0) }
        let proposal = recommender.recommend(current: data.menu, commands: data.commands, usage: usage, menuUsers: 0)
        let checker = InvariantChecker(menu: data.menu, commands: data.commands, selections: data.selections,
                                       options: options)
        #expect(checker.violations(of: proposal) == [])
        let again = recommender.recommend(current: ElementMenu(layout: proposal.layout), commands: data.commands,
                                          usage: usage, menuUsers: 0)
        #expect(!again.changed)
        #expect(again.layout == proposal.layout)
        #expect(recommender.recommend(current: data.menu, commands: data.commands, usage: usage, menuUsers: 0) == proposal)
        #expect(proposal.changed)
        #expect(proposal.evidence.proposedScanDepth < proposal.evidence.currentScanDepth)

        let flags = proposal.pruned.map { flag in
            "\(flag.command) \(String(format: "%.2f%% [%.2f-%.2f] users %d", flag.share * 100, flag.shareLow * 100, flag.shareHigh * 100, flag.users))"
        }
        print("""
            real data, \(grouping) grouping: \(proposal.layout.compact)
              pruned \(proposal.pruned.count): \(flags.joined(separator: "; "))
              scan depth \(String(format: "%.3f", proposal.evidence.currentScanDepth)) -> \
            \(String(format: "%.3f", proposal.evidence.proposedScanDepth)) items, \
            \(String(format: "%.3f", proposal.evidence.secondsSavedPerSelection)) s saved per selection
            """)
    }
}
