#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The proxies whose word on the client's address is taken (`--trusted-proxy`), and that word.
///
/// Behind a reverse proxy every connection comes from the proxy, so limits per address would
/// count all clients as one. A request whose connection comes from a trusted proxy is counted
/// under the client address the proxy forwarded instead: the right-most entry of
/// `X-Forwarded-For` that is not itself a trusted proxy (every proxy appends the address it got
/// the request from, so entries left of the first untrusted one could be made up by the client),
/// or, without that header, the same in `Forwarded` (RFC 7239, its `for=` parameters). Without
/// either, or when none is an address, the proxy's own address stands. A request from any other
/// peer is counted under the peer's address, whatever it says in those headers.
///
/// Entries are IPv4 or IPv6 addresses, or networks in CIDR notation (`10.0.0.0/8`,
/// `fd00::/8`): a container network's proxy has no fixed address.
public struct TrustedProxies: Sendable, Equatable {
    /// One address or network: its bytes (4 or 16) and how many leading bits must match.
    struct Network: Sendable, Equatable {
        var bytes: [UInt8]
        var prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var bits = prefix
            for (a, b) in zip(address, bytes) {
                if bits <= 0 { return true }
                let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
                if a & mask != b & mask { return false }
                bits -= 8
            }
            return true
        }
    }

    let networks: [Network]

    /// Parses each entry; throws naming the first that is neither an address nor a network.
    public init(_ entries: [String]) throws(HTTPError) {
        networks = try entries.map { (entry) throws(HTTPError) -> Network in
            let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bytes = Self.bytes(of: String(parts[0])) else {
                throw HTTPError(.invalidConfiguration, "trusted proxy \(entry) is not an IP address or a network (ADDR/BITS)")
            }
            var prefix = bytes.count * 8
            if parts.count == 2 {
                guard let bits = Int(parts[1]), (0...prefix).contains(bits) else {
                    throw HTTPError(.invalidConfiguration, "trusted proxy \(entry): the prefix must be 0-\(prefix) bits")
                }
                prefix = bits
            }
            return Network(bytes: bytes, prefix: prefix)
        }
    }

    public var isEmpty: Bool { networks.isEmpty }

    /// Whether `address` (as text) is one of the trusted proxies.
    public func contains(_ address: String) -> Bool {
        guard !networks.isEmpty, let bytes = Self.bytes(of: address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// The address a request is counted under: the forwarded client's when `peer` is trusted (see
    /// the type's notes), else `peer`.
    public func client(peer: String, headers: HTTPHeaders) -> String {
        guard contains(peer) else { return peer }
        let forwardedFor = headers.values(for: "X-Forwarded-For")
        let entries: [String]
        if !forwardedFor.isEmpty {
            entries = forwardedFor.flatMap { $0.split(separator: ",") }.map { Self.trim($0) }
        } else {
            entries = headers.values(for: "Forwarded").flatMap { $0.split(separator: ",") }.compactMap { Self.forParameter($0) }
        }
        for entry in entries.reversed() {
            guard let address = Self.address(in: entry) else { return peer }  // garbage: not to be skipped over
            if !contains(address) { return address }
        }
        return entries.first.flatMap { Self.address(in: $0) } ?? peer
    }

    /// An address as `inet_ntop` writes it (so one address has one text), or nil. An IPv4-mapped
    /// IPv6 address is written as the IPv4 one.
    public static func canonical(_ text: String) -> String? {
        guard let bytes = bytes(of: text) else { return nil }
        return self.text(of: bytes)
    }

    /// The address in one forwarded entry: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`,
    /// `[2001:db8::1]:4711`, quoted or not; canonical text.
    static func address(in entry: String) -> String? {
        var text = entry
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            text = String(text[text.index(after: text.startIndex)..<close])
        } else if text.filter({ $0 == ":" }).count == 1 {
            text = String(text.prefix { $0 != ":" })
        }
        return canonical(text)
    }

    /// The value of the `for` parameter of one `Forwarded` element, if any.
    static func forParameter(_ element: Substring) -> String? {
        for pair in element.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, trim(parts[0]).lowercased() == "for" { return trim(parts[1]) }
        }
        return nil
    }

    static func trim(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// The 4 or 16 bytes of an IP address's text (an IPv4-mapped IPv6 address gives 4).
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }

    static func text(of bytes: [UInt8]) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count)) }
        return written == nil ? nil : String(cString: buffer)
    }
}
