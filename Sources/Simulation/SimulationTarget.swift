/// Where the simulation sends: `http://HOST:PORT[/PATH]`. Without a path the events endpoint
/// `/v1/events` is used.
public struct SimulationTarget: Sendable, Equatable {
    public var host: String
    public var port: UInt16
    public var path: String

    public init(host: String, port: UInt16, path: String) {
        self.host = host
        self.port = port
        self.path = path
    }

    public init(url: String) throws(SimulationError) {
        let prefix = "http://"
        guard url.hasPrefix(prefix) else {
            throw SimulationError(.invalidURL, "'\(url)' must start with http:// (plain HTTP to a local daemon)")
        }
        let rest = url.dropFirst(prefix.count)
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        guard let colon = authority.lastIndex(of: ":"), let port = UInt16(authority[authority.index(after: colon)...]),
              port > 0
        else {
            throw SimulationError(.invalidURL, "'\(url)' needs an explicit port, as in http://127.0.0.1:8080")
        }
        var host = String(authority[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw SimulationError(.invalidURL, "'\(url)' has no host") }
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
        self.path = path.isEmpty || path == "/" ? "/v1/events" : String(path)
    }
}
