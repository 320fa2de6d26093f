import HTTP
import Testing

/// Which client address a request counts under (`--trusted-proxy`): pure, no server.
@Suite struct TrustedProxiesTests {
    let proxies = try! TrustedProxies(["10.0.0.2", "172.16.0.0/12", "fd00::/8"])

    @Test func addressesAndNetworksAreTrusted() throws {
        #expect(proxies.contains("10.0.0.2"))
        #expect(!proxies.contains("10.0.0.3"))
        #expect(proxies.contains("172.31.255.1") && !proxies.contains("172.32.0.1"))
        #expect(proxies.contains("fd12::1") && !proxies.contains("fe80::1"))
        // The IPv4-mapped form of a trusted IPv4 address is the same address.
        #expect(proxies.contains("::ffff:10.0.0.2"))
        #expect(!proxies.contains("not an address"))
        #expect(try TrustedProxies([]).client(peer: "10.0.0.2", headers: ["X-Forwarded-For": "1.2.3.4"]) == "10.0.0.2")
    }

    @Test(arguments: ["10.0.0.256", "10.0.0.0/33", "example.com", "10.0.0.0/", "fd00::/129", ""])
    func aBadEntryIsRefused(entry: String) {
        #expect(throws: HTTPError.self) { try TrustedProxies([entry]) }
    }

    @Test func theRightMostUntrustedForwardedEntryIsTheClient() {
        // The client wrote the first entry itself; the trusted proxies appended the rest.
        #expect(proxies.client(peer: "10.0.0.2", headers: ["X-Forwarded-For": "6.6.6.6, 198.51.100.7, 172.20.0.5"])
            == "198.51.100.7")
        // Several header lines are one list, in order.
        var headers = HTTPHeaders()
        headers.add("X-Forwarded-For", "6.6.6.6")
        headers.add("X-Forwarded-For", "198.51.100.8")
        #expect(proxies.client(peer: "10.0.0.2", headers: headers) == "198.51.100.8")
        // Ports and brackets are dropped; text is canonical.
        #expect(proxies.client(peer: "10.0.0.2", headers: ["X-Forwarded-For": "[2001:DB8::0001]:4711"]) == "2001:db8::1")
        #expect(proxies.client(peer: "10.0.0.2", headers: ["X-Forwarded-For": "198.51.100.9:5000"]) == "198.51.100.9")
        // Only proxies: the left-most of them.
        #expect(proxies.client(peer: "10.0.0.2", headers: ["X-Forwarded-For": "172.16.0.9, 10.0.0.2"]) == "172.16.0.9")
        // Garbage where an address should be: the proxy's own address, never an entry left of it.
        #expect(proxies.client(peer: "10.0.0.2", headers: ["X-Forwarded-For": "198.51.100.7, unknown"]) == "10.0.0.2")
        // No header: the proxy itself (its health checks, say).
        #expect(proxies.client(peer: "10.0.0.2", headers: [:]) == "10.0.0.2")
    }

    @Test func forwardedIsReadWithoutXForwardedFor() {
        let headers: HTTPHeaders = ["Forwarded": #"for=6.6.6.6, for="[2001:db8:cafe::17]:4711";proto=https, For=172.16.1.1"#]
        #expect(proxies.client(peer: "10.0.0.2", headers: headers) == "2001:db8:cafe::17")
        // X-Forwarded-For wins when both are there.
        var both = headers
        both.add("X-Forwarded-For", "198.51.100.1")
        #expect(proxies.client(peer: "10.0.0.2", headers: both) == "198.51.100.1")
    }

    @Test func anUntrustedPeersHeadersCountForNothing() {
        #expect(proxies.client(peer: "203.0.113.5", headers: ["X-Forwarded-For": "198.51.100.7"]) == "203.0.113.5")
        #expect(proxies.client(peer: "203.0.113.5", headers: ["Forwarded": "for=198.51.100.7"]) == "203.0.113.5")
    }
}
