import Foundation
import Postgres
import Storage
import TestSupport
import Testing

/// A pending proposal for app "alpha" of a `Daemon`, made the way a team makes one: the manifest
/// imported with the real binary, DESIGN.md's 28 days of use, and the real `menurank recommend`.
enum ReviewFixture {
    static let manifest = DesignExample.manifest(app: "alpha")

    /// DESIGN.md's example: 28-day selections per command.
    static let counts = DesignExample.selections

    /// Two days ago (UTC): the end of the window, inside the daemon's retention whatever the date.
    static var asOf: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date().addingTimeInterval(-2 * 86_400))
    }

    /// Runs the binary against the daemon's schema.
    static func menurank(_ daemon: Daemon, _ arguments: [String], environment: [String: String] = [:]) throws
        -> ChildProcess.Outcome
    {
        var all = environment
        all["DATABASE_URL"] = daemon.schema.connectionString
        all["NO_COLOR"] = "1"
        return try ChildProcess.menurank(arguments, environment: all)
    }

    /// Imports the manifest, stores the events and runs `recommend`; returns the filed proposal's id.
    static func pendingProposal(_ daemon: Daemon, recommendArguments: [String] = []) throws -> Int64 {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("alpha-\(UUID().uuidString).json")
        try manifest.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let imported = try menurank(daemon, ["menus", "import", file.path])
        try #require(imported.status == 0, "menus import: \(imported.standardError)")
        try insertEvents(app: daemon.alpha.app.appID, on: daemon.schema.connect())
        let run = try menurank(daemon, ["recommend", "--app", "alpha", "--as-of", asOf, "--format", "json"]
            + recommendArguments)
        try #require(run.status == 0, "recommend: \(run.standardError)")
        let row = try #require(try daemon.schema.connect().query(
            "SELECT proposal_id FROM proposals WHERE status = 'pending'").first, "no pending proposal: \(run.standardOutput)")
        return try row.decode(at: 0)
    }

    static func insertEvents(app: Int32, on connection: PostgresConnection) throws {
        let day = asOf
        try TestDatabase.ensureEventPartitions(through: day, days: 28, on: connection)
        try connection.withTransaction { connection in
            try connection.execute("""
                INSERT INTO element_types (app_id, name) VALUES (\(app), 'mail.message') ON CONFLICT DO NOTHING
                """)
            for (command, count) in counts {
                try connection.execute("INSERT INTO commands (app_id, name) VALUES (\(app), \(command)) ON CONFLICT DO NOTHING")
                try connection.execute("""
                    INSERT INTO events (app_id, day, time, user_hash, event_id, element_type_id, command_id)
                    SELECT \(app), \(day)::date - (g % 28)::int4, \(day)::date - (g % 28)::int4 + interval '9 hours',
                           g % 800, gen_random_uuid(), e.element_type_id, c.command_id
                    FROM generate_series(1, \(count)) g, element_types e, commands c
                    WHERE e.app_id = \(app) AND e.name = 'mail.message' AND c.app_id = \(app) AND c.name = \(command)
                    """)
            }
            try connection.execute("""
                INSERT INTO rollup_queue (app_id, day) SELECT \(app), \(day)::date - d FROM generate_series(0, 27) d(d)
                """)
        }
    }
}
