import Foundation
public import Postgres
import Locking

/// Element type, command and context ids, resolved through an in-process cache.
///
/// Known names are answered from memory under one short lock per batch. Unknown names of an app
/// are first looked for in its whole dictionary (loaded once per app), then inserted with
/// `ON CONFLICT DO NOTHING` and read back, so two daemons adding the same name at once agree on
/// its id. Inserts are serialised in this process, so the per-app caps hold exactly here; several
/// daemons adding new names at the same moment can each add up to the cap's remainder.
public final class Dictionaries: Sendable {
    public let limits: DictionaryLimits
    private let pool: PostgresPool
    private let cache = Locked<[Int32: AppDictionary]>([:])
    /// Held while new names are inserted (rare), so caps are checked against a settled count.
    private let insertLock = Locked<Void>(())

    struct AppDictionary: Sendable {
        var elementTypes: [String: Int32] = [:]
        var commands: [String: Int32] = [:]
        var contexts: [ContextKey: Int32] = [:]
    }

    public init(pool: PostgresPool, limits: DictionaryLimits = DictionaryLimits()) {
        self.pool = pool
        self.limits = limits
    }

    /// Ids for the given names of one app, adding the new ones that fit under the caps.
    public func resolve(appID: Int32, elementTypes: Set<String>, commands: Set<String>,
                        contexts: Set<ContextKey>) throws(StorageError) -> DictionaryResolution
    {
        if let hit = cachedResolution(appID: appID, elementTypes: elementTypes, commands: commands, contexts: contexts) {
            return hit
        }
        return try StorageError.mapping {
            do {
                return try insertNew(appID: appID, elementTypes: elementTypes, commands: commands, contexts: contexts)
            } catch let error as PostgresError where error.sqlState == .foreignKeyViolation {
                // The dictionaries reference `apps`: the app was deleted since its key was looked up.
                cache.withLock { $0[appID] = nil }
                throw StorageError(.notFound, "the app was deleted", underlying: error)
            }
        }
    }

    /// The slow path of `resolve`: loads the app's dictionary when needed and inserts what is new.
    private func insertNew(appID: Int32, elementTypes: Set<String>, commands: Set<String>,
                           contexts: Set<ContextKey>) throws -> DictionaryResolution {
        try insertLock.withLock { _ in
            try pool.withConnection { connection in
                if cache.withLock({ $0[appID] }) == nil {
                    let loaded = try Self.load(appID: appID, on: connection)
                    cache.withLock { $0[appID] = loaded }
                }
                var known = cache.withLock { $0[appID]! }
                let newTypes = elementTypes.filter { known.elementTypes[$0] == nil }.sorted()
                    .prefix(max(0, limits.maxElementTypes - known.elementTypes.count))
                let newCommands = commands.filter { known.commands[$0] == nil }.sorted()
                    .prefix(max(0, limits.maxCommands - known.commands.count))
                let newContexts = contexts.filter { known.contexts[$0] == nil }
                    .sorted { Self.order($0).lexicographicallyPrecedes(Self.order($1)) }
                    .prefix(max(0, limits.maxContexts - known.contexts.count))
                if !newTypes.isEmpty {
                    for (name, id) in try Self.insertNames(Array(newTypes), appID: appID, table: "element_types",
                                                           idColumn: "element_type_id", on: connection)
                    { known.elementTypes[name] = id }
                }
                if !newCommands.isEmpty {
                    for (name, id) in try Self.insertNames(Array(newCommands), appID: appID, table: "commands",
                                                           idColumn: "command_id", on: connection)
                    { known.commands[name] = id }
                }
                if !newContexts.isEmpty {
                    for (key, id) in try Self.insertContexts(Array(newContexts), appID: appID, on: connection) {
                        known.contexts[key] = id
                    }
                }
                cache.withLock { $0[appID] = known }
                return Self.pick(known, elementTypes: elementTypes, commands: commands, contexts: contexts)
            }
        }
    }

    /// Forgets the cached names of every app (tests; after dictionaries were edited by hand).
    public func reset() {
        cache.withLock { $0.removeAll() }
    }

    /// The resolution from the cache alone, or nil when a name is unknown (or the app not loaded).
    private func cachedResolution(appID: Int32, elementTypes: Set<String>, commands: Set<String>,
                                  contexts: Set<ContextKey>) -> DictionaryResolution?
    {
        cache.withLock { cache -> DictionaryResolution? in
            guard let known = cache[appID] else { return nil }
            var out = DictionaryResolution()
            out.elementTypes.reserveCapacity(elementTypes.count)
            for name in elementTypes {
                guard let id = known.elementTypes[name] else { return nil }
                out.elementTypes[name] = id
            }
            for name in commands {
                guard let id = known.commands[name] else { return nil }
                out.commands[name] = id
            }
            for key in contexts {
                guard let id = known.contexts[key] else { return nil }
                out.contexts[key] = id
            }
            return out
        }
    }

    private static func pick(_ known: AppDictionary, elementTypes: Set<String>, commands: Set<String>,
                             contexts: Set<ContextKey>) -> DictionaryResolution
    {
        var out = DictionaryResolution()
        for name in elementTypes { if let id = known.elementTypes[name] { out.elementTypes[name] = id } }
        for name in commands { if let id = known.commands[name] { out.commands[name] = id } }
        for key in contexts { if let id = known.contexts[key] { out.contexts[key] = id } }
        return out
    }

    private static func order(_ key: ContextKey) -> [String] {
        [key.appVersion, key.platform, key.locale, key.isTest ? "1" : "0", key.menuVersion, key.trigger]
    }

    private static func load(appID: Int32, on connection: PostgresConnection) throws -> AppDictionary {
        var dictionary = AppDictionary()
        for row in try connection.query("SELECT name, element_type_id FROM element_types WHERE app_id = \(appID)") {
            dictionary.elementTypes[try row.decode(column: "name")] = try row.decode(column: "element_type_id")
        }
        for row in try connection.query("SELECT name, command_id FROM commands WHERE app_id = \(appID)") {
            dictionary.commands[try row.decode(column: "name")] = try row.decode(column: "command_id")
        }
        for row in try connection.query("""
            SELECT app_version, platform, locale, is_test, menu_version, trigger, context_id
            FROM contexts WHERE app_id = \(appID)
            """)
        {
            dictionary.contexts[try contextKey(row)] = try row.decode(column: "context_id")
        }
        return dictionary
    }

    private static func contextKey(_ row: PostgresRow) throws -> ContextKey {
        ContextKey(appVersion: try row.decode(column: "app_version"), platform: try row.decode(column: "platform"),
                   locale: try row.decode(column: "locale"), isTest: try row.decode(column: "is_test"),
                   menuVersion: try row.decode(column: "menu_version"), trigger: try row.decode(column: "trigger"))
    }

    private static func insertNames(_ names: [String], appID: Int32, table: String, idColumn: String,
                                    on connection: PostgresConnection) throws -> [(String, Int32)]
    {
        try connection.execute("""
            INSERT INTO \(identifier: table) (app_id, name)
            SELECT \(appID), n FROM unnest(\(names)::text[]) AS t(n)
            ON CONFLICT (app_id, name) DO NOTHING
            """)
        return try connection.query("""
            SELECT name, \(identifier: idColumn) AS id FROM \(identifier: table)
            WHERE app_id = \(appID) AND name = ANY(\(names)::text[])
            """).map { (try $0.decode(String.self, column: "name"), try $0.decode(Int32.self, column: "id")) }
    }

    private static func insertContexts(_ keys: [ContextKey], appID: Int32,
                                       on connection: PostgresConnection) throws -> [(ContextKey, Int32)]
    {
        let appVersions = keys.map(\.appVersion)
        let platforms = keys.map(\.platform)
        let locales = keys.map(\.locale)
        let tests = keys.map { Int16($0.isTest ? 1 : 0) }
        let menuVersions = keys.map(\.menuVersion)
        let triggers = keys.map(\.trigger)
        let input: PostgresQuery = """
            SELECT \(appID) AS app_id, a, p, l, t <> 0 AS is_test, m, g
            FROM unnest(\(appVersions)::text[], \(platforms)::text[], \(locales)::text[], \(tests)::int2[],
                        \(menuVersions)::text[], \(triggers)::text[]) AS u(a, p, l, t, m, g)
            """
        try connection.execute("""
            INSERT INTO contexts (app_id, app_version, platform, locale, is_test, menu_version, trigger)
            \(input)
            ON CONFLICT (app_id, app_version, platform, locale, is_test, menu_version, trigger) DO NOTHING
            """)
        return try connection.query("""
            SELECT c.app_version, c.platform, c.locale, c.is_test, c.menu_version, c.trigger, c.context_id
            FROM contexts c JOIN (\(input)) i
              ON c.app_id = i.app_id AND c.app_version = i.a AND c.platform = i.p AND c.locale = i.l
             AND c.is_test = i.is_test AND c.menu_version = i.m AND c.trigger = i.g
            """).map { (try contextKey($0), try $0.decode(Int32.self, column: "context_id")) }

    }
}
