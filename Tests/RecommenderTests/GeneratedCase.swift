import Foundation
import Menus
import Recommender

/// A random manifest menu, counts and options for property tests.
struct GeneratedCase: CustomStringConvertible {
    var seed: UInt64
    var menu: ElementMenu
    var commands: [String: CommandInfo]
    var selections: [String: Int]
    var options: Recommender.Options

    init(seed: UInt64) {
        self.seed = seed
        var rng = SplitMix64(seed: seed)
        let pool = (0..<rng.int(1...14)).map { "c\($0)" }
        var commands: [String: CommandInfo] = [:]
        let categories = ["edit", "share", "view", "More"]
        for id in pool {
            commands[id] = CommandInfo(
                title: rng.chance(0.05) ? "" : "Title \(id)",
                destructive: rng.chance(0.12), pinned: rng.chance(0.07), keep: rng.chance(0.12),
                category: rng.chance(0.25) ? categories[rng.int(0...3)] : nil)
        }
        var used: [String] = []
        func pick() -> String {
            if !used.isEmpty, rng.chance(0.1) { return used[rng.int(0...(used.count - 1))] }
            let unused = pool.filter { !used.contains($0) }
            let id = unused.isEmpty ? pool[rng.int(0...(pool.count - 1))] : unused[rng.int(0...(unused.count - 1))]
            used.append(id)
            return id
        }
        func item(depth: Int) -> MenuItem {
            if depth < 2, rng.chance(depth == 0 ? 0.15 : 0.1) {
                let items = (0..<rng.int(1...4)).map { _ in item(depth: depth + 1) }
                return .submenu(Submenu(title: rng.chance(0.1) ? "More" : "Sub \(rng.int(0...99))", items: items))
            }
            return .command(pick())
        }
        let groups = (0..<rng.int(1...6)).map { _ in (0..<rng.int(1...5)).map { _ in item(depth: 0) } }
        menu = ElementMenu(layout: Layout(groups: groups))
        self.commands = commands

        // Counts: thin or plentiful, flat or heavily skewed, with zeros and commands only in telemetry.
        var selections: [String: Int] = [:]
        let scale = [3, 40, 400, 5000, 60000][rng.int(0...4)]
        let skew = [0.0, 0.7, 1.5, 3.0][rng.int(0...3)]
        for (rank, id) in pool.shuffledDeterministically(&rng).enumerated() {
            if rng.chance(0.15) { continue }
            if rng.chance(0.1) { selections[id] = 0; continue }
            let mean = Double(scale) / pow(Double(rank + 1), skew)
            selections[id] = Int(mean * (0.5 + rng.unit()))
        }
        if rng.chance(0.2) { selections["telemetry_only"] = rng.int(0...200) }
        self.selections = selections
        options = Recommender.Options(maxGroups: rng.int(1...4), maxGroupSize: rng.int(2...4),
                                      pruneShare: rng.chance(0.7) ? 0.01 : 0.05,
                                      grouping: rng.chance(0.5) ? .semantic : .usage)
    }

    var description: String {
        let attributes = commands.keys.sorted().map { id -> String in
            let info = commands[id]!
            let flags = [info.destructive ? "D" : "", info.pinned ? "P" : "", info.keep ? "K" : "",
                         info.category.map { "@" + $0 } ?? ""].joined()
            return "\(id)=\(selections[id].map(String.init) ?? "-")\(flags)"
        }
        return "seed \(seed) G\(options.maxGroups) S\(options.maxGroupSize) \(options.grouping) t\(options.pruneShare): "
            + "\(menu.layout.compact) :: \(attributes.joined(separator: " "))"
            + (selections["telemetry_only"].map { " telemetry_only=\($0)" } ?? "")
    }
}

extension Array {
    func shuffledDeterministically(_ rng: inout SplitMix64) -> [Element] {
        var out = self
        if out.count < 2 { return out }
        for index in stride(from: out.count - 1, through: 1, by: -1) {
            out.swapAt(index, rng.int(0...index))
        }
        return out
    }
}
