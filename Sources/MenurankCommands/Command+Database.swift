import ArgumentParsing
import Postgres

/// The database settings every command that talks to PostgreSQL shares: `--database`, else
/// `DATABASE_URL`, else libpq's own `PG*` variables.
///
/// Concurrency in the commands: a command's body is async and runs on Swift's cooperative pool,
/// which has one thread per core and must never wait on I/O. libpq blocks, so every command's
/// database work runs on a thread of its own that the body awaits (`BlockingThread`): the one-shot
/// commands through `withPool` (apps, tokens, the accept dry run) or `BlockingThread.run`
/// (migrate, import, serve's start and shutdown), the pipeline commands through
/// `PipelineDatabase.run` (one connection on its own thread, a second one for the ranking's
/// parallel read). Nothing else in a command blocks: output goes through the `Console`.
enum CommandDatabase {
    /// The conninfo to hand to libpq: nil when neither `--database` nor `DATABASE_URL` is set.
    static func conninfo(_ values: ParsedValues) throws -> String? {
        let text = try Menurank.connectionString(values)
        return text.isEmpty ? nil : text
    }

    /// libpq keywords for a command's connections.
    static func parameters(application: String) -> [String: String] {
        ["application_name": application, "connect_timeout": "10"]
    }

    /// Runs a command's database work: with a small pool of its own, on a thread of its own (libpq
    /// blocks; see `BlockingThread`), so the command's async body never blocks the cooperative pool.
    static func withPool<T: Sendable>(_ values: ParsedValues, application: String, size: Int = 2,
                                      _ body: @escaping @Sendable (PostgresPool) throws -> T) async throws -> T {
        try await BlockingThread.run {
            let pool = try pool(values, application: application, size: size)
            defer { pool.close() }
            return try body(pool)
        }
    }

    /// A small pool for a one-shot command.
    static func pool(_ values: ParsedValues, application: String, size: Int = 2) throws -> PostgresPool {
        PostgresPool(configuration: .init(conninfo: try conninfo(values), parameters: parameters(application: application),
                                          maxConnections: size, leaseTimeout: .seconds(30)))
    }

    /// A failure for a database error: its description (no SQL, server detail or bind values),
    /// and in full under `--verbose`.
    static func failure(_ error: any Error) -> CLIError {
        .failure(causedBy: error)
    }
}
