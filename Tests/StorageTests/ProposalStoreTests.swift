import CivilTime
import Foundation
import Menus
import Postgres
import Storage
import Testing
import TestSupport

@Suite(TestDatabase.enabled) struct ProposalStoreTests {
    static let manifestText = """
        {"app": "mail", "version": "1",
         "commands": {"reply": {"title": "Reply"}, "forward": {"title": "Forward"}, "archive": {"title": "Archive"},
                      "delete": {"title": "Delete", "destructive": true}},
         "menus": {"mail.message": {"preview": true, "groups": [["reply", "forward"], ["archive"], ["delete"]]},
                   "mail.mailbox": {"groups": [["archive"]]}}}
        """

    static func layout(_ groups: [[String]]) -> Layout {
        Layout(groups: groups.map { $0.map { MenuItem.command($0) } })
    }

    static func draft(_ groups: [[String]], base: Int, elementType: String = "mail.message") -> ProposalDraft {
        ProposalDraft(elementType: elementType, baseLayoutVersion: base, windowFrom: CivilDate(dayNumber: 20_000),
                      windowTo: CivilDate(dayNumber: 20_027),
                      current: layout([["reply", "forward"], ["archive"], ["delete"]]), proposed: layout(groups),
                      evidence: #"{"element_type": "\#(elementType)"}"#)
    }

    /// A schema with the mail app and the manifest imported; `body` gets the connection and app id.
    static func withImported(_ body: (PostgresConnection, Int32) throws -> Void) throws {
        try withImported { _, conn, app in try body(conn, app) }
    }

    /// `withImported`, with the schema too (for a pool inside it).
    static func withImported(_ body: (TestSchema, PostgresConnection, Int32) throws -> Void) throws {
        try TestDatabase.withSchema(prefix: "proposals") { schema in
            let conn = try schema.connect()
            try LayoutFixtures.migrate(conn)
            let app = try LayoutFixtures.createApp("mail", on: conn)
            let document = try ManifestParser.load(manifestText)
            _ = try ManifestStore().importManifest(document, text: manifestText, appID: app, on: conn)
            try body(schema, conn, app)
        }
    }

    @Test func importVersionsOnlyWhatChanged() throws {
        try Self.withImported { conn, app in
            let store = ManifestStore()
            let again = try store.importManifest(try ManifestParser.load(Self.manifestText), text: Self.manifestText,
                                                 appID: app, on: conn)
            #expect(again.entries.map(\.change) == [.unchanged, .unchanged])
            let changedText = Self.manifestText
                .replacingOccurrences(of: #"[["reply", "forward"], ["archive"], ["delete"]]"#,
                                      with: #"[["forward", "reply"], ["archive", "delete"]]"#)
                .replacingOccurrences(of: #""mail.mailbox": {"groups": [["archive"]]}"#,
                                      with: #""mail.thread": {"groups": [["reply"]]}"#)
            let changed = try store.importManifest(try ManifestParser.load(changedText), text: changedText, appID: app,
                                                   on: conn)
            #expect(changed.entries.map(\.elementType) == ["mail.mailbox", "mail.message", "mail.thread"])
            #expect(changed.entries.map(\.change) == [.dropped, .changed, .added])
            #expect(changed.entries[1].previousVersion == 1 && changed.entries[1].version == 2)

            // The current menus: the newest manifest's element types with their newest layouts.
            let current = try #require(try store.current(appID: app, on: conn))
            #expect(current.layouts.keys.sorted() == ["mail.message", "mail.thread"])
            #expect(current.manifest.document.manifest.menus["mail.message"]?.layout
                == Self.layout([["forward", "reply"], ["archive", "delete"]]))
            #expect(current.layouts["mail.message"]?.preview == true)
            let history = try LayoutStore().history(appID: app, elementType: "mail.message", on: conn)
            #expect(history.map(\.version) == [1, 2])
            #expect(history.allSatisfy { $0.source == .manifest })
        }
    }

    @Test func filingIsIdempotentAndSupersedes() throws {
        try Self.withImported { conn, app in
            let store = ProposalStore()
            let first = try store.file([Self.draft([["forward", "reply"], ["archive"], ["delete"]], base: 1)],
                                       appID: app, on: conn)
            guard case let .filed(firstID, superseded) = first[0] else {
                Issue.record("expected a filed proposal, got \(first)")
                return
            }
            #expect(superseded.isEmpty)
            // The same draft again (new evidence text, same layout and base) files nothing.
            var same = Self.draft([["forward", "reply"], ["archive"], ["delete"]], base: 1)
            same.evidence = #"{"other": true}"#
            #expect(try store.file([same], appID: app, on: conn) == [.alreadyPending(id: firstID)])
            #expect(try store.list(appID: app, on: conn).count == 1)

            // Another layout supersedes the pending one; two element types file independently.
            let second = try store.file([Self.draft([["archive", "reply", "forward"], ["delete"]], base: 1),
                                         Self.draft([["archive"]], base: 1, elementType: "mail.mailbox")],
                                        appID: app, on: conn)
            guard case let .filed(secondID, replaced) = second[0], case .filed = second[1] else {
                Issue.record("expected two filed proposals, got \(second)")
                return
            }
            #expect(replaced == [firstID])
            #expect(try store.proposal(id: firstID, on: conn)?.status == .superseded)
            #expect(try store.list(appID: app, status: .pending, on: conn).map(\.elementType).sorted()
                == ["mail.mailbox", "mail.message"])

            // A rejected layout is not proposed again for the same base layout.
            let rejected = try store.reject(id: secondID, note: "no", on: conn)
            #expect(rejected.status == .rejected && rejected.note == "no" && rejected.decidedAt != nil)
            #expect(try store.file([Self.draft([["archive", "reply", "forward"], ["delete"]], base: 1)], appID: app,
                                   on: conn) == [.alreadyRejected(id: secondID)])
        }
    }

    /// The stability each step recorded is kept with the proposal (sql/0025) and found by the
    /// night's lookup; a proposal filed before that column has it read out of its evidence, the
    /// same pairs; a ladder without stabilities (or no ladder) records none.
    @Test func theLookupFindsTheRecordedStabilitiesStoredOrInTheEvidence() throws {
        try Self.withImported { conn, app in
            let store = ProposalStore()
            var message = Self.draft([["forward", "reply"], ["archive"], ["delete"]], base: 1)
            message.evidence = #"""
                {"ladder": [{"step": "promote", "stability": 0.85, "moved": 1},
                            {"step": "reorder", "stability": 1, "moved": 2},
                            {"step": "regroup", "stability": null, "offered": false}]}
                """#
            var mailbox = Self.draft([["archive"]], base: 1, elementType: "mail.mailbox")
            mailbox.evidence = #"{"ladder": [{"step": "promote"}]}"#
            _ = try store.file([message, mailbox], appID: app, on: conn)
            let stored = try conn.query("""
                SELECT element_type, ladder_stabilities FROM proposals WHERE app_id = \(app) ORDER BY element_type
                """).map { "\(try $0.decode(String.self, column: "element_type"))=\(try $0.decode(String?.self, column: "ladder_stabilities") ?? "NULL")" }
            #expect(stored == ["mail.mailbox=", "mail.message=promote=0.85,reorder=1"])

            let expected: [String: [String: Double]] = ["mail.message": ["promote": 0.85, "reorder": 1], "mail.mailbox": [:]]
            func found() throws -> [String: [String: Double]] {
                try store.lookUp([message, mailbox], appID: app, on: conn).mapValues(\.stabilities)
            }
            #expect(try found() == expected)
            // As a proposal filed before the column: the same, from the evidence.
            try conn.execute("UPDATE proposals SET ladder_stabilities = NULL WHERE app_id = \(app)")
            #expect(try found() == expected)
        }
    }

    @Test func acceptMakesTheLayoutCurrentAndRefusesStaleOrDecidedProposals() throws {
        try Self.withImported { conn, app in
            let store = ProposalStore()
            let proposed = [["forward", "reply"], ["archive", "delete"]]
            let id = try #require(try store.file([Self.draft(proposed, base: 1)], appID: app, on: conn)[0].proposalID)
            let (accepted, version, _) = try store.accept(id: id, note: "ship it", on: conn)
            #expect(accepted.status == .accepted && version == 2)
            let current = try #require(try LayoutStore().currentLayout(appID: app, elementType: "mail.message", on: conn))
            #expect(current.layout == Self.layout(proposed))
            #expect(current.source == .proposal && current.proposalID == id && current.preview == true)

            #expect(throws: StorageError.self) { try store.accept(id: id, note: nil, on: conn) }
            #expect(throws: StorageError.self) { try store.reject(id: id, note: nil, on: conn) }
            do {
                _ = try store.accept(id: 987_654, note: nil, on: conn)
                Issue.record("accepting an unknown proposal must fail")
            } catch let error as StorageError {
                #expect(error.kind == .notFound)
            }

            // A draft made from version 1 is not filed once version 2 is current (ProposalStaleBaseTests)...
            #expect(try store.file([Self.draft([["archive"], ["reply", "forward"], ["delete"]], base: 1)],
                                   appID: app, on: conn) == [.staleBase(currentLayoutVersion: 2)])
            // ...and a proposal filed from version 2 cannot be accepted once a manifest made version 3.
            let stale = try #require(try store.file([Self.draft([["archive"], ["reply", "forward"], ["delete"]], base: 2)],
                                                    appID: app, on: conn)[0].proposalID)
            let newer = Self.manifestText.replacingOccurrences(of: #"[["reply", "forward"], ["archive"], ["delete"]]"#,
                                                               with: #"[["reply"], ["forward", "archive"], ["delete"]]"#)
            _ = try ManifestStore().importManifest(try ManifestParser.load(newer), text: newer, appID: app, on: conn)
            do {
                _ = try store.accept(id: stale, note: nil, on: conn)
                Issue.record("a stale proposal must be refused")
            } catch let error as StorageError {
                #expect(error.kind == .invalidArgument)
                #expect(error.message.contains("made from layout version 2"))
                #expect(error.message.contains("current layout is version 3"))
            }
            #expect(try store.proposal(id: stale, on: conn)?.status == .pending)
        }
    }
}

/// Issue 32: filing re-checks the base layout version in its own transaction.
@Suite(TestDatabase.enabled) struct ProposalStaleBaseTests {
    @Test func aDraftOfAReplacedLayoutIsNotFiledAndSupersedesNothing() throws {
        try ProposalStoreTests.withImported { conn, app in
            let store = ProposalStore()
            // A pending proposal from layout 1, then another proposal accepted: layout 2 is current.
            let pending = try #require(try store.file([ProposalStoreTests.draft([["archive"]], base: 1, elementType: "mail.mailbox")],
                                                      appID: app, on: conn)[0].proposalID)
            let acceptedID = try #require(try store.file([ProposalStoreTests.draft([["forward", "reply"], ["archive"], ["delete"]], base: 1)],
                                                         appID: app, on: conn)[0].proposalID)
            _ = try store.accept(id: acceptedID, note: nil, on: conn)
            // A night that read layout 1 before the accept files its draft now: refused, as stale.
            let lateDraft = ProposalStoreTests.draft([["reply"], ["forward", "archive"], ["delete"]], base: 1)
            let mailbox = ProposalStoreTests.draft([["archive"]], base: 1, elementType: "mail.mailbox")
            let outcome = try store.file([lateDraft, mailbox], appID: app, on: conn)
            #expect(outcome == [.staleBase(currentLayoutVersion: 2), .alreadyPending(id: pending)])
            #expect(outcome[0].proposalID == nil)
            #expect(try store.list(appID: app, on: conn).count == 2, "nothing stored for the stale draft")
            // An element type that has no layout at all: stale with no current version.
            let gone = try store.file([ProposalStoreTests.draft([["archive"]], base: 1, elementType: "mail.gone")], appID: app, on: conn)
            #expect(gone == [.staleBase(currentLayoutVersion: nil)])
            // The same draft computed from the current layout files.
            guard case .filed(_, let superseded) = try store.file([ProposalStoreTests.draft([["reply"], ["forward"], ["archive", "delete"]], base: 2)],
                                                                  appID: app, on: conn)[0]
            else { Issue.record("a draft of the current layout was not filed"); return }
            #expect(superseded.isEmpty)
        }
    }
}
