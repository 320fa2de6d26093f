import Postgres

/// The browser origins of each app (sql/0016): set from the command line, read by the daemon with
/// each key (``AppStore/lookup(key:)``) and, for CORS preflights, which carry no key, as the union
/// over all apps.
extension AppStore {
    /// Replaces the app's allowed origins with `origins` (normalised, duplicates dropped, in the
    /// order given; empty clears the list) and returns what is stored.
    /// - Throws: `.notFound` for an unknown app, `.invalidArgument` for a text that is not an
    ///   origin or more than ``AllowedOrigin/maxPerApp`` origins, or a database error.
    public func setAllowedOrigins(appName: String, _ origins: [String]) throws(StorageError) -> [String] {
        var normalized: [String] = []
        for text in origins {
            let origin = try AllowedOrigin.normalize(text).get()
            if !normalized.contains(origin) { normalized.append(origin) }
        }
        guard normalized.count <= AllowedOrigin.maxPerApp else {
            throw StorageError(.invalidArgument, "at most \(AllowedOrigin.maxPerApp) allowed origins per app")
        }
        let stored = normalized
        return try StorageError.mapping {
            try pool.withConnection { connection in
                let rows = try connection.query("""
                    UPDATE apps SET allowed_origins = \(stored)::text[] WHERE name = \(appName) RETURNING app_id
                    """)
                guard !rows.isEmpty else { throw StorageError(.notFound, "no app named \(appName)") }
                return stored
            }
        }
    }

    /// The app's allowed origins, in the order they were set.
    /// - Throws: `.notFound` for an unknown app, or a database error.
    public func allowedOrigins(appName: String) throws(StorageError) -> [String] {
        try StorageError.mapping {
            try pool.withConnection { connection in
                guard let row = try connection.query("""
                    SELECT array_to_string(allowed_origins, ' ') AS origins FROM apps WHERE name = \(appName)
                    """).first
                else { throw StorageError(.notFound, "no app named \(appName)") }
                let text: String = try row.decode(column: "origins")
                return text.split(separator: " ").map(String.init)
            }
        }
    }

    /// Every origin some app allows: what a CORS preflight (which carries no key, so names no
    /// app) is answered for.
    public func allAllowedOrigins() throws(StorageError) -> Set<String> {
        try StorageError.mapping {
            try pool.withConnection { connection in
                let rows = try connection.query("""
                    SELECT DISTINCT origin FROM apps, unnest(allowed_origins) AS origin
                    """)
                return Set(try rows.map { try $0.decode(String.self, column: "origin") })

            }
        }
    }
}
