import ArgumentParsing
import Foundation
import Locking
import Postgres
import Storage

/// Database access for the pipeline commands (rollup, rank, recommend, proposals, menus, lint,
/// report): one connection of their own, opened from `--database` / `DATABASE_URL` / libpq's `PG*`
/// variables, used on a thread of its own because libpq blocks.
///
/// The nightly path's concurrency, in full: the command's async body hands the whole database
/// part to one thread of its own (`BlockingThread.run`) and suspends until it is done; nothing of
/// it runs on Swift's cooperative pool. On that thread, work that can run at once forks onto more
/// threads of our own and joins before going on (`ForkJoin`): the window's totals on a second
/// connection (`PostgresConnection.splitRead`, `runSharing`) while a third thread decodes the
/// stored menus (`PostgresNightlyStore`), and the per-element-type work on all cores
/// (`ParallelMap`, pure computation).
enum PipelineDatabase {
    /// Runs `body` with a fresh connection on a dedicated thread, off Swift's cooperative pool.
    /// Storage and database errors become failures (exit 1) with their message; `--verbose`
    /// adds the underlying error in full.
    static func run<T: Sendable>(_ values: ParsedValues,
                                 _ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T
    {
        let conninfo = try Menurank.connectionString(values)
        return try await BlockingThread.run {
            try serve(body(connect(conninfo)))
        }
    }

    /// `run` with a second connection for reads that can share out their work (the ranking of
    /// all element types); when it cannot be opened the work runs on the first one alone. The two
    /// connect at once, the second on a thread of its own: each connection's start-up (the socket,
    /// authentication, the backend's start, the session settings) is a few round trips of waiting,
    /// about 12 ms of a night's wall time when they came one after the other.
    static func runSharing<T: Sendable>(
        _ values: ParsedValues, _ body: @escaping @Sendable (PostgresConnection, PostgresConnection?) throws -> T
    ) async throws -> T {
        let conninfo = try Menurank.connectionString(values)
        return try await BlockingThread.run {
            let (connection, helper) = try ForkJoin.both({ try connect(conninfo) }, meanwhile: {
                try? PostgresConnection(conninfo, parameters: ["application_name": "menurank"])
            })
            return try serve(body(connection, helper))
        }
    }

    /// The command's connection; a failure to connect becomes the command's failure.
    private static func connect(_ conninfo: String) throws -> PostgresConnection {
        do {
            return try PostgresConnection(conninfo, parameters: ["application_name": "menurank"])
        } catch let error as PostgresError {
            throw CLIError.failure("cannot connect to PostgreSQL: \(error.message)", causedBy: error)
        }
    }

    /// `body`'s value; storage and database errors become failures with their message.
    private static func serve<T>(_ body: @autoclosure () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StorageError {
            throw CLIError.failure(error.message, causedBy: error)
        } catch let error as PostgresError {
            throw CLIError.failure(StorageError(error).message, causedBy: error)
        }
    }

    /// The id of the app called `name`.
    /// - Throws: `CLIError.failure` when there is none.
    static func appID(named name: String, on connection: PostgresConnection) throws -> Int32 {
        guard let id = try AppStore.appID(named: name, on: connection) else {
            throw CLIError.failure("no app named \(name) (create it with: menurank apps create \(name))")
        }
        return id
    }
}
