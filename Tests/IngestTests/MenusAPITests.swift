import Foundation
import HTTP
import Ingest
import Postgres
import Storage
import TestSupport
import Testing

@Suite(TestDatabase.enabled) struct MenusAPITests {
    @Test func servesTheNewestLayoutsWithAnETagAnd304() throws {
        try Daemon.with { (daemon) throws in
            let app = daemon.alpha.app.appID
            let connection = try daemon.schema.connect()
            try connection.execute("""
                INSERT INTO manifests (app_id, version, body) VALUES (\(app), '2026.11.1', '{}');
                """)
            try connection.execute("""
                INSERT INTO menu_commands (app_id, command, title, destructive) VALUES
                  (\(app), 'reply', 'Reply', false), (\(app), 'forward', 'Forward', false),
                  (\(app), 'delete', 'Delete', true), (\(app), 'copy_link', 'Copy Link', false)
                """)
            try connection.execute("""
                INSERT INTO layouts (app_id, element_type, layout_version, layout, source, menu_version) VALUES
                  (\(app), 'mail.message', 1, '[["forward", "reply"], ["delete"]]', 'manifest', '2026.11.1'),
                  (\(app), 'mail.message', 2, '[["reply", "forward"], [{"submenu": "Share", "items": ["copy_link"]}], ["delete"]]', 'proposal', '2026.11.1+2'),
                  (\(app), 'mail.folder', 1, '[["delete"]]', 'manifest', '2026.11.1')
                """)
            let all = try daemon.get("/v1/menus", key: daemon.alpha.readKey)
            #expect(all.status == 200, "\(all.text)")
            #expect(all.json["app"] as? String == "alpha")
            #expect(all.json["version"] as? String == "2026.11.1")
            let menus = try #require(all.json["menus"] as? [String: Any])
            #expect(menus.keys.sorted() == ["mail.folder", "mail.message"])
            let message = try #require(menus["mail.message"] as? [String: Any])
            // The version apps send back with their events: the current layout's.
            #expect(message["menu_version"] as? String == "2026.11.1+2")
            let groups = try #require(message["groups"] as? [[Any]])
            #expect(groups.count == 3)
            #expect(groups[0] as? [String] == ["reply", "forward"])
            let commands = try #require(all.json["commands"] as? [String: [String: Any]])
            #expect(commands["delete"]?["destructive"] as? Bool == true)
            #expect(commands["copy_link"]?["title"] as? String == "Copy Link")
            let etag = try #require(all.headers["ETag"])
            #expect(etag.hasPrefix("\"") && etag.count > 10)

            // Same content, same ETag; If-None-Match gives 304 without a body.
            let again = try daemon.get("/v1/menus", key: daemon.alpha.readKey)
            #expect(again.headers["ETag"] == etag && again.text == all.text)
            let notModified = try daemon.get("/v1/menus", key: daemon.alpha.readKey, headers: ["If-None-Match": etag])
            #expect(notModified.status == 304 && notModified.text.isEmpty)

            // One element type.
            let one = try daemon.get("/v1/menus/mail.folder", key: daemon.alpha.readKey)
            #expect(one.status == 200)
            #expect((one.json["menus"] as? [String: Any])?.keys.sorted() == ["mail.folder"])
            #expect((one.json["commands"] as? [String: Any])?.keys.sorted() == ["delete"])
            #expect(one.headers["ETag"] != etag)
            #expect(try daemon.get("/v1/menus/mail.nothing", key: daemon.alpha.readKey).status == 404)
            // Names no element type can have (a NUL, a space, a slash, non-ASCII, too long): 404, never a 500.
            for path in ["/v1/menus/a%00b", "/v1/menus/a%20b", "/v1/menus/a%2Fb", "/v1/menus/%C3%A9",
                         "/v1/menus/" + String(repeating: "x", count: 129)]
            {
                #expect(try daemon.get(path, key: daemon.alpha.readKey).status == 404, "\(path)")
            }

            // A new layout changes the ETag: the old one no longer matches.
            try connection.execute("""
                INSERT INTO layouts (app_id, element_type, layout_version, layout, source, menu_version)
                VALUES (\(app), 'mail.folder', 2, '[["delete", "reply"]]', 'proposal', '2026.11.1+2')
                """)
            let changed = try daemon.get("/v1/menus", key: daemon.alpha.readKey, headers: ["If-None-Match": etag])
            #expect(changed.status == 200 && changed.headers["ETag"] != etag)
            let folder = (changed.json["menus"] as? [String: [String: Any]])?["mail.folder"]
            #expect(folder?["menu_version"] as? String == "2026.11.1+2")

            // Keys: a write key cannot read, another app's read key sees its own (empty) menus.
            #expect(try daemon.get("/v1/menus", key: daemon.alpha.writeKey).status == 401)
            #expect(try daemon.get("/v1/menus").status == 401)
            let beta = try daemon.get("/v1/menus", key: daemon.beta.readKey)
            #expect(beta.status == 200 && (beta.json["menus"] as? [String: Any])?.isEmpty == true)
        }
    }
}
