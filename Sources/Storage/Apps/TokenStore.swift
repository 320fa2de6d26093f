import Foundation
public import Postgres
import Hashing

/// Admin tokens (`menurank tokens`): the bearer tokens of the admin API. Stored as SHA-256 hashes
/// with a clear prefix that names them; the token itself is shown once, when it is made. Apart
/// from the apps' keys (`AppStore`): a token never ingests and a key never reviews.
public final class TokenStore: Sendable {
    private let pool: PostgresPool

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// Makes a token called `name`, for one app (`appName`) or every app (nil).
    /// - Throws: `StorageError` `.invalidArgument` (bad name), `.notFound` (no such app),
    ///   `.alreadyExists` (an active token has that name), or a database error.
    public func create(name: String, appName: String?) throws(StorageError) -> CreatedToken {
        try Self.validate(name: name)
        let token = AdminToken.generate()
        let hash = SHA256.hash(token.text)
        return try StorageError.mapping {
            try pool.withConnection { connection in
                try connection.withTransaction { connection in
                    var appID: Int32?
                    if let appName {
                        guard let id = try AppStore.appID(named: appName, on: connection) else {
                            throw StorageError(.notFound, "no app named \(appName)")
                        }
                        appID = id
                    }
                    let rows = try connection.query("""
                        INSERT INTO admin_tokens (name, app_id, token_hash, prefix)
                        SELECT \(name), \(appID), \(hash), \(token.lookupPrefix)
                        WHERE NOT EXISTS (SELECT 1 FROM admin_tokens WHERE name = \(name) AND revoked_at IS NULL)
                        RETURNING token_id, created_at
                        """)
                    guard let row = rows.first else {
                        throw StorageError(.alreadyExists,
                                           "an active token named \(name) exists (revoke it first: menurank tokens revoke \(name))")
                    }
                    let record = TokenRecord(tokenID: try row.decode(column: "token_id"), name: name, appID: appID,
                                             appName: appName, prefix: token.lookupPrefix,
                                             createdAt: try row.decode(column: "created_at"), revokedAt: nil)
                    return CreatedToken(record: record, token: token.text)
                }
            }
        }
    }

    /// Every token (active and revoked), by name and creation time.
    public func list() throws(StorageError) -> [TokenRecord] {
        try StorageError.mapping {
            try pool.withConnection { connection in
                try connection.query("""
                    SELECT \(unsafeRaw: Self.columns) FROM admin_tokens t LEFT JOIN apps a ON a.app_id = t.app_id
                    ORDER BY t.name, t.created_at, t.token_id
                    """).map(Self.record)
            }
        }
    }

    /// Revokes the active token called `name`, or the token whose prefix (or whole text) is given.
    /// - Throws: `.notFound`.
    public func revoke(_ given: String) throws(StorageError) -> TokenRecord {
        let prefix = AdminToken(parsing: given)?.lookupPrefix ?? given
        return try StorageError.mapping {
            try pool.withConnection { connection in
                let rows = try connection.query("""
                    UPDATE admin_tokens SET revoked_at = now()
                    WHERE revoked_at IS NULL AND (name = \(given) OR prefix = \(prefix))
                    RETURNING token_id
                    """)
                guard let row = rows.first else { throw StorageError(.notFound, "no active token named \(given)") }
                let id: Int32 = try row.decode(column: "token_id")

                return try connection.query("""
                    SELECT \(unsafeRaw: Self.columns) FROM admin_tokens t LEFT JOIN apps a ON a.app_id = t.app_id
                    WHERE t.token_id = \(id)
                    """).map(Self.record)[0]
            }
        }
    }

    /// What a token presented by a client grants, or nil for one that is malformed or unknown.
    /// Found by its SHA-256 through the unique index, then compared in constant time.
    public func lookup(token text: String) throws(StorageError) -> TokenGrant? {
        guard let token = AdminToken(parsing: text) else { return nil }
        let hash = SHA256.hash(token.text)
        return try StorageError.mapping {
            try pool.withConnection { connection in
                guard let row = try connection.query("""
                    SELECT t.name, t.app_id, a.name AS app_name, t.revoked_at IS NOT NULL AS revoked, t.token_hash
                    FROM admin_tokens t LEFT JOIN apps a ON a.app_id = t.app_id
                    WHERE t.token_hash = \(hash)
                    """).first
                else { return nil }
                let stored: [UInt8] = try row.decode(column: "token_hash")
                guard ConstantTime.equals(stored, hash) else { return nil }
                return TokenGrant(name: try row.decode(column: "name"), appID: try row.decode(column: "app_id"),
                                  appName: try row.decode(column: "app_name"), revoked: try row.decode(column: "revoked"))
            }
        }
    }

    /// Token names: what the `admin_tokens.name` check allows (a person's or a bot's handle).
    public static func validate(name: String) throws(StorageError) {
        let bytes = Array(name.utf8)
        func isAlnum(_ b: UInt8) -> Bool {
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
        }
        guard let first = bytes.first, isAlnum(first), bytes.count <= 64,
              bytes.allSatisfy({ isAlnum($0) || Array("._@+-".utf8).contains($0) })
        else {
            throw StorageError(.invalidArgument,
                               "a token name is 1-64 characters: letters, digits, '.', '_', '@', '+' or '-', "
                                   + "starting with a letter or digit")
        }
    }

    /// The columns `record` decodes, by these names.
    static let columns = "t.token_id, t.name, t.app_id, a.name AS app_name, t.prefix, t.created_at, t.revoked_at"

    static func record(_ row: PostgresRow) throws -> TokenRecord {
        TokenRecord(tokenID: try row.decode(column: "token_id"), name: try row.decode(column: "name"),
                    appID: try row.decode(column: "app_id"), appName: try row.decode(column: "app_name"),
                    prefix: try row.decode(column: "prefix"), createdAt: try row.decode(column: "created_at"),
                    revokedAt: try row.decode(column: "revoked_at"))
    }
}
