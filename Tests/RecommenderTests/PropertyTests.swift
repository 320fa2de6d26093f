import Foundation
import Menus
import Recommender
import Testing

@Suite("Invariants on generated menus")
struct PropertyTests {
    /// 600 cases by default (well under a second); `RECO_CASES=20000` for a deeper run, and
    /// `RECO_DUMP=/path` writes every failing case there in full.
    static let caseCount = Int(ProcessInfo.processInfo.environment["RECO_CASES"] ?? "") ?? 600

    @Test func everyInvariantHoldsOnGeneratedCases() {
        var failures: [String] = []
        var submenus = 0
        var pruned = 0
        var merged = 0
        for seed in 1...UInt64(Self.caseCount) {
            let generated = GeneratedCase(seed: seed)
            let problems = check(generated)
            if !problems.isEmpty { failures.append("\(generated)\n  -> \(problems)") }
            let proposal = Recommender(options: generated.options)
                .recommend(current: generated.menu, commands: generated.commands, selections: generated.selections)
            if proposal.layout.groups.flatMap({ $0 }).contains(where: { if case .submenu = $0 { true } else { false } }) {
                submenus += 1
            }
            if !proposal.pruned.isEmpty { pruned += 1 }
            if generated.menu.layout.groups.count > generated.options.maxGroups { merged += 1 }
        }
        if let dump = ProcessInfo.processInfo.environment["RECO_DUMP"] {
            try? failures.joined(separator: "\n").write(toFile: dump, atomically: true, encoding: .utf8)
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Self.caseCount) cases fail; first: \(failures.prefix(3).joined(separator: "\n"))")
        // The generator really exercises the interesting paths.
        #expect(submenus > 50)
        #expect(pruned > 50)
        #expect(merged > 100)
    }

    /// All invariants of one case, determinism and the fixed point included.
    private func check(_ generated: GeneratedCase) -> [String] {
        let recommender = Recommender(options: generated.options)
        let proposal = recommender.recommend(current: generated.menu, commands: generated.commands,
                                             selections: generated.selections)
        let checker = InvariantChecker(menu: generated.menu, commands: generated.commands,
                                       selections: generated.selections, options: generated.options)
        var problems = checker.violations(of: proposal)

        // 6. Deterministic: a second call, and dictionaries built in another order, give the same.
        let again = recommender.recommend(current: generated.menu, commands: generated.commands,
                                          selections: generated.selections)
        if again != proposal { problems.append("6: second call differs") }
        var commands: [String: CommandInfo] = [:]
        for key in generated.commands.keys.sorted().reversed() { commands[key] = generated.commands[key] }
        var selections: [String: Int] = [:]
        for key in generated.selections.keys.sorted().reversed() { selections[key] = generated.selections[key] }
        if recommender.recommend(current: generated.menu, commands: commands, selections: selections) != proposal {
            problems.append("6: differs with dictionaries built in another order")
        }

        // 4. Stability: the proposal is a fixed point, so an accepted proposal files nothing new.
        let next = recommender.recommend(current: ElementMenu(layout: proposal.layout), commands: generated.commands,
                                         selections: generated.selections)
        if next.changed || next.layout != proposal.layout {
            problems.append("4: not a fixed point: \(proposal.layout.compact) -> \(next.layout.compact)")
        }
        if !next.pruned.isEmpty { problems.append("4: rerun prunes \(next.pruned.map(\.command))") }
        return problems
    }
}
