import Menus
import Testing

@Suite struct MenuVersionTextTests {
    @Test func aFreeRequestedVersionIsKept() {
        #expect(MenuVersionText.assign(requested: "2026.11.1", base: "2026.11.1", layoutVersion: 1, taken: []) == "2026.11.1")
    }

    @Test func aTakenOrMissingVersionGetsTheLayoutVersion() {
        #expect(MenuVersionText.assign(requested: "2026.11.1", base: "2026.11.1", layoutVersion: 3,
                                       taken: ["2026.11.1"]) == "2026.11.1+3")
        #expect(MenuVersionText.assign(requested: nil, base: "", layoutVersion: 2, taken: []) == "v+2")
        #expect(MenuVersionText.assign(requested: nil, base: "7", layoutVersion: 2, taken: ["7+2"]) == "7+2.2")
    }

    @Test func longBasesAreCutToSixtyFourCharacters() {
        let base = String(repeating: "é", count: 80)
        let version = MenuVersionText.assign(requested: base, base: base, layoutVersion: 12, taken: [])
        #expect(version.unicodeScalars.count == 64 && version.hasSuffix("+12"))
        #expect(MenuVersionText.isValid(version))
        #expect(!MenuVersionText.isValid("") && !MenuVersionText.isValid("a\u{7}"))
    }

    @Test func aManifestMenuMayDeclareItsVersion() throws {
        let text = #"{"app": "a", "commands": {"x": {"title": "X"}}, "menus": {"t": {"menu_version": "5", "groups": [["x"]]}}}"#
        let manifest = try ManifestParser.load(text).manifest
        #expect(manifest.menus["t"]?.menuVersion == "5")
        #expect(ManifestExporter().export(manifest).contains(#""menu_version": "5""#))
        let bad = #"{"app": "a", "commands": {"x": {"title": "X"}}, "menus": {"t": {"menu_version": "", "groups": [["x"]]}}}"#
        #expect(throws: ManifestError.self) { try ManifestParser.load(bad) }
    }
}
