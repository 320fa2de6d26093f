import Foundation
import Menus
import Ranking
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
        /// User-days as `scripts/real-data` makes them: each use of a (user, command) pair falls on
        /// day hash("time/user/command/index") mod 28 (FNV-1a 64, then fmix64).
        var userDays: [String: Double]
        /// People with any use.
        var people: Int
        /// The csv's rows with use: (user, command, count).
        var rows: [(user: String, command: String, count: Int)]

        /// Each command's use with its split by person bucket, as ingestion stores it
        /// (`PersonBucket.of(user:)` of the csv's user).
        var usage: [String: UsageCount] { Self.usage(rows: rows, commands: Set(selections.keys)) }

        /// The use of `rows` (of the csv, or of a resample of its people under new names), each
        /// row's user-days as `scripts/real-data` spreads its uses over the 28 days; `commands` with
        /// no row get zero use.
        static func usage(rows: [(user: String, command: String, count: Int)], commands: Set<String>)
            -> [String: UsageCount]
        {
            var split: [String: PeopleCounts] = [:]
            var people: [String: Set<String>] = [:]
            for id in commands { split[id] = .zero }
            for row in rows {
                let bucket = PersonBucket.of(user: row.user)
                let days = Set((0..<row.count).map { fnv1a64("time/\(row.user)/\(row.command)/\($0)") % 28 })
                split[row.command, default: .zero].selections[bucket] += Double(row.count)
                split[row.command, default: .zero].userDays[bucket] += Double(days.count)
                people[row.command, default: []].insert(row.user)
            }
            var out: [String: UsageCount] = [:]
            for (id, counts) in split {
                out[id] = UsageCount(selections: counts.selections.reduce(0, +), users: people[id]?.count ?? 0,
                                     userDays: counts.userDays.reduce(0, +), people: counts)
            }
            return out
        }
    }

    static func fnv1a64(_ text: String) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        value ^= value >> 33
        value = value &* 0xff51_afd7_ed55_8ccd
        value ^= value >> 33
        value = value &* 0xc4ce_b9fe_1a85_ec53
        return value ^ (value >> 33)
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
        var userDays: [String: Double] = [:]
        var people = Set<String>()
        var rows: [(user: String, command: String, count: Int)] = []
        for line in csv.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3, let count = Int(fields[2]) else { continue }
            let (user, command) = (String(fields[0]), String(fields[1]))
            selections[command, default: 0] += count
            guard count > 0 else { continue }
            rows.append((user, command, count))
            users[command, default: 0] += 1
            people.insert(user)
            let days = Set((0..<count).map { fnv1a64("time/\(user)/\(command)/\($0)") % 28 })
            userDays[command, default: 0] += Double(days.count)
        }
        return Dataset(menu: ElementMenu(layout: layout), commands: commands, selections: selections, users: users,
                       userDays: userDays, people: people.count, rows: rows)
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
        let usage = data.usage
        #expect(data.people == 57)
        let proposal = recommender.recommend(current: data.menu, commands: data.commands, usage: usage,
                                             menuUsers: data.people)
        let checker = InvariantChecker(menu: data.menu, commands: data.commands, usage: usage, menuUsers: data.people,
                                       options: options)
        #expect(proposal.regrouped.map { checker.violations(of: $0) } ?? [] == [])
        #expect(checker.ladderViolations(of: proposal) == [])
        #expect(recommender.recommend(current: data.menu, commands: data.commands, usage: usage,
                                      menuUsers: data.people) == proposal)
        #expect(proposal.changed)
        #expect(proposal.evidence.proposedScanDepth < proposal.evidence.currentScanDepth)
        // The smallest change that delivers the gain: few commands change container, and no
        // submenu is made that mixes categories (regroup is not offered on this menu).
        let filed = try #require(proposal.ladder.first { $0.kind == proposal.step })
        #expect(Double(filed.moved.count) <= 0.15 * Double(data.menu.layout.distinctCommands.count),
                "\(filed.kind) moves \(filed.moved)")
        #expect(proposal.regrouped == nil)
        print("real data, \(grouping): ladder " + proposal.ladder.map { step in
            "\(step.kind) \(step.offered ? "\(step.moved.count) moves, scan \(step.evidence!.proposedScanDepth)" : "not offered")"
        }.joined(separator: "; "))
        let submenus = proposal.submenus.map { submenu in
            "\(submenu.title) <- \(submenu.categories.map { "\($0.name)\($0.title == nil ? " (untitled)" : "")" })"
        }
        let e = proposal.evidence
        print("real data, \(grouping): submenus \(submenus); untitled \(proposal.untitledCategories.map(\.name)); "
            + String(format: "scan depth %.2f -> %.2f, model %.3f s -> %.3f s, displaced %.2f%%, pruned %d",
                     e.currentScanDepth, e.proposedScanDepth, e.currentSeconds, e.proposedSeconds,
                     e.displacedShare * 100, proposal.pruned.count))

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
