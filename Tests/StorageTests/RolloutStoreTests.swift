import Foundation
import Menus
import Postgres
import Storage
import Testing
import TestSupport

/// Rollouts in PostgreSQL: start from a pending proposal, what GET /v1/menus serves, widening,
/// promote, stop, and who decided what.
@Suite(TestDatabase.enabled) struct RolloutStoreTests {
    /// A filed proposal for mail.message made from its current layout (version 1).
    static func filed(_ conn: PostgresConnection, app: Int32) throws -> Int64 {
        let filing = try ProposalStore().file([ProposalStoreTests.draft([["forward", "reply"], ["archive"], ["delete"]],
                                                                        base: 1)], appID: app, on: conn)
        guard case .filed(let id, _) = filing[0] else { throw StorageError(.database, "not filed: \(filing)") }
        return id
    }

    @Test func startServesBothArmsAndRecordsTheDecision() throws {
        try ProposalStoreTests.withImported { schema, conn, app in
            let id = try Self.filed(conn, app: app)
            let store = RolloutStore()
            let rollout = try store.start(proposalID: id, share: 0.2, note: "try it", by: "ana", on: conn)
            #expect(rollout.status == .running && rollout.share == 0.2 && rollout.baseLayoutVersion == 1)
            #expect(rollout.baseMenuVersion == "1" && rollout.menuVersion == "1+2")
            #expect(rollout.salt.count == 32 && rollout.salt.allSatisfy(\.isHexDigit))
            #expect(rollout.layout == ProposalStoreTests.layout([["forward", "reply"], ["archive"], ["delete"]]))
            // The proposal is accepted, the current layout unchanged.
            let proposal = try #require(try ProposalStore().proposal(id: id, on: conn))
            #expect(proposal.status == .accepted && proposal.decidedBy == "ana")
            #expect(proposal.note == "rollout \(rollout.id) to 20% of people: try it")
            #expect(try LayoutStore().currentLayout(appID: app, elementType: "mail.message", on: conn)?.version == 1)
            // Served: the current layout with the rollout beside it; a second start is refused.
            let pool = schema.makePool(maxConnections: 1)
            defer { pool.close() }
            let served = try MenuReader(pool: pool).currentMenus(appID: app)
            let message = try #require(served.menus.first { $0.elementType == "mail.message" })
            #expect(message.menuVersion == "1" && message.rollout?.id == rollout.id)
            #expect(message.rollout?.menuVersion == "1+2" && message.rollout?.share == 0.2 && message.rollout?.salt == rollout.salt)
            #expect(served.menus.first { $0.elementType == "mail.mailbox" }?.rollout == nil)
            #expect(throws: StorageError.self) { try store.start(proposalID: id, share: 0.2, note: nil, by: nil, on: conn) }
            // Another proposal of the element type cannot start a second one.
            let other = try ProposalStore().file([ProposalStoreTests.draft([["archive", "reply", "forward"], ["delete"]], base: 1)],
                                                 appID: app, on: conn)
            guard case .filed(let otherID, _) = other[0] else { Issue.record("not filed"); return }
            let refused = #expect(throws: StorageError.self) {
                try store.start(proposalID: otherID, share: 0.5, note: nil, by: nil, on: conn)
            }
            #expect(refused?.message.contains("already has rollout \(rollout.id) running") == true)
        }
    }

    @Test func sharesOnlyWidenAndPromoteKeepsTheMenuVersion() throws {
        try ProposalStoreTests.withImported { conn, app in
            let store = RolloutStore()
            let rollout = try store.start(proposalID: try Self.filed(conn, app: app), share: 0.1, note: nil, by: "ana", on: conn)
            for share in [0.1, 0.05, 0, 1, .nan] {
                #expect(throws: StorageError.self) { try store.setShare(id: rollout.id, share: share, note: nil, by: nil, on: conn) }
            }
            let wider = try store.setShare(id: rollout.id, share: 0.5, note: "looks fine", by: "bo", on: conn)
            #expect(wider.share == 0.5 && wider.shareSince >= rollout.shareSince)
            let (promoted, version) = try store.promote(id: rollout.id, note: "better", by: "cy", on: conn)
            #expect(promoted.status == .promoted && promoted.endedAt != nil && version == 2)
            let current = try #require(try LayoutStore().currentLayout(appID: app, elementType: "mail.message", on: conn))
            #expect(current.version == 2 && current.menuVersion == "1+2" && current.source == .proposal)
            #expect(current.proposalID == rollout.proposalID && current.preview && current.layout == rollout.layout)
            #expect(try store.decisions(id: rollout.id, on: conn).map(\.action) == [.start, .share, .promote])
            #expect(try store.decisions(id: rollout.id, on: conn).map(\.decidedBy) == ["ana", "bo", "cy"])
            // Ended: nothing more changes it, and it is no longer served.
            #expect(throws: StorageError.self) { try store.stop(id: rollout.id, note: nil, by: nil, on: conn) }
            #expect(try store.runningID(appID: app, elementType: "mail.message", on: conn) == nil)
            #expect(try store.list(appID: app, on: conn).map(\.id) == [rollout.id])
            #expect(try store.list(appID: app, status: .running, on: conn).isEmpty)
        }
    }

    @Test func stopServesTheOldLayoutAndRejectsTheProposal() throws {
        try ProposalStoreTests.withImported { conn, app in
            let store = RolloutStore()
            let id = try Self.filed(conn, app: app)
            let rollout = try store.start(proposalID: id, share: 0.3, note: nil, by: "ana", on: conn)
            let stopped = try store.stop(id: rollout.id, note: "slower", by: "bo", on: conn)
            #expect(stopped.status == .stopped)
            #expect(try LayoutStore().currentLayout(appID: app, elementType: "mail.message", on: conn)?.version == 1)
            let proposal = try #require(try ProposalStore().proposal(id: id, on: conn))
            #expect(proposal.status == .rejected && proposal.note == "rollout \(rollout.id) stopped: slower")
            #expect(try store.decisions(id: rollout.id, on: conn).last?.note == "slower")
            // A later rollout of the element type gets a menu version of its own.
            let next = try store.start(proposalID: try ProposalStore().file(
                [ProposalStoreTests.draft([["archive", "reply", "forward"], ["delete"]], base: 1)], appID: app, on: conn)
                .compactMap { if case .filed(let id, _) = $0 { id } else { nil } }[0], share: 0.3, note: nil, by: nil, on: conn)
            #expect(next.menuVersion != rollout.menuVersion && next.salt != rollout.salt)
        }
    }

    /// A plain accept of another proposal of the element type waits for the running rollout's
    /// decision: refused with the way out while it runs, served once the rollout is stopped.
    @Test func aPlainAcceptWaitsForTheRunningRollout() throws {
        try ProposalStoreTests.withImported { conn, app in
            let rollout = try RolloutStore().start(proposalID: try Self.filed(conn, app: app), share: 0.2, note: nil, by: "ana",
                                                   on: conn)
            let other = try ProposalStore().file([ProposalStoreTests.draft([["archive", "reply", "forward"], ["delete"]], base: 1)],
                                                 appID: app, on: conn)
            guard case .filed(let otherID, _) = other[0] else { Issue.record("not filed: \(other)"); return }
            let refused = #expect(throws: StorageError.self) {
                try ProposalStore().accept(id: otherID, note: nil, by: "bo", on: conn)
            }
            #expect(refused?.kind == .invalidArgument)
            #expect(refused?.message.contains("mail.message has rollout \(rollout.id) running") == true, "\(String(describing: refused))")
            #expect(refused?.message.contains("menurank rollouts promote \(rollout.id)") == true)
            #expect(refused?.message.contains("menurank rollouts stop \(rollout.id)") == true)
            // Nothing changed: the proposal is pending, the layout the same, the rollout running.
            #expect(try ProposalStore().proposal(id: otherID, on: conn)?.status == .pending)
            #expect(try LayoutStore().currentLayout(appID: app, elementType: "mail.message", on: conn)?.version == 1)
            #expect(try RolloutStore().runningID(appID: app, elementType: "mail.message", on: conn) == rollout.id)
            _ = try RolloutStore().stop(id: rollout.id, note: "no", by: "ana", on: conn)
            let accepted = try ProposalStore().accept(id: otherID, note: nil, by: "bo", on: conn)
            #expect(accepted.proposal.status == .accepted && accepted.layoutVersion == 2)
        }
    }

    @Test func aManifestImportEndsServingIt() throws {
        try ProposalStoreTests.withImported { schema, conn, app in
            let store = RolloutStore()
            let rollout = try store.start(proposalID: try Self.filed(conn, app: app), share: 0.3, note: nil, by: nil, on: conn)
            let changed = ProposalStoreTests.manifestText.replacingOccurrences(
                of: #"[["reply", "forward"], ["archive"], ["delete"]]"#, with: #"[["archive", "reply", "forward"], ["delete"]]"#)
            _ = try ManifestStore().importManifest(try ManifestParser.load(changed), text: changed, appID: app, on: conn)
            let pool = schema.makePool(maxConnections: 1)
            defer { pool.close() }
            #expect(try MenuReader(pool: pool).currentMenus(appID: app).menus.allSatisfy { $0.rollout == nil })
            let refused = #expect(throws: StorageError.self) { try store.promote(id: rollout.id, note: nil, by: nil, on: conn) }
            #expect(refused?.message.contains("no longer current") == true)
            #expect(try store.stop(id: rollout.id, note: nil, by: nil, on: conn).status == .stopped)
        }
    }
}
