import Foundation
import JSON
import Simulation
import Testing

/// `menurank simulate --manifest M --layout L`: the same people and popularity shown another layout
/// (what GET /v1/menus serves after an accept), so a better layout is measurably faster.
@Suite struct SimulationLayoutTests {
    static var manifest: String { SimulationOptions.repositoryRoot.appendingPathComponent("examples/mail.json").path }

    /// mail.message's commands in the order of the popularity the generator gives them, three to a
    /// group, the least used left out (as a proposal that prunes it would).
    static func bestLayoutFile() throws -> (path: String, pruned: String) {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: manifest))
        let profile = try SimulationProfile.fromManifest(JSONParser.parse(bytes: Array(bytes)))
        var configuration = SimulationConfiguration()
        configuration.seed = 42
        let generator = SimulationGenerator(profile: profile, configuration: configuration)
        let index = try #require(profile.elementTypes.firstIndex { $0.name == "mail.message" })
        let items = profile.elementTypes[index].items
        let ranks = generator.popularityRanks[index]
        let ordered = items.indices.sorted { ranks[$0] < ranks[$1] }.map { items[$0].command }
        let kept = Array(ordered.dropLast())
        let groups = stride(from: 0, to: kept.count, by: 3).map { Array(kept[$0..<min($0 + 3, kept.count)]) }
        let document: [String: Any] = [
            "app": "mail", "version": "2026.11.1",
            "menus": ["mail.message": ["menu_version": "2026.11.1+2", "groups": groups]],
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: document).write(to: file)
        return (file.path, ordered.last!)
    }

    static func messageStats(_ events: [[String: Any]]) -> (meanLatency: Double, dismissed: Double, versions: Set<String>) {
        let message = events.filter { $0["element_type"] as? String == "mail.message" }
        let picks = message.filter { $0["kind"] as? String == "select" }
        let latency = picks.compactMap { $0["latency_ms"] as? Int }
        return (Double(latency.reduce(0, +)) / Double(max(1, latency.count)),
                Double(message.count - picks.count) / Double(max(1, message.count)),
                Set(message.compactMap { $0["menu_version"] as? String }))
    }

    @Test func aLayoutInOrderOfUseIsFasterAndCarriesItsMenuVersion() throws {
        let (layout, pruned) = try Self.bestLayoutFile()
        defer { try? FileManager.default.removeItem(atPath: layout) }
        let common = ["--manifest", Self.manifest, "--events", "20000", "--seed", "42", "--users", "500"]
        let before = try SimulationGeneratorTests.events(common)
        let after = try SimulationGeneratorTests.events(common + ["--layout", layout])
        let (b, a) = (Self.messageStats(before), Self.messageStats(after))
        #expect(b.versions == ["2026.11.1"])
        #expect(a.versions == ["2026.11.1+2"])
        // Other element types keep the manifest's layout and version.
        #expect(after.filter { $0["element_type"] as? String == "mail.mailbox" }
            .allSatisfy { $0["menu_version"] as? String == "2026.11.1" })
        #expect(a.meanLatency < b.meanLatency * 0.95, "mean latency \(b.meanLatency) -> \(a.meanLatency)")
        // The pruned command is never picked; who wanted it dismisses the menu.
        #expect(!after.contains { $0["command"] as? String == pruned && $0["element_type"] as? String == "mail.message" })
        #expect(a.dismissed > b.dismissed)
        // The same people with the same preferences: the most used command stays the most used.
        func top(_ events: [[String: Any]]) -> String? {
            let counts = Dictionary(grouping: events.filter { $0["element_type"] as? String == "mail.message" }
                .compactMap { $0["command"] as? String }, by: { $0 }).mapValues(\.count)
            return counts.max { $0.value < $1.value }?.key
        }
        #expect(top(before) == top(after))
    }
}
