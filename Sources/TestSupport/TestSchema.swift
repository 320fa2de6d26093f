public import Postgres

/// A throwaway schema made by `TestDatabase.withSchema`; its connections have
/// `search_path = <name>, public`.
public struct TestSchema: Sendable {
    /// The schema's name (lower case letters, digits, underscores).
    public let name: String
    let baseConninfo: String?

    init(name: String, baseConninfo: String?) {
        self.name = name
        self.baseConninfo = baseConninfo
    }

    /// libpq keywords that put the schema first on the search path.
    public var parameters: [String: String] {
        ["options": "-c search_path=\(name),public", "application_name": "menurank-tests", "connect_timeout": "5"]
    }

    /// A URL or conninfo string that reaches the schema, for a process such as the
    /// `menurank` binary (`--database`). Built from `DATABASE_URL`, or from nothing, so the
    /// rest comes from the `PG*` variables the child process inherits.
    public var connectionString: String {
        let options = "-c search_path=\(name),public"
        guard let base = baseConninfo, !base.isEmpty else { return "options='\(options)'" }
        if base.hasPrefix("postgres://") || base.hasPrefix("postgresql://") {
            let encoded = "-c%20search_path%3D\(name)%2Cpublic"
            return base + (base.contains("?") ? "&" : "?") + "options=\(encoded)"
        }
        return base + " options='\(options)'"
    }

    /// Opens a connection inside the schema.
    public func connect() throws -> PostgresConnection {
        try PostgresConnection(baseConninfo, parameters: parameters)
    }

    /// A pool whose connections live inside the schema. Close it before the schema is dropped.
    public func makePool(maxConnections: Int = 4, leaseTimeout: Duration = .seconds(5)) -> PostgresPool {
        PostgresPool(
            configuration: .init(
                conninfo: baseConninfo, parameters: parameters, maxConnections: maxConnections,
                leaseTimeout: leaseTimeout))
    }
}
