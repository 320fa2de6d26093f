import Foundation
import Postgres
import Storage
import TestSupport
import Testing

@Suite(TestDatabase.enabled) struct AppStoreTests {
    @Test func createListRotateRevokeAndLookUp() throws {
        try StorageFixture.with(prefix: "apps") { fixture in
            let store = AppStore(pool: fixture.pool)
            let created = try store.create(name: "mail")
            #expect(created.writeKey.hasPrefix("mrk_w_"))
            #expect(created.readKey.hasPrefix("mrk_r_"))
            #expect(created.app.hashSecret.count == 16)

            // Keys are stored hashed: neither key appears in the table.
            let stored = try fixture.connect().query("SELECT encode(key_hash, 'hex'), prefix FROM api_keys")
            #expect(stored.count == 2)
            for row in stored {
                let hash: String = try row.decode(at: 0)
                #expect(hash.count == 64)
                #expect(!hash.contains(created.writeKey) && !hash.contains(created.readKey))
            }

            let write = try #require(try store.lookup(key: created.writeKey))
            #expect(write.appID == created.app.appID && write.kind == .write && !write.revoked)
            #expect(write.hashSecret == created.app.hashSecret)
            let read = try #require(try store.lookup(key: created.readKey))
            #expect(read.kind == .read)
            // A well-formed but unknown key, and garbage.
            #expect(try store.lookup(key: "mrk_w_" + String(repeating: "A", count: 32)) == nil)
            #expect(try store.lookup(key: "not a key") == nil)

            #expect(try store.apps().map(\.name) == ["mail"])
            #expect(try store.keys().count == 2)

            let rotated = try store.rotateKey(appName: "mail", kind: .write)
            #expect(rotated.revokedPrefixes == [String(created.writeKey.prefix(14))])
            #expect(try store.lookup(key: created.writeKey)?.revoked == true)
            #expect(try store.lookup(key: rotated.key)?.revoked == false)

            let revoked = try store.revokeKey(prefix: String(created.readKey.prefix(14)))
            #expect(revoked.kind == .read && revoked.revokedAt != nil)
            #expect(try store.lookup(key: created.readKey)?.revoked == true)
            // Revoking again is not an error.
            #expect(try store.revokeKey(prefix: created.readKey).isRevoked)
        }
    }

    @Test func refusesDuplicateAndInvalidNamesAndUnknownTargets() throws {
        try StorageFixture.with(prefix: "apps") { fixture in
            let store = AppStore(pool: fixture.pool)
            _ = try store.create(name: "photos")
            let duplicate = try #require(throws: StorageError.self) { try store.create(name: "photos") }
            #expect(duplicate.kind == .alreadyExists)
            for bad in ["", "-x", "has space", String(repeating: "a", count: 65), "naïve"] {
                let error = try #require(throws: StorageError.self) { try store.create(name: bad) }
                #expect(error.kind == .invalidArgument)
            }
            #expect(throws: StorageError.self) { try store.rotateKey(appName: "nope", kind: .read) }
            let missing = try #require(throws: StorageError.self) { try store.revokeKey(prefix: "mrk_w_zzzzzzzz") }
            #expect(missing.kind == .notFound)
            #expect(try store.apps().count == 1)
        }
    }
}
