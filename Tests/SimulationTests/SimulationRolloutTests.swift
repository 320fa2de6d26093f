import CivilTime
import Foundation
import JSON
import MenurankClient
import Simulation
import Testing

/// `simulate --layout` with a document that serves a rollout: people in both arms by the device
/// rule, each arm's events with its layout's positions and menu version, the new arm faster when
/// its layout puts the used commands first.
@Suite struct SimulationRolloutTests {
    @Test func peopleAreInTheArmTheDeviceRuleGivesThem() throws {
        let manifest: JSONValue = try JSONParser.parse(#"""
            {"app": "a", "version": "1", "menus": {"x.item": {"groups": [["c0", "c1", "c2"], ["c3", "c4", "c5"]]}}}
            """#)
        // The current layout reversed (slow: the popular commands last); the rollout in the
        // manifest's order (fast), for 40% of people.
        let served: JSONValue = try JSONParser.parse(#"""
            {"app": "a", "version": "1", "menus": {"x.item": {"menu_version": "1+1",
              "groups": [["c5", "c4", "c3"], ["c2", "c1", "c0"]],
              "rollout": {"id": 1, "salt": "00ff", "share": 0.4, "groups": [["c0", "c1", "c2"], ["c3", "c4", "c5"]],
                          "menu_version": "1+2"}}}}
            """#)
        let profile = try SimulationProfile.fromManifest(manifest).showing(served)
        let rollout = try #require(profile.elementTypes[0].rollout)
        #expect(rollout.share == 0.4 && rollout.menuVersion == "1+2" && rollout.items.map(\.position) == [0, 1, 2, 3, 4, 5])
        #expect(profile.elementTypes[0].items.map(\.position) == [5, 4, 3, 2, 1, 0])
        var configuration = SimulationConfiguration()
        configuration.events = 20_000
        configuration.users = 400
        configuration.now = UTCTimestamp(microsecondsSince1970: 1_800_000_000_000_000)
        let generator = SimulationGenerator(profile: profile, configuration: configuration)
        var latency: [Bool: [Int]] = [:]
        var people: [Bool: Set<Int>] = [:]
        for index in 0..<generator.batchCount {
            for event in generator.batch(index).events {
                #expect(event.inRollout == RolloutArm.showsRollout(salt: "00ff", user: generator.userName(event.user), share: 0.4))
                #expect(profile.menuVersion(of: event) == (event.inRollout ? "1+2" : "1+1"))
                people[event.inRollout, default: []].insert(event.user)
                if let item = event.item {
                    #expect(profile.items(of: event)[item].position == (event.inRollout ? item : 5 - item))
                    latency[event.inRollout, default: []].append(event.latencyMs)
                }
            }
        }
        let share = Double(people[true]?.count ?? 0) / Double((people[true]?.count ?? 0) + (people[false]?.count ?? 0))
        #expect(abs(share - 0.4) < 0.1, "\(share)")
        func median(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
        #expect(median(latency[true] ?? [0]) < median(latency[false] ?? [0]) * 8 / 10)
    }
}
