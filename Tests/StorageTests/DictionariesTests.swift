import Events
import Foundation
import Hashing
import Postgres
import Storage
import TestSupport
import Testing

@Suite(TestDatabase.enabled) struct DictionariesTests {
    @Test func resolvesNamesOnceAndAnswersFromTheCache() throws {
        try StorageFixture.with(prefix: "dict") { fixture in
            let app = try AppStore(pool: fixture.pool).create(name: "mail").app
            let dictionaries = Dictionaries(pool: fixture.pool)
            let context = ContextKey(appVersion: "5.2.1", platform: "iOS 18.1", locale: "ru_RU", isTest: false,
                                     menuVersion: "2026.11.1", trigger: "long_press")
            let first = try dictionaries.resolve(appID: app.appID, elementTypes: ["mail.message", "mail.folder"],
                                                 commands: ["reply", "forward", "$Copy"], contexts: [context, ContextKey()])
            #expect(first.elementTypes.count == 2 && first.commands.count == 3 && first.contexts.count == 2)
            // Another process (a fresh cache) sees the same ids.
            let other = Dictionaries(pool: fixture.pool)
            let second = try other.resolve(appID: app.appID, elementTypes: ["mail.message"], commands: ["reply", "archive"],
                                           contexts: [context])
            #expect(second.elementTypes["mail.message"] == first.elementTypes["mail.message"])
            #expect(second.commands["reply"] == first.commands["reply"])
            #expect(second.contexts[context] == first.contexts[context])
            #expect(try fixture.count("SELECT count(*) FROM commands") == 4)
            #expect(try fixture.count("SELECT count(*) FROM contexts") == 2)
            // Known names come from memory: with the rows deleted behind its back, it still answers.
            try fixture.connect().execute(unsafeSQL: "DELETE FROM commands")
            let cached = try dictionaries.resolve(appID: app.appID, elementTypes: [], commands: ["reply"], contexts: [])
            #expect(cached.commands["reply"] == first.commands["reply"])
        }
    }

    @Test func capsRefuseNewNamesOnceAnAppHasTooMany() throws {
        try StorageFixture.with(prefix: "dict") { fixture in
            let store = AppStore(pool: fixture.pool)
            let app = try store.create(name: "a").app
            let otherApp = try store.create(name: "b").app
            let limits = DictionaryLimits(maxElementTypes: 2, maxCommands: 3, maxContexts: 1)
            let dictionaries = Dictionaries(pool: fixture.pool, limits: limits)
            let resolved = try dictionaries.resolve(appID: app.appID, elementTypes: ["t1", "t2", "t3"],
                                                    commands: ["c1", "c2", "c3", "c4"],
                                                    contexts: [ContextKey(), ContextKey(locale: "de")])
            #expect(resolved.elementTypes.keys.sorted() == ["t1", "t2"])
            #expect(resolved.commands.keys.sorted() == ["c1", "c2", "c3"])
            #expect(resolved.contexts.count == 1)
            // Known names still resolve; a fresh cache counts what is stored.
            let fresh = Dictionaries(pool: fixture.pool, limits: limits)
            let again = try fresh.resolve(appID: app.appID, elementTypes: ["t1", "t3"], commands: ["c4"], contexts: [])
            #expect(again.elementTypes.keys.sorted() == ["t1"])
            #expect(again.commands.isEmpty)
            // Caps are per app.
            let other = try fresh.resolve(appID: otherApp.appID, elementTypes: ["t3"], commands: ["c4"], contexts: [])
            #expect(other.elementTypes.count == 1 && other.commands.count == 1)
            #expect(try fixture.count("SELECT count(*) FROM element_types") == 3)
        }
    }

    @Test func preparerHashesUsersAndRejectsEventsOverTheCaps() throws {
        try StorageFixture.with(prefix: "dict") { fixture in
            let app = try AppStore(pool: fixture.pool).create(name: "mail").app
            let dictionaries = Dictionaries(pool: fixture.pool, limits: DictionaryLimits(maxElementTypes: 1, maxCommands: 1))
            let preparer = EventPreparer(dictionaries: dictionaries)
            let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
            func event(_ index: Int, _ type: String, _ command: String?) -> IncomingEvent {
                IncomingEvent(index: index, id: EventID(high: UInt64(index + 1), low: 9), time: now, elementType: type,
                              command: command, kind: command == nil ? .dismiss : .select, position: 2,
                              latencyMs: 900, user: "user-1", session: "s-1", locale: "ru_RU")
            }
            // The first event takes the only element type and command the caps allow.
            let first = try preparer.prepare([event(0, "mail.message", "reply")], appID: app.appID, hashSecret: app.hashSecret)
            #expect(first.rows.count == 1 && first.rejections.isEmpty)
            let prepared = try preparer.prepare(
                [event(0, "mail.message", "reply"), event(1, "mail.folder", "reply"), event(2, "mail.message", "forward"),
                 event(3, "mail.message", nil)],
                appID: app.appID, hashSecret: app.hashSecret)
            try #require(prepared.rows.count == 2)
            #expect(prepared.rejections.map(\.index) == [1, 2])
            #expect(prepared.rejections.map(\.code.rawValue) == ["too_many_element_types", "too_many_commands"])
            let row = prepared.rows[0]
            let expected = Pseudonymizer(secret: app.hashSecret)!.pseudonym("user-1")
            #expect(row.userHash == expected)
            #expect(row.userHash != Pseudonymizer(secret: [UInt8](repeating: 0, count: 16))!.pseudonym("user-1"))
            #expect(row.sessionHash == Int32(truncatingIfNeeded: Pseudonymizer(secret: app.hashSecret)!.pseudonym("s-1")))
            #expect(row.position == 2 && row.latencyMs == 900 && row.day == Int32(now / 86_400_000_000))
            #expect(prepared.rows[1].commandID == nil)
        }
    }
}
