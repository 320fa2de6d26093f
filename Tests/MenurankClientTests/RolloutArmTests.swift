import Foundation
@testable import MenurankClient
import TestSupport
import Testing

/// The arm of a rollout, picked on the device: the hash of the contract (docs/rollouts.md), the
/// arm a served document gives each person, and the whole path through the daemon.
@Suite("MenurankClient: rollout arms")
struct RolloutArmTests {
    @Test func sha256MatchesTheStandardsVectors() {
        func hex(_ text: String) -> String {
            SHA256Digest.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
        }
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // Lengths around the padding boundary (55, 56, 64 bytes) and several blocks.
        #expect(hex(String(repeating: "a", count: 55)) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(hex(String(repeating: "a", count: 56)) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func theArmFollowsTheContractsThreshold() {
        // v: the first 8 bytes of SHA-256("s1" || 0x00 || "u1"), big-endian.
        let digest = SHA256Digest.hash(Array("s1".utf8) + [0] + Array("u1".utf8))
        let v = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(RolloutArm.value(salt: "s1", user: "u1") == v)
        let position = Double(v) / 18_446_744_073_709_551_616
        #expect(RolloutArm.showsRollout(salt: "s1", user: "u1", share: min(position + 1e-9, 0.999_999)))
        #expect(!RolloutArm.showsRollout(salt: "s1", user: "u1", share: max(position - 1e-9, 1e-9)))
        // Across 20,000 people: the share is met, widening keeps everyone in, a new salt mixes anew.
        let users = (0..<20_000).map { "person-\($0)" }
        let at20 = Set(users.filter { RolloutArm.showsRollout(salt: "a1b2", user: $0, share: 0.2) })
        let at50 = Set(users.filter { RolloutArm.showsRollout(salt: "a1b2", user: $0, share: 0.5) })
        #expect(abs(Double(at20.count) / 20_000 - 0.2) < 0.01)
        #expect(abs(Double(at50.count) / 20_000 - 0.5) < 0.015)
        #expect(at20.isSubset(of: at50))
        let other = Set(users.filter { RolloutArm.showsRollout(salt: "c3d4", user: $0, share: 0.2) })
        #expect(abs(Double(other.intersection(at20).count) / 20_000 - 0.04) < 0.006)
    }

    static let document = """
        {"app": "mail", "version": "7", "commands": {"a": {"title": "A"}, "b": {"title": "B"}},
         "menus": {"m.x": {"menu_version": "7", "groups": [["a", "b"]],
                           "rollout": {"id": 3, "salt": "5eed", "share": 0.5, "groups": [["b", "a"]], "menu_version": "7+2"}},
                   "m.y": {"menu_version": "7", "groups": [["a"]], "rollout": {"id": "broken"}}}}
        """

    @Test func parsingPicksThePersonsArm() throws {
        let body = Array(Self.document.utf8)
        let users = (0..<200).map { "u\($0)" }
        var inRollout = 0
        for user in users {
            let layout = try #require(try MenurankClient.parse(body, fromCache: false, user: user).menus["m.x"])
            let shown = RolloutArm.showsRollout(salt: "5eed", user: user, share: 0.5)
            #expect(layout.isRolloutArm == shown && layout.rollout?.id == 3)
            #expect(layout.menuVersion == (shown ? "7+2" : "7"))
            guard case .command(let first) = layout.groups[0][0] else { Issue.record("no command"); return }
            #expect(first.id == (shown ? "b" : "a"))
            if shown { inRollout += 1 }
        }
        #expect((60...140).contains(inRollout))
        // Without a person, and for a rollout member that does not read: the current layout.
        let anonymous = try MenurankClient.parse(body, fromCache: false, user: nil)
        #expect(anonymous.menus["m.x"]?.menuVersion == "7" && anonymous.menus["m.x"]?.isRolloutArm == false)
        #expect(anonymous.menus["m.y"]?.rollout == nil && anonymous.menus["m.y"]?.menuVersion == "7")
    }
}
