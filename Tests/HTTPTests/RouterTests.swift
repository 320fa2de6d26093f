import HTTP
import Testing

@Suite("Router")
struct RouterTests {
    private func router() -> Router<String> {
        var router = Router<String>()
        router.add("GET", "/healthz", "health")
        router.add("GET", "/v1/menus", "menus")
        router.add("GET", "/v1/menus/:elementType", "menu")
        router.add("PUT", "/v1/menus/:elementType", "put-menu")
        router.add("POST", "/v1/events", "events")
        router.add("GET", "/v1/menus/special", "special")
        return router
    }

    @Test("exact paths match their method")
    func exact() {
        guard case let .found(target, parameters) = router().match(method: "POST", path: "/v1/events") else {
            Issue.record("no match")
            return
        }
        #expect(target == "events")
        #expect(parameters.template == "/v1/events")
        #expect(parameters.values.isEmpty)
    }

    @Test("a trailing parameter is percent-decoded and may contain dots and encoded slashes", arguments: [
        ("/v1/menus/mail.message", "mail.message"),
        ("/v1/menus/files%2Ffolder", "files/folder"),
        ("/v1/menus/%24Copy", "$Copy"),
        ("/v1/menus/caf%C3%A9", "café"),
        ("/v1/menus/a+b", "a+b"),
    ])
    func parameter(path: String, expected: String) {
        guard case let .found(target, parameters) = router().match(method: "GET", path: path) else {
            Issue.record("no match for \(path)")
            return
        }
        #expect(target == "menu")
        #expect(parameters["elementType"] == expected)
        #expect(parameters.template == "/v1/menus/:elementType")
    }

    @Test("exact routes win over the parameter route")
    func exactWins() {
        guard case let .found(target, _) = router().match(method: "GET", path: "/v1/menus/special") else {
            Issue.record("no match")
            return
        }
        #expect(target == "special")
        // The exact route has no PUT, the parameter route has: it takes over.
        guard case let .found(putTarget, parameters) = router().match(method: "PUT", path: "/v1/menus/special") else {
            Issue.record("no match")
            return
        }
        #expect(putTarget == "put-menu")
        #expect(parameters["elementType"] == "special")
    }

    @Test("unknown paths are not found", arguments: [
        "/", "/v1", "/v1/menus/", "/v1/menus/a/b", "/v1/menus/bad%zz", "/v1/menus/%", "/healthz/", "/HEALTHZ",
        "/v1/menus/%FF",
    ])
    func notFound(path: String) {
        guard case .notFound = router().match(method: "GET", path: path) else {
            Issue.record("\(path) should not match")
            return
        }
    }

    @Test("a known path with the wrong method lists the allowed ones")
    func methodNotAllowed() {
        guard case let .methodNotAllowed(template, allowed) = router().match(method: "DELETE", path: "/v1/menus/x.y") else {
            Issue.record("expected 405")
            return
        }
        #expect(template == "/v1/menus/:elementType")
        #expect(allowed == ["GET", "HEAD", "PUT"])

        guard case let .methodNotAllowed(eventsTemplate, eventsAllowed) = router().match(method: "GET", path: "/v1/events") else {
            Issue.record("expected 405")
            return
        }
        #expect(eventsTemplate == "/v1/events")
        #expect(eventsAllowed == ["POST"])
    }

    @Test("HEAD falls back to GET; methods are case-sensitive")
    func head() {
        guard case let .found(target, _) = router().match(method: "HEAD", path: "/healthz") else {
            Issue.record("HEAD should use the GET route")
            return
        }
        #expect(target == "health")
        guard case .methodNotAllowed = router().match(method: "get", path: "/healthz") else {
            Issue.record("lowercase get is another method")
            return
        }
    }

    @Test("the routing handler answers 404 and 405 with JSON and an Allow header")
    func routingHandler() {
        var handler = RoutingHandler()
        handler.add("GET", "/v1/menus/:elementType") { _, parameters in
            .text(parameters["elementType"] ?? "")
        }
        let found = handler.route(HTTPRequest(method: "GET", path: "/v1/menus/mail.message"))
        #expect(found.template == "/v1/menus/:elementType")
        #expect(found.response.status == 200)
        #expect(String(decoding: found.response.body, as: UTF8.self) == "mail.message")

        let missing = handler.route(HTTPRequest(method: "GET", path: "/nope"))
        #expect(missing.template == nil)
        #expect(missing.response.status == 404)
        #expect(missing.response.headers["content-type"] == "application/json")
        #expect(String(decoding: missing.response.body, as: UTF8.self).hasPrefix("{\"error\":\"not_found\""))

        let wrong = handler.handle(HTTPRequest(method: "POST", path: "/v1/menus/x"))
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "GET, HEAD")
    }

    @Test("404 and 405 bodies are the one shape, with the method and path cut short")
    func unroutedBodies() {
        let missing = HTTPResponse.unrouted(HTTPRequest(method: "GET", path: "/nope"), allowed: nil)
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self) == #"{"error":"not_found","message":"no route for /nope"}"#)
        let long = HTTPResponse.unrouted(HTTPRequest(method: "GET", path: "/" + String(repeating: "a", count: 500)), allowed: nil)
        #expect(String(decoding: long.body, as: UTF8.self).contains("/" + String(repeating: "a", count: 199) + "\""))
        #expect(!String(decoding: long.body, as: UTF8.self).contains(String(repeating: "a", count: 200)))
        let wrong = HTTPResponse.unrouted(HTTPRequest(method: String(repeating: "X", count: 30), path: "/v1/events"),
                                          allowed: ["POST", "OPTIONS"])
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "POST, OPTIONS")
        #expect(String(decoding: wrong.body, as: UTF8.self)
                == #"{"error":"method_not_allowed","message":"XXXXXXXXXXXXXXXXXXXX is not allowed here; allowed: POST, OPTIONS"}"#)
    }

    @Test("the Authorization header is read one way: Bearer in any case, blanks around the credential dropped",
          arguments: [
              (nil, BearerCredential.missing),
              ("Basic abc", .malformed),
              ("Bearer", .malformed),
              ("bearer", .malformed),
              ("Bearer abc", .presented("abc")),
              ("BEARER  abc\t ", .presented("abc")),
              ("Bearer a b", .presented("a b")),
          ] as [(String?, BearerCredential)])
    func bearer(_ header: String?, _ expected: BearerCredential) {
        var headers = HTTPHeaders()
        if let header { headers.set("Authorization", header) }
        #expect(BearerCredential(of: HTTPRequest(method: "GET", path: "/", headers: headers)) == expected)
    }
}
