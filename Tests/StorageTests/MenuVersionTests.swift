import Foundation
import Menus
import Postgres
import Storage
import Testing
import TestSupport

/// Every layout that becomes current gets its own menu_version, which export writes and a
/// re-import of the export keeps.
@Suite(TestDatabase.enabled) struct MenuVersionTests {
    @Test func importAndAcceptGiveEachLayoutItsOwnVersion() throws {
        try ProposalStoreTests.withImported { conn, app in
            let layouts = LayoutStore()
            #expect(try layouts.currentLayout(appID: app, elementType: "mail.message", on: conn)?.menuVersion == "1")
            let proposals = ProposalStore()
            let id = try proposals.file([ProposalStoreTests.draft([["forward", "reply"], ["archive", "delete"]], base: 1)],
                                        appID: app, on: conn)[0].proposalID!
            let accepted = try proposals.accept(id: id, note: nil, on: conn)
            #expect(accepted.menuVersion == "1+2")
            #expect(try layouts.history(appID: app, elementType: "mail.message", on: conn).map(\.menuVersion)
                == ["1", "1+2"])

            // Export writes it; importing the export changes nothing.
            let current = try #require(try ManifestStore().current(appID: app, on: conn))
            let exported = ManifestExporter().export(current.manifest.document.manifest)
            #expect(exported.contains(#""menu_version": "1+2""#))
            let again = try ManifestStore().importManifest(try ManifestParser.load(exported), text: exported,
                                                           appID: app, on: conn)
            #expect(again.entries.map(\.change) == [.unchanged, .unchanged])
            #expect(again.entries.first { $0.elementType == "mail.message" }?.menuVersion == "1+2")

            // The original manifest again (same version string, the old layout): a new layout, whose
            // version cannot be "1" a second time.
            let back = try ManifestStore().importManifest(try ManifestParser.load(ProposalStoreTests.manifestText),
                                                          text: ProposalStoreTests.manifestText, appID: app, on: conn)
            let message = try #require(back.entries.first { $0.elementType == "mail.message" })
            #expect(message.change == .changed && message.version == 3 && message.menuVersion == "1+3")
        }
    }
}
