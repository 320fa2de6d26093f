import Foundation
import Testing
import TestSupport

/// IntelliJ IDEA's Project View menu with the real use counts of 57 people (109,480 uses), end to
/// end through the built binary in a schema of its own: lint, migrate, apps create, menus import,
/// import of the counts as selection events, recommend, and the proposal's invariants on real data.
///
/// The data is read in place from `shared/data/intellij-projectview` (never copied into the
/// repository): `MENURANK_DATA_DIR`, else that folder beside the repository or one of its parents.
/// Without it the suite is skipped, except in CI, where that is a failure. The events are made
/// exactly as `scripts/real-data` makes them.
@Suite(TestDatabase.enabled)
struct RealDataTests {
    static let asOf = "2026-11-20"

    // MARK: - Events, as scripts/real-data makes them

    /// FNV-1a 64 of the UTF-8 bytes, then MurmurHash3's fmix64 so that the low bits mix too.
    static func hash(_ text: String) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        value ^= value >> 33
        value = value &* 0xff51_afd7_ed55_8ccd
        value ^= value >> 33
        value = value &* 0xc4ce_b9fe_1a85_ec53
        return value ^ (value >> 33)
    }

    /// A v4-shaped UUID from two hashes of `key`.
    static func eventID(_ key: String) -> String {
        var high = hash("id-high/" + key)
        var low = hash("id-low/" + key)
        high = (high & ~0xF000) | 0x4000
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        func hex(_ value: UInt64) -> [Character] {
            let digits = Array(String(value, radix: 16))
            return Array(repeating: "0", count: 16 - digits.count) + digits
        }
        let all = hex(high) + hex(low)
        return String(all[0..<8]) + "-" + String(all[8..<12]) + "-" + String(all[12..<16]) + "-"
            + String(all[16..<20]) + "-" + String(all[20..<32])
    }

    /// The 28 days ending at `asOf` (`YYYY-MM-DD`), oldest first.
    static func days(endingAt asOf: String) throws -> [String] {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let last = try #require(formatter.date(from: asOf))
        return (0..<28).map { formatter.string(from: last.addingTimeInterval(Double($0 - 27) * 86_400)) }
    }

    struct Usage {
        /// One JSON Lines event per use.
        var lines: [String] = []
        /// Uses per command.
        var selections: [String: Int] = [:]
        /// Uses per command and person (people with at least one use).
        var users: [String: [String: Int]] = [:]
    }

    /// For each csv row (user, command, count), `count` select events on `project.file`.
    static func usage(csv: String, asOf: String) throws -> Usage {
        let days = try days(endingAt: asOf)
        func twoDigits(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var usage = Usage()
        usage.lines.reserveCapacity(110_000)
        for line in csv.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let count = try #require(fields.count == 3 ? Int(fields[2]) : nil, "bad csv line: \(line)")
            let (user, command) = (fields[0], fields[1])
            usage.selections[command, default: 0] += count
            if count > 0 { usage.users[command, default: [:]][user, default: 0] += count }
            for index in 0..<count {
                let key = "\(user)/\(command)/\(index)"
                let when = hash("time/" + key)
                let second = (when / 28) % 86_400
                let time = "\(days[Int(when % 28)])T\(twoDigits(second / 3600)):\(twoDigits(second / 60 % 60)):\(twoDigits(second % 60))Z"
                usage.lines.append("""
                    {"id":"\(eventID(key))","time":"\(time)","element_type":"project.file","command":"\(command)",\
                    "kind":"select","user":"\(user)"}
                    """)
            }
        }
        return usage
    }

    // MARK: - Reading the manifest and the outputs

    /// Every command id of a layout's groups in reading order, submenus (nested too) flattened.
    static func commands(in groups: [[Any]]) throws -> [String] {
        func flatten(_ item: Any) throws -> [String] {
            if let id = item as? String { return [id] }
            let submenu = try #require(item as? [String: Any])
            return try #require(submenu["items"] as? [Any]).flatMap(flatten)
        }
        return try groups.flatMap { try $0.flatMap(flatten) }
    }

    /// Each command's category as DESIGN.md ("Grouping") reads it from this manifest, which has
    /// no `category` attributes and no group titles: its outermost current submenu, else its group
    /// ("group N", 1-based; a top-level command never joins a submenu beside it). The first listing
    /// wins.
    static func categories(of groups: [[Any]]) -> [String: String] {
        var out: [String: String] = [:]
        for (index, group) in groups.enumerated() {
            func visit(_ item: Any, outer: String?) {
                if let id = item as? String {
                    if out[id] == nil { out[id] = outer ?? "group \(index + 1)" }
                } else if let submenu = item as? [String: Any] {
                    let title = submenu["submenu"] as? String
                    for inner in submenu["items"] as? [Any] ?? [] { visit(inner, outer: outer ?? title) }
                }
            }
            group.forEach { visit($0, outer: nil) }
        }
        return out
    }

    /// Titles of the submenus of a layout, nested ones included.
    static func submenuTitles(in groups: [[Any]]) -> Set<String> {
        var out: Set<String> = []
        func visit(_ item: Any) {
            guard let submenu = item as? [String: Any] else { return }
            if let title = submenu["submenu"] as? String { out.insert(title) }
            (submenu["items"] as? [Any] ?? []).forEach(visit)
        }
        groups.joined().forEach(visit)
        return out
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text.prefix(300))")
    }

    func run(_ binary: URL, _ arguments: [String], database: String? = nil) throws -> ChildProcess.Outcome {
        try ChildProcess.run(binary, arguments + (database.map { ["--database", $0] } ?? []), environment: ["NO_COLOR": "1"])
    }

    @Test func eventsAreMadeAsTheScriptMakesThem() throws {
        // Values printed by the Python generator of scripts/real-data.
        #expect(Self.hash("a") == 0x82a2_a958_a9be_ce5b)
        #expect(Self.hash("time/u01/ReformatCode/0") == 0xfd78_639f_7d05_ce74)
        #expect(Self.eventID("u01/ReformatCode/0") == "adaad9ed-9dfd-4884-8e7b-9496e1e3b447")
        let usage = try Self.usage(csv: "user,command,count\nu01,ReformatCode,2\nu02,NewDir,0\n", asOf: Self.asOf)
        #expect(usage.selections == ["ReformatCode": 2, "NewDir": 0])
        #expect(usage.lines.count == 2)
        #expect(usage.lines.first?.contains("\"time\":\"2026-11-17T02:20:33Z\"") == true)
        #expect(try Self.days(endingAt: "2026-03-01").prefix(2) == ["2026-02-02", "2026-02-03"])
    }

    @Test(.enabled(if: realDataFolder() != nil || runsInCI(),
                   "real data not found (shared/data/intellij-projectview beside the repository); set MENURANK_DATA_DIR"))
    func intelliJProjectViewEndToEnd() throws {
        guard let folder = realDataFolder() else {
            Issue.record("real data not found (shared/data/intellij-projectview beside the repository); set MENURANK_DATA_DIR")
            return
        }
        let binary = try RepositoryPaths.menurankBinary()
        let manifestPath = folder.appendingPathComponent("menus.json").path
        let manifest = try Self.object(try String(contentsOfFile: manifestPath, encoding: .utf8))
        let menus = try #require(manifest["menus"] as? [String: Any])
        let menu = try #require(menus["project.file"] as? [String: Any])
        let currentCommands = try Self.commands(in: try #require(menu["groups"] as? [[Any]]))
        #expect(currentCommands.filter { $0 == "RenameElement" }.count == 2)
        let csv = try String(contentsOf: folder.appendingPathComponent("counts.csv"), encoding: .utf8)
        let usage = try Self.usage(csv: csv, asOf: Self.asOf)
        #expect(usage.lines.count == 109_480)
        // The same events as scripts/real-data (its first and last lines).
        #expect(usage.lines.first == """
            {"id":"adaad9ed-9dfd-4884-8e7b-9496e1e3b447","time":"2026-11-17T02:20:33Z","element_type":"project.file",\
            "command":"ReformatCode","kind":"select","user":"u01"}
            """)
        #expect(usage.lines.last == """
            {"id":"e2e60007-6d08-48a7-b6c2-ba650adc895c","time":"2026-11-14T17:58:19Z","element_type":"project.file",\
            "command":"NewDir","kind":"select","user":"u70"}
            """)
        let neverUsed = Set(currentCommands).filter { (usage.selections[$0] ?? 0) == 0 }
        #expect(neverUsed.count == 18)
        // With 57 people, a command nobody used still has a reach whose upper bound (6.3%) is above
        // --prune-reach (5%): thin data never prunes (invariant 7), so nothing is flagged here.

        // Lint: the nested Refactor > Extract/Introduce submenu (HIG-4, an error) and 11 groups (HIG-6).
        let lint = try run(binary, ["lint", manifestPath, "--format", "json"])
        #expect(lint.status == 1, "\(lint.standardError)")
        let findings = try #require(try Self.object(lint.standardOutput)["findings"] as? [[String: Any]])
        let hig4 = findings.filter { $0["rule"] as? String == "HIG-4" }
        #expect(hig4.count == 1)
        #expect((hig4.first?["message"] as? String)?.contains("\"Extract/Introduce\" is nested inside submenu \"Refactor\"") == true)
        #expect(findings.contains { $0["rule"] as? String == "HIG-6" })

        try TestDatabase.withSchema(prefix: "realdata") { schema in
            let database = schema.connectionString
            let migrated = try run(binary, ["migrate"], database: database)
            #expect(migrated.status == 0, "\(migrated.standardError)")
            let created = try run(binary, ["apps", "create", "ide", "--format", "json"], database: database)
            #expect(created.status == 0, "\(created.standardError)")
            let imported = try run(binary, ["menus", "import", manifestPath], database: database)
            #expect(imported.status == 0, "\(imported.standardError)")
            #expect(imported.standardOutput.contains("project.file: added, version 1"))

            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("menurank-realdata-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let eventsFile = scratch.appendingPathComponent("events.jsonl")
            try Data((usage.lines.joined(separator: "\n") + "\n").utf8).write(to: eventsFile)
            let events = try run(binary, ["import", eventsFile.path, "--app", "ide", "--retention", "36500d"], database: database)
            #expect(events.status == 0, "\(events.standardError.prefix(2000))")
            #expect(events.standardOutput.contains("109480 lines: 109480 events stored, 0 duplicates, 0 rejected"),
                    "\(events.standardOutput)")

            let recommend = ["recommend", "--app", "ide", "--as-of", Self.asOf, "--format", "json"]
            let first = try run(binary, recommend, database: database)
            #expect(first.status == 0, "\(first.standardError)")
            let document = try Self.object(first.standardOutput)
            let entries = try #require(document["element_types"] as? [[String: Any]])
            let entry = try #require(entries.first { $0["element_type"] as? String == "project.file" })
            #expect(entry["selections"] as? Int == 109_480)
            #expect(entry["changed"] as? Bool == true)

            // The ladder: the filed step is promote or reorder (regroup would need a submenu that
            // mixes categories: not offered), it moves at most 15% of the commands, and the
            // smaller steps make no submenu of their own.
            let proposed = try #require((entry["proposed"] as? [String: Any])?["groups"] as? [[Any]])
            let ladder = try #require(entry["ladder"] as? [[String: Any]])
            #expect(ladder.map { $0["step"] as? String } == ["promote", "reorder", "regroup"])
            #expect(ladder[2]["offered"] as? Bool == false, "\(ladder[2])")
            let step = try #require(entry["step"] as? String)
            let filed = try #require(ladder.first { $0["step"] as? String == step })
            #expect(filed["filed"] as? Bool == true)
            let moves = try #require(filed["moves"] as? Int)
            #expect(Double(moves) <= 0.15 * Double(currentCommands.count), "\(step) moves \(filed["moved"] ?? "")")
            let currentTitles = Self.submenuTitles(in: try #require(menu["groups"] as? [[Any]]))
            for case let submenu as [String: Any] in proposed.flatMap({ $0 }) {
                #expect(currentTitles.contains(submenu["submenu"] as? String ?? ""), "made \(submenu)")
            }
            // Cut, Copy and Paste kept together, in this order, in one group.
            let clipboard = proposed.first { group in group.contains { $0 as? String == "$Copy" } }
            #expect(clipboard.map { group in group.compactMap { $0 as? String }.filter { ["$Cut", "$Copy", "$Paste"].contains($0) } }
                    == ["$Cut", "$Copy", "$Paste"], "\(proposed)")

            // Invariant 1: every command of the current layout exactly once (RenameElement too).
            let prune = try #require(entry["prune"] as? [[String: Any]]).compactMap { $0["command"] as? String }
            let placed = try Self.commands(in: proposed) + prune
            #expect(placed.count == Set(placed).count, "listed twice: \(Dictionary(grouping: placed) { $0 }.filter { $0.value.count > 1 }.keys)")
            #expect(Set(placed) == Set(currentCommands))
            #expect(placed.filter { $0 == "RenameElement" }.count == 1)

            // The issue's bar for a proposal a designer accepts, on real data (DESIGN.md, invariants).
            let people = Set(usage.users.values.flatMap(\.keys)).count
            #expect(people == 57)
            let evidence = try #require(entry["evidence"] as? [String: Any])
            // Nothing used by 10% or more of the people is flagged, and at most 5% of the selections
            // lose their entry.
            for id in prune {
                #expect(Double(usage.users[id]?.count ?? 0) < 0.1 * Double(people), "\(id) flagged, used by \(usage.users[id]?.count ?? 0)")
            }
            let displaced = try #require(evidence["displaced_share"] as? Double)
            #expect(displaced <= 0.05, "displaced \(displaced)")
            // Honest evidence: the expected scan depth (a pruned command costing the whole current
            // menu) drops; the model's time is reported for both layouts.
            let depth = try #require(entry["scan_depth"] as? [String: Any])
            let current = try #require(depth["current"] as? Double)
            let proposedDepth = try #require(depth["proposed"] as? Double)
            #expect(proposedDepth < current, "scan depth \(current) -> \(proposedDepth)")
            let seconds = try #require(evidence["seconds"] as? [String: Any])
            #expect(seconds["current"] as? Double != nil && seconds["proposed"] as? Double != nil)
            // Stability over resamples of the 57 people: filed at 0.9 or more, else tentative and
            // not filed (measured 1.0 for the filed step on this data: only a command out of a
            // submenu changes the top level, and it is promoted only when separated from every
            // unit left out by the raised gate; 0.385 before such a rule, when the last places
            // went to one of several near-ties).
            let stability = try #require(evidence["stability"] as? Double)
            let tentative = stability < 0.9
            #expect(evidence["tentative"] as? Bool == tentative)
            #expect((entry["proposal_id"] as? Int != nil) == !tentative)
            let lint = try #require(entry["lint"] as? [[String: Any]])
            let rules = Set(lint.compactMap { $0["rule"] as? String })
            #expect(rules.isSuperset(of: ["HIG-4", "HIG-6"]), "\(rules)")
            // What would have to leave the menu for the shape, and what it costs (invariant 2).
            #expect(lint.contains { ($0["message"] as? String ?? "").contains("would have to leave the menu") })

            // A second nightly run on the same data files nothing new and prints the same bytes.
            let list = ["proposals", "list", "--app", "ide", "--format", "json"]
            func proposals() throws -> Int {
                let listed = try run(binary, list, database: database)
                #expect(listed.status == 0, "\(listed.standardError)")
                return try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [Any]).count
            }
            let before = try proposals()
            #expect(before == (tentative ? 0 : 1))
            let second = try run(binary, recommend, database: database)
            #expect(second.status == 0, "\(second.standardError)")
            #expect(second.standardOutput == first.standardOutput)
            #expect(try proposals() == before)
        }
    }
}

/// True when env `CI` is set to anything but `0`/`false`: missing data is then a failure.
private func runsInCI() -> Bool {
    let ci = ProcessInfo.processInfo.environment["CI"] ?? ""
    return !ci.isEmpty && ci != "0" && ci.lowercased() != "false"
}

/// `MENURANK_DATA_DIR`, else `shared/data/intellij-projectview` in the repository's folder or one
/// of its parents (CI clones the repository beside `shared`), when it holds both files.
private func realDataFolder() -> URL? {
    let fileManager = FileManager.default
    func holdsData(_ folder: URL) -> Bool {
        fileManager.fileExists(atPath: folder.appendingPathComponent("menus.json").path)
            && fileManager.fileExists(atPath: folder.appendingPathComponent("counts.csv").path)
    }
    if let explicit = ProcessInfo.processInfo.environment["MENURANK_DATA_DIR"], !explicit.isEmpty {
        let folder = URL(fileURLWithPath: explicit)
        return holdsData(folder) ? folder : nil
    }
    guard var folder = try? RepositoryPaths.root() else { return nil }
    while true {
        let candidate = folder.appendingPathComponent("shared/data/intellij-projectview")
        if holdsData(candidate) { return candidate }
        guard folder.path != "/" else { return nil }
        folder.deleteLastPathComponent()
    }
}
