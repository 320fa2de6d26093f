import Foundation
import HTTP
@testable import Ingest
import Storage
import TestSupport
import Testing

/// CORS (sql/0016): preflights and answers for the origins an app allows, nothing for any other,
/// and requests without `Origin` exactly as before.
@Suite(TestDatabase.enabled) struct CrossOriginTests {
    static let page = "http://127.0.0.2:5173"

    @Test func preflightsAreAnsweredOnlyForAllowedOrigins() throws {
        try Daemon.with(prefix: "cors") { daemon in
            let stored = try AppStore(pool: daemon.pool).setAllowedOrigins(appName: "alpha", ["HTTP://127.0.0.2:5173/"])
            #expect(stored == [Self.page])
            let client = daemon.client()
            let events = try client.send(method: "OPTIONS", path: "/v1/events", headers: [
                "Origin": Self.page, "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization,content-type",
            ])
            #expect(events.status == 204)
            #expect(events.headers["Access-Control-Allow-Origin"] == Self.page)
            #expect(events.headers["Access-Control-Allow-Methods"] == "POST")
            #expect(events.headers["Access-Control-Allow-Headers"] == "Authorization, Content-Type")
            #expect(events.headers["Access-Control-Max-Age"] == "600")
            #expect(events.headers["Vary"] == "Origin")

            let menus = try client.send(method: "OPTIONS", path: "/v1/menus/mail.message", headers: [
                "Origin": Self.page, "Access-Control-Request-Method": "GET",
            ])
            #expect(menus.status == 204)
            #expect(menus.headers["Access-Control-Allow-Methods"] == "GET")
            #expect(menus.headers["Access-Control-Allow-Headers"] == "Authorization, If-None-Match")

            // Another origin, another port of the same host, or the admin API: no CORS headers.
            for (origin, path) in [("https://evil.example", "/v1/events"), ("http://127.0.0.2:5174", "/v1/events"),
                                   (Self.page, "/v1/admin/proposals")] {
                let refused = try client.send(method: "OPTIONS", path: path, headers: [
                    "Origin": origin, "Access-Control-Request-Method": "POST",
                ])
                #expect(refused.status == (path == "/v1/events" ? 403 : 405), "\(origin) \(path): \(refused.text)")
                #expect(refused.headers["Access-Control-Allow-Origin"] == nil)
            }
            // An OPTIONS that is no preflight is routed as before: 405 with the same Allow.
            let plain = try client.send(method: "OPTIONS", path: "/v1/events")
            #expect(plain.status == 405)
            #expect(plain.headers["Allow"] == "POST")

            // Cleared: refused at once (the daemon's key cache period is zero here).
            #expect(try AppStore(pool: daemon.pool).setAllowedOrigins(appName: "alpha", []) == [])
            let cleared = try client.send(method: "OPTIONS", path: "/v1/events", headers: [
                "Origin": Self.page, "Access-Control-Request-Method": "POST",
            ])
            #expect(cleared.status == 403)
            #expect(cleared.headers["Access-Control-Allow-Origin"] == nil)
        }
    }

    @Test func answersCarryCORSHeadersForTheKeysOwnAppOnly() throws {
        try Daemon.with(prefix: "cors") { daemon in
            _ = try AppStore(pool: daemon.pool).setAllowedOrigins(appName: "alpha", [Self.page])
            let body = Payload.batch([Payload.event()])
            let allowed = try daemon.post(body, headers: ["Content-Type": "application/json", "Origin": Self.page])
            #expect(allowed.status == 200 && allowed.accepted == 1, "\(allowed.text)")
            #expect(allowed.headers["Access-Control-Allow-Origin"] == Self.page)
            #expect(allowed.headers["Access-Control-Expose-Headers"] == "ETag, Retry-After")
            #expect(allowed.headers["Vary"] == "Origin")

            // Beta does not list the page: its key is refused from there before the body is read,
            // and nothing is stored.
            let other = try daemon.post(Payload.batch([Payload.event()]), key: daemon.beta.writeKey,
                                        headers: ["Content-Type": "application/json", "Origin": Self.page])
            #expect(other.status == 403 && other.error == "origin_not_allowed", "\(other.text)")
            #expect(other.headers["Access-Control-Allow-Origin"] == nil)
            #expect(try daemon.count("SELECT count(*) FROM events WHERE app_id = \(daemon.beta.app.appID)") == 0)

            // Errors an allowed page must read: a wrong key (401: the union of the apps' lists) and
            // a malformed body (400), each with the origin; a refused origin gets nothing.
            let unknown = try daemon.post(body, key: "mrk_w_" + String(repeating: "a", count: 32),
                                          headers: ["Content-Type": "application/json", "Origin": Self.page])
            #expect(unknown.status == 401)
            #expect(unknown.headers["Access-Control-Allow-Origin"] == Self.page)
            let malformed = try daemon.post("{", headers: ["Content-Type": "application/json", "Origin": Self.page])
            #expect(malformed.status == 400)
            #expect(malformed.headers["Access-Control-Allow-Origin"] == Self.page)
            let elsewhere = try daemon.post(body, headers: ["Content-Type": "application/json", "Origin": "https://evil.example"])
            #expect(elsewhere.status == 403 && elsewhere.headers["Access-Control-Allow-Origin"] == nil)

            // Menus: ETag exposed; If-None-Match answered 304 with the origin.
            let menus = try daemon.get("/v1/menus", key: daemon.alpha.readKey, headers: ["Origin": Self.page])
            #expect(menus.status == 200)
            #expect(menus.headers["Access-Control-Allow-Origin"] == Self.page)
            let etag = try #require(menus.headers["ETag"])
            let again = try daemon.get("/v1/menus", key: daemon.alpha.readKey,
                                       headers: ["Origin": Self.page, "If-None-Match": etag])
            #expect(again.status == 304 && again.headers["Access-Control-Allow-Origin"] == Self.page)
            #expect(try daemon.get("/v1/menus", key: daemon.beta.readKey, headers: ["Origin": Self.page]).status == 403)

            // A page the daemon serves itself (Origin of its own host) needs no listing.
            let own = "http://127.0.0.1:\(daemon.port)"
            let same = try daemon.post(Payload.batch([Payload.event()]), key: daemon.beta.writeKey,
                                       headers: ["Content-Type": "application/json", "Origin": own])
            #expect(same.status == 200 && same.headers["Access-Control-Allow-Origin"] == nil, "\(same.text)")
        }
    }

    /// The server's own answers (here a body over the cap) carry the origin too, so the page's
    /// client can read the 413 and split.
    @Test func theServersOwnAnswersCarryTheOrigin() throws {
        try Daemon.with(prefix: "cors", configure: { $0.maxBodyBytes = 1000 }) { daemon in
            _ = try AppStore(pool: daemon.pool).setAllowedOrigins(appName: "alpha", [Self.page])
            let big = try daemon.post(Payload.batch(Payload.events(20)),
                                      headers: ["Content-Type": "application/json", "Origin": Self.page])
            #expect(big.status == 413)
            #expect(big.headers["Access-Control-Allow-Origin"] == Self.page)
        }
    }

    /// Without `Origin`, answers are byte for byte what they were: no CORS header, no Vary.
    @Test func requestsWithoutAnOriginAreUnchanged() throws {
        try Daemon.with(prefix: "cors", configure: { $0.rateLimit = 1; $0.rateBurst = 1 }) { daemon in
            _ = try AppStore(pool: daemon.pool).setAllowedOrigins(appName: "alpha", [Self.page])
            let body = Payload.batch([Payload.event()])
            let replies = [
                try daemon.post(body), try daemon.post(body),
                try daemon.post(body, key: ""), try daemon.get("/v1/menus", key: daemon.alpha.readKey),
                try daemon.get("/v1/menus", key: daemon.alpha.writeKey),
            ]
            #expect(replies.map(\.status) == [200, 429, 401, 200, 401])
            #expect(replies[1].error == "rate_limited" && replies[1].headers["Retry-After"] != nil)
            for reply in replies {
                for name in ["Access-Control-Allow-Origin", "Access-Control-Expose-Headers", "Vary"] {
                    #expect(reply.headers[name] == nil, "\(name) on \(reply.status)")
                }
            }
        }
    }

    /// Right after a start, preflights arrive together: while one reads the list, the others read
    /// it too instead of finding nothing (which answered 503 before; seen in the browser test).
    @Test func callersBeforeTheFirstReadNeverFindNothing() throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let calls = Tally()
        let directory = OriginDirectory(ttl: .seconds(60)) { () throws(StorageError) in
            if calls.next() == 1 {
                entered.signal()
                release.wait()
            }
            return [Self.page]
        }
        let first = Tally()
        let thread = Thread { if directory.allows(Self.page) == true { _ = first.next() } }
        thread.start()
        entered.wait()
        #expect(directory.allows(Self.page) == true)
        release.signal()
        for _ in 0..<5000 where first.value == 0 { usleep(1000) }
        #expect(first.value == 1)
        #expect(directory.allows("https://evil.example") == false)
        #expect(calls.value == 2, "one read each before the first answered; none after, within the period")
    }

    @Test func originsAreNormalisedOrRefused() {
        let cases: [(String, String?)] = [
            ("https://Mail.Example.com", "https://mail.example.com"),
            ("https://mail.example.com:443/", "https://mail.example.com"),
            ("http://localhost:80", "http://localhost"),
            ("http://127.0.0.2:5173", "http://127.0.0.2:5173"),
            ("http://[::1]:8080", "http://[::1]:8080"),
            ("https://xn--bcher-kva.example", "https://xn--bcher-kva.example"),
            ("*", nil), ("null", nil), ("mail.example.com", nil), ("ftp://mail.example.com", nil),
            ("https://mail.example.com/path", nil), ("https://user@mail.example.com", nil),
            ("https://mail.example.com:0", nil), ("https://mail.example.com:99999", nil),
            ("https://bücher.example", nil), ("https://", nil), ("https://-bad.example", nil),
        ]
        for (text, expected) in cases {
            #expect((try? AllowedOrigin.normalize(text).get()) == expected, "\(text)")
        }
    }
}

/// `menurank apps set` (the real binary): the list replaced, shown, cleared; bad origins refused.
@Suite(TestDatabase.enabled) struct AppsSetCommandTests {
    @Test func setsShowsAndClearsTheAllowedOrigins() throws {
        try TestDatabase.withSchema(prefix: "appsset") { schema in
            try Migrations.apply(on: schema.connect())
            let environment = ["DATABASE_URL": schema.connectionString]
            #expect(try ChildProcess.menurank(["apps", "create", "mail"], environment: environment).status == 0)
            let set = try ChildProcess.menurank(["apps", "set", "mail", "--allowed-origin", "https://Mail.Example.com:443/",
                                                 "--allowed-origin", "http://localhost:5173", "--format", "json"],
                                                environment: environment)
            #expect(set.status == 0, "\(set.standardError)")
            #expect(set.standardOutput.contains(#""allowed_origins":["https://mail.example.com","http://localhost:5173"]"#),
                    "\(set.standardOutput)")
            let shown = try ChildProcess.menurank(["apps", "set", "mail"], environment: environment)
            #expect(shown.standardOutput == "mail: allowed origins https://mail.example.com http://localhost:5173\n")

            let bad = try ChildProcess.menurank(["apps", "set", "mail", "--allowed-origin", "https://mail.example.com/inbox"],
                                                environment: environment)
            #expect(bad.status == 64 && bad.standardError.contains("is not an origin"), "\(bad.standardError)")
            let both = try ChildProcess.menurank(["apps", "set", "mail", "--allowed-origin", "https://a.example",
                                                  "--clear-allowed-origins"], environment: environment)
            #expect(both.status == 64)
            #expect(try ChildProcess.menurank(["apps", "set", "nosuch", "--clear-allowed-origins"], environment: environment).status == 1)
            // Nothing changed by the refused calls.
            #expect(try ChildProcess.menurank(["apps", "set", "mail"], environment: environment).standardOutput.contains("localhost:5173"))

            let cleared = try ChildProcess.menurank(["apps", "set", "mail", "--clear-allowed-origins"], environment: environment)
            #expect(cleared.status == 0 && cleared.standardOutput.contains("no allowed origins"), "\(cleared.standardOutput)")
        }
    }
}

/// The web example served by the daemon (`--serve-example`): its files with a strict CSP, and
/// nothing else, whatever the path.
@Suite(TestDatabase.enabled) struct ExampleSiteTests {
    @Test func servesTheExampleAndNothingOutsideIt() throws {
        let root = try RepositoryPaths.root().path
        let site = try ExampleSite.load(root: root, apiOrigin: "http://127.0.0.1:8080")
        try Daemon.with(prefix: "example", configure: { $0.exampleSite = site }) { daemon in
            let client = daemon.client()
            let page = try client.send(method: "GET", path: "/example/")
            #expect(page.status == 200 && page.text.contains("<script type=\"module\" src=\"app.js\">"))
            let policy = try #require(page.headers["Content-Security-Policy"])
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self';")
                    && policy.contains("connect-src 'self' http://127.0.0.1:8080;") && policy.contains("frame-ancestors 'none'"))
            #expect(!policy.contains("unsafe"))
            #expect(page.headers["X-Content-Type-Options"] == "nosniff")
            let module = try client.send(method: "GET", path: "/example/menurank.js")
            #expect(module.status == 200 && module.headers["Content-Type"] == "text/javascript; charset=utf-8")
            #expect(module.body == Array(try Data(contentsOf: RepositoryPaths.root().appendingPathComponent("clients/web/menurank.js"))))
            #expect(try client.send(method: "GET", path: "/example").headers["Location"] == "/example/")
            for path in ["/example/../Package.swift", "/example/..%2FPackage.swift", "/example/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
                         "/example/.hidden", "/example/app.js%00.html", "/example/style.css/", "/example/index.html/x",
                         "/example/%2Fetc%2Fpasswd"] {
                let response = try client.send(method: "GET", path: path)
                #expect(response.status == 404, "\(path): \(response.status)")
                #expect(!response.text.contains("swift-tools-version") && !response.text.contains("root:"), "\(path)")
            }
            #expect(try client.send(method: "POST", path: "/example/index.html").status == 405)
        }
        // Without --serve-example there is no /example/.
        try Daemon.with(prefix: "example") { (daemon) throws in
            #expect(try daemon.client().send(method: "GET", path: "/example/").status == 404)
        }
    }

    @Test func aLinkOutOfTheFolderIsNeverServed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("examples/web-context-menu")
        let client = root.appendingPathComponent("clients/web")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: client, withIntermediateDirectories: true)
        try "<!DOCTYPE html>".write(to: folder.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try "export {}".write(to: client.appendingPathComponent("menurank.js"), atomically: true, encoding: .utf8)
        try "export {}".write(to: client.appendingPathComponent("menurank.d.ts"), atomically: true, encoding: .utf8)
        try "secret".write(to: root.appendingPathComponent("secret.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("leak.json").path,
                                                   withDestinationPath: root.appendingPathComponent("secret.json").path)
        let site = try ExampleSite.load(root: root.path, apiOrigin: nil)
        #expect(site.response(for: "leak.json").status == 404)
        #expect(site.response(for: "index.html").status == 200)
        #expect(site.response(for: "../secret.json").status == 404)
        #expect(site.response(for: nil).headers["Content-Security-Policy"]?.contains("connect-src 'self';") == true)
    }
}

/// A counter threads share.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
