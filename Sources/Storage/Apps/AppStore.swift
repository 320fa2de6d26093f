import CivilTime
import Foundation
public import Postgres
import Hashing

/// Apps and their API keys. Keys are stored as SHA-256 hashes with a short clear prefix that
/// names them in listings and for revocation; the key itself is shown once, when it is made.
public final class AppStore: Sendable {
    let pool: PostgresPool

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// Creates an app with a random hash secret and one write key and one read key.
    /// - Throws: `StorageError` `.invalidArgument` (bad name), `.alreadyExists`, or a database error.
    public func create(name: String) throws(StorageError) -> CreatedApp {
        try Self.validate(name: name)
        let secret = Pseudonymizer.makeSecret()
        let write = APIKey.generate(kind: .write)
        let read = APIKey.generate(kind: .read)
        return try StorageError.mapping {
            try pool.withConnection { connection in
                try connection.withTransaction { connection in
                    let rows = try connection.query("""
                        INSERT INTO apps (name, hash_secret) VALUES (\(name), \(secret))
                        ON CONFLICT (name) DO NOTHING
                        RETURNING app_id, created_at
                        """)
                    guard let row = rows.first else {
                        throw StorageError(.alreadyExists, "an app named \(name) already exists")
                    }
                    let appID: Int32 = try row.decode(column: "app_id")
                    let createdAt: UTCTimestamp = try row.decode(column: "created_at")
                    try Self.insertKey(write, kind: .write, appID: appID, on: connection)
                    try Self.insertKey(read, kind: .read, appID: appID, on: connection)
                    let app = AppRecord(appID: appID, name: name, hashSecret: secret, createdAt: createdAt)
                    return CreatedApp(app: app, writeKey: write.text, readKey: read.text)
                }
            }
        }
    }

    /// Every app, by name.
    public func apps() throws(StorageError) -> [AppRecord] {
        try StorageError.mapping {
            try pool.withConnection { connection in
                try connection.query("SELECT app_id, name, hash_secret, created_at FROM apps ORDER BY name")
                    .map(Self.appRecord)
            }
        }
    }

    /// The app called `name`, if any.
    public func app(named name: String) throws(StorageError) -> AppRecord? {
        try StorageError.mapping {
            try pool.withConnection { connection in
                try connection.query("""
                    SELECT app_id, name, hash_secret, created_at FROM apps WHERE name = \(name)
                    """).first.map(Self.appRecord)
            }
        }
    }

    /// Every key (prefix, kind, dates), by app name, kind and creation time.
    public func keys() throws(StorageError) -> [KeyRecord] {
        try StorageError.mapping {
            try pool.withConnection { connection in
                try connection.query("""
                    SELECT k.app_id, a.name AS app_name, k.prefix, k.kind, k.created_at, k.revoked_at
                    FROM api_keys k JOIN apps a ON a.app_id = k.app_id
                    ORDER BY a.name, k.kind DESC, k.created_at, k.prefix
                    """).map(Self.keyRecord)
            }
        }
    }

    /// Makes a new key of `kind` for the app and revokes the app's other active keys of that kind.
    public func rotateKey(appName: String, kind: KeyKind) throws(StorageError) -> RotatedKey {
        let key = APIKey.generate(kind: kind == .write ? .write : .read)
        return try StorageError.mapping {
            try pool.withConnection { connection in
                try connection.withTransaction { connection in
                    guard let appID = try Self.appID(named: appName, lockingRow: true, on: connection)
                    else { throw StorageError(.notFound, "no app named \(appName)") }
                    let revoked = try connection.query("""
                        UPDATE api_keys SET revoked_at = now()
                        WHERE app_id = \(appID) AND kind = \(kind.rawValue) AND revoked_at IS NULL
                        RETURNING prefix
                        """).map { try $0.decode(String.self, column: "prefix") }

                    try Self.insertKey(key, kind: kind, appID: appID, on: connection)
                    return RotatedKey(appName: appName, kind: kind, key: key.text, revokedPrefixes: revoked.sorted())
                }
            }
        }
    }

    /// Revokes the key whose prefix is `prefix` (a whole key is accepted too and reduced to its
    /// prefix). Revoking a revoked key is not an error; its record is returned unchanged.
    /// - Throws: `.notFound`, or `.invalidArgument` when the prefix names several keys.
    public func revokeKey(prefix given: String) throws(StorageError) -> KeyRecord {
        let prefix = APIKey(parsing: given)?.lookupPrefix ?? given
        return try StorageError.mapping {
            try pool.withConnection { connection in
                try connection.withTransaction { connection in
                    let matches = try connection.query("""
                        SELECT k.app_id, a.name AS app_name, k.prefix, k.kind, k.created_at, k.revoked_at, k.key_hash
                        FROM api_keys k JOIN apps a ON a.app_id = k.app_id
                        WHERE k.prefix = \(prefix) FOR UPDATE OF k
                        """)
                    guard let row = matches.first else { throw StorageError(.notFound, "no key with prefix \(prefix)") }
                    guard matches.count == 1 else {
                        throw StorageError(.invalidArgument, "the prefix \(prefix) names \(matches.count) keys")
                    }
                    var record = try Self.keyRecord(row)
                    if record.revokedAt == nil {
                        let hash: [UInt8] = try row.decode(column: "key_hash")
                        let revokedAt: UTCTimestamp = try connection.query("""
                            UPDATE api_keys SET revoked_at = now() WHERE key_hash = \(hash) RETURNING revoked_at
                            """)[0].decode(column: "revoked_at")
                        record.revokedAt = revokedAt
                    }
                    return record
                }
            }
        }
    }

    /// What a key presented by a client grants, or nil for a key that is malformed or unknown.
    /// Found by its SHA-256 through the unique index; the stored hash is then compared with the
    /// computed one in constant time.
    public func lookup(key text: String) throws(StorageError) -> KeyGrant? {
        guard let key = APIKey(parsing: text) else { return nil }
        let hash = SHA256.hash(key.text)
        return try StorageError.mapping {
            try pool.withConnection { connection in
                let rows = try connection.query("""
                    SELECT k.app_id, a.name AS app_name, k.kind, k.revoked_at IS NOT NULL AS revoked, a.hash_secret,
                           k.key_hash, array_to_string(a.allowed_origins, ' ') AS allowed_origins
                    FROM api_keys k JOIN apps a ON a.app_id = k.app_id
                    WHERE k.key_hash = \(hash)
                    """)
                guard let row = rows.first else { return nil }
                let stored: [UInt8] = try row.decode(column: "key_hash")
                guard ConstantTime.equals(stored, hash) else { return nil }
                let kindText: String = try row.decode(column: "kind")
                guard let kind = KeyKind(rawValue: kindText) else { return nil }
                let origins: String = try row.decode(column: "allowed_origins")
                return KeyGrant(appID: try row.decode(column: "app_id"), appName: try row.decode(column: "app_name"), kind: kind,
                                revoked: try row.decode(column: "revoked"), hashSecret: try row.decode(column: "hash_secret"),
                                allowedOrigins: origins.split(separator: " ").map(String.init))
            }
        }
    }

    /// App names: what the `apps.name` check constraint allows.
    public static func validate(name: String) throws(StorageError) {
        let bytes = Array(name.utf8)
        func isAlnum(_ b: UInt8) -> Bool {
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
        }
        guard let first = bytes.first, isAlnum(first), bytes.count <= 64,
              bytes.allSatisfy({ isAlnum($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D })
        else {
            throw StorageError(.invalidArgument,
                               "an app name is 1-64 characters: letters, digits, '.', '_' or '-', starting with a letter or digit")
        }
    }

    private static func insertKey(_ key: APIKey, kind: KeyKind, appID: Int32, on connection: PostgresConnection) throws {
        let hash = SHA256.hash(key.text)
        try connection.execute("""
            INSERT INTO api_keys (app_id, key_hash, prefix, kind)
            VALUES (\(appID), \(hash), \(key.lookupPrefix), \(kind.rawValue))
            """)
    }

    /// An app from the columns app_id, name, hash_secret and created_at, by name.
    private static func appRecord(_ row: PostgresRow) throws -> AppRecord {
        AppRecord(appID: try row.decode(column: "app_id"), name: try row.decode(column: "name"),
                  hashSecret: try row.decode(column: "hash_secret"), createdAt: try row.decode(column: "created_at"))
    }

    /// A key from the columns app_id, app_name, prefix, kind, created_at and revoked_at, by name.
    private static func keyRecord(_ row: PostgresRow) throws -> KeyRecord {
        let kindText: String = try row.decode(column: "kind")
        return KeyRecord(appID: try row.decode(column: "app_id"), appName: try row.decode(column: "app_name"),
                         prefix: try row.decode(column: "prefix"), kind: KeyKind(rawValue: kindText) ?? .read,
                         createdAt: try row.decode(column: "created_at"), revokedAt: try row.decode(column: "revoked_at"))
    }
}
