import Foundation
import Postgres
import Storage
import TestSupport

/// Schema and data set-up shared by the rollup, layout and proposal suites.
enum LayoutFixtures {
    /// Applies the migrations of `sql/` to the schema the connection is in.
    static func migrate(_ connection: PostgresConnection) throws {
        _ = try Migrator(directory: try RepositoryPaths.root().appendingPathComponent("sql"))
            .migrate(on: connection, distribute: TestDatabase.distributed)
    }

    /// Creates an app and returns its id.
    static func createApp(_ name: String, on connection: PostgresConnection) throws -> Int32 {
        try connection.query("""
            INSERT INTO apps (name, hash_secret) VALUES (\(name), \([UInt8](repeating: 7, count: 16)))
            RETURNING app_id
            """)[0].decode(at: 0)
    }

    /// The ids of the mail app most rollup suites use: the app, two element types and two commands.
    struct Mail {
        var app: Int32
        var message: Int32
        var mailbox: Int32
        var reply: Int32
        var forward: Int32
    }

    /// Migrates the connection's schema and creates the app `mail` with `Mail`'s ids.
    static func mail(on connection: PostgresConnection) throws -> Mail {
        try migrate(connection)
        let app = try createApp("mail", on: connection)
        return Mail(app: app,
                    message: try id("mail.message", in: "element_types", app: app, on: connection),
                    mailbox: try id("mail.mailbox", in: "element_types", app: app, on: connection),
                    reply: try id("reply", in: "commands", app: app, on: connection),
                    forward: try id("forward", in: "commands", app: app, on: connection))
    }

    /// The dictionary id of an element type or command, made when missing.
    static func id(_ name: String, in table: String, app: Int32, on connection: PostgresConnection) throws -> Int32 {
        let column = table == "commands" ? "command_id" : "element_type_id"
        if let row = try connection.query("""
            SELECT \(identifier: column) FROM \(identifier: table) WHERE app_id = \(app) AND name = \(name)
            """).first
        {
            return try row.decode(at: 0)
        }
        return try connection.query("""
            INSERT INTO \(identifier: table) (app_id, name) VALUES (\(app), \(name)) RETURNING \(identifier: column)
            """)[0].decode(at: 0)
    }

    /// The id of the context with these fields (the others empty), made when missing.
    static func context(app: Int32, isTest: Bool = false, platform: String = "", appVersion: String = "",
                        menuVersion: String = "", on connection: PostgresConnection) throws -> Int32
    {
        try connection.query("""
            WITH made AS (
                INSERT INTO contexts (app_id, app_version, platform, is_test, menu_version)
                VALUES (\(app), \(appVersion), \(platform), \(isTest), \(menuVersion))
                ON CONFLICT (app_id, app_version, platform, locale, is_test, menu_version, trigger) DO NOTHING
                RETURNING context_id
            )
            SELECT context_id FROM made
            UNION ALL
            SELECT context_id FROM contexts
            WHERE app_id = \(app) AND app_version = \(appVersion) AND platform = \(platform) AND is_test = \(isTest)
              AND menu_version = \(menuVersion) AND locale = '' AND trigger = ''
            """)[0].decode(at: 0)
    }

    /// Inserts `count` events of one element type and command (nil: dismissals) on `day`, users
    /// drawn from `users` (the first `withoutUser` events have none), and queues the day, in one
    /// transaction (what the event writer does).
    /// `context`: the events' context id (none when nil).
    static func insertEvents(app: Int32, day: String, elementType: Int32, command: Int32?, count: Int,
                             users: ClosedRange<Int>, withoutUser: Int = 0, context: Int32? = nil,
                             on connection: PostgresConnection) throws
    {
        try TestDatabase.ensureEventPartitions(through: day, on: connection)
        try connection.withTransaction { connection in
            try connection.execute("""
                INSERT INTO events (app_id, day, time, user_hash, event_id, element_type_id, command_id, context_id)
                SELECT \(app), \(day)::date, \(day)::date + interval '12 hours', CASE WHEN g > \(withoutUser) THEN \(users.lowerBound) + g % \(users.count) END,
                       gen_random_uuid(), \(elementType), NULLIF(\(command ?? 0), 0), \(context)
                FROM generate_series(1, \(count)) g
                """)
            try connection.execute("INSERT INTO rollup_queue (app_id, day) VALUES (\(app), \(day)::date)")
        }
    }
}
