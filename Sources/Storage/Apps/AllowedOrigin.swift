/// A browser origin an app allows (sql/0016), in the form a browser sends it in `Origin`: the
/// scheme (`http` or `https`), the host in lower case (a DNS name in ASCII, punycode for an
/// international one; an IPv4 address; or an IPv6 address in brackets) and the port only when it
/// is not the scheme's default. Comparing an `Origin` header with a stored origin is then one
/// string comparison, and `https://Mail.Example.com:443/` given on the command line is stored as
/// `https://mail.example.com`, which is what the browser will send.
public enum AllowedOrigin {
    /// Most origins per app (the table's check constraint says the same).
    public static let maxPerApp = 32

    /// The origin `text` names, normalised, or why it is not one.
    public static func normalize(_ text: String) -> Result<String, StorageError> {
        func refuse(_ why: String) -> Result<String, StorageError> {
            .failure(StorageError(.invalidArgument,
                                  "\(text.prefix(200)) is not an origin (\(why)); give scheme://host[:port], e.g. https://mail.example.com"))
        }
        guard text.utf8.count <= 260 else { return refuse("longer than 260 characters") }
        guard let separator = text.range(of: "://") else { return refuse("no scheme") }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return refuse("the scheme must be http or https") }
        var rest = Substring(text[separator.upperBound...])
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty else { return refuse("no host") }
        guard !rest.contains(where: { "/?#@\\ ".contains($0) }) else {
            return refuse("an origin has no path, query, fragment, user or spaces")
        }
        var host: Substring
        var port: Substring?
        if rest.hasPrefix("[") {
            // An IPv6 literal: hex digits, colons and dots (an IPv4 tail) in brackets.
            guard let close = rest.firstIndex(of: "]") else { return refuse("an unclosed [") }
            host = rest[...close]
            let inner = rest[rest.index(after: rest.startIndex)..<close]
            guard !inner.isEmpty, inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return refuse("a malformed IPv6 address")
            }
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return refuse("text after the IPv6 address") }
                port = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            port = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        let hostText = host.lowercased()
        if !hostText.hasPrefix("[") {
            let labels = hostText.split(separator: ".", omittingEmptySubsequences: false)
            guard hostText.utf8.count <= 253,
                  labels.allSatisfy({ label in
                      (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                          && label.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
                  })
            else { return refuse("the host must be a DNS name in ASCII or an IP address") }
        }
        var portText = ""
        if let port {
            guard let number = Int(port), (1...65535).contains(number), port.allSatisfy(\.isASCII) else {
                return refuse("the port must be 1-65535")
            }
            let isDefault = (scheme == "http" && number == 80) || (scheme == "https" && number == 443)
            if !isDefault { portText = ":\(number)" }
        }
        return .success("\(scheme)://\(hostText)\(portText)")
    }
}
