import Menus
import Testing

/// Lint with usage: a menu that people open and close without a pick, by the lower bound of the
/// dismissal rate's Wilson interval.
@Suite struct DismissalLintTests {
    let manifest = """
        {"app": "a", "commands": {"x": {"title": "X"}, "y": {"title": "Y"}},
         "menus": {"t": {"groups": [["x", "y"]]}}}
        """

    func findings(selections: Int, dismissals: Int) throws -> [LintFinding] {
        let document = try ManifestParser.load(manifest)
        let usage = MenuUsage(elements: ["t": ElementUsage(selections: ["x": selections], dismissals: dismissals)])
        return ManifestLinter().lint(document, usage: usage).findings.filter { $0.rule == .hig2 }
    }

    @Test func aHighDismissalRateIsAFinding() throws {
        let found = try findings(selections: 600, dismissals: 400)
        #expect(found.count == 1)
        #expect(found.first?.severity == .warning)
        #expect(found.first?.path.description == "menus.t")
        #expect(found.first?.message.contains("400 of 1000 opens") == true)
        #expect(found.first?.message.contains("40.0%") == true)
    }

    @Test func thinDataOrAModestRateIsNot() throws {
        // 3 of 5 dismissed: 60%, but the interval's lower bound (23%) is below the threshold.
        #expect(try findings(selections: 2, dismissals: 3).isEmpty)
        // 20% of 5000: clearly below.
        #expect(try findings(selections: 4000, dismissals: 1000).isEmpty)
        // 27% of 10000: the lower bound (26.1%) is above 25%.
        #expect(try findings(selections: 7300, dismissals: 2700).count == 1)
        // 26% of 1000: the lower bound (23.4%) is not.
        #expect(try findings(selections: 740, dismissals: 260).isEmpty)
    }
}
