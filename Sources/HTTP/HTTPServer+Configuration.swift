extension HTTPServer {
    /// Server settings. Every value has a usable default.
    ///
    /// Together they bound what any client can hold: `connectionLimit` connections in all, at most
    /// `connectionLimitPerAddress` of them from one IP address (behind a trusted proxy: requests at
    /// once from one forwarded client address); each for at most `headerTimeout` per request head
    /// and `bodyTimeout` per body and per response, whatever it sends meanwhile, a body also cut
    /// once it averages less than `minBodyRate`;
    /// at most `maxInFlightBodyBytes` of request bodies buffered over all connections; and no body
    /// at all buffered for a request the handler refuses from its head (``HTTPHandler/admit(_:)``).
    public struct Configuration: Sendable {
        /// The IP address to bind (IPv4 dotted or IPv6); `127.0.0.1` unless set.
        public var host: String
        /// The TCP port; 0 lets the kernel pick a free one (read it back from ``HTTPServer/port``).
        public var port: UInt16
        /// Largest request body accepted, in bytes. A larger `Content-Length` is answered 413
        /// before the body is read. A chunked body that grows past the cap is not buffered
        /// further: its rest is read and dropped (up to `drainLimit`, then the connection is
        /// closed) and 413 is answered when it ends (libmicrohttpd 0.9.75 cannot answer in the
        /// middle of a body).
        public var maxBodyBytes: Int
        /// Most connections open at once; further connections are refused.
        public var connectionLimit: Int
        /// Most connections open at once from one IP address; further ones are closed at once. A
        /// trusted proxy's connections are not counted; its clients' requests in flight are, each
        /// under its forwarded address, and one more is answered 429.
        public var connectionLimitPerAddress: Int
        /// Proxies (addresses, or networks as `ADDR/BITS`) whose forwarded client address is taken
        /// (``TrustedProxies``).
        public var trustedProxies: [String]
        /// A connection on which nothing at all is received or sent for this long is closed
        /// (whole seconds, at least one).
        public var connectionTimeout: Duration
        /// Total time for a request head, from the connection's opening or the end of its previous
        /// response; however slowly it trickles in, the connection is closed after this.
        public var headerTimeout: Duration
        /// Total time for a request body (from the end of its head), and again for the client to
        /// take the response.
        public var bodyTimeout: Duration
        /// Bytes of request bodies buffered at once over all connections; a request whose body
        /// does not fit is answered 503 with `Retry-After` before its body is read.
        public var maxInFlightBodyBytes: Int
        /// Bytes a second a request body must average from `minBodyRateGrace` after its head on,
        /// else its connection is closed (0: no minimum; `bodyTimeout` still applies).
        public var minBodyRate: Int
        public var minBodyRateGrace: Duration
        /// `Retry-After` seconds of that 503 (and of the 429 for a forwarded address at its limit).
        public var busyRetryAfter: Int
        /// How much of a refused request's body is read and dropped so that its answer reaches a
        /// client that sends before it reads ("lingering close"); a longer body is not read and
        /// its connection is closed after the answer.
        public var drainLimit: Int
        public var threading: Threading

        public init(host: String = "127.0.0.1", port: UInt16 = 0, maxBodyBytes: Int = 1 << 20,
                    connectionLimit: Int = 1024, connectionLimitPerAddress: Int = 64,
                    connectionTimeout: Duration = .seconds(30), headerTimeout: Duration = .seconds(15),
                    bodyTimeout: Duration = .seconds(60), maxInFlightBodyBytes: Int = 64 << 20,
                    busyRetryAfter: Int = 1, drainLimit: Int = 256 << 10,
                    threading: Threading = .threadPerConnection, trustedProxies: [String] = [],
                    minBodyRate: Int = 1024, minBodyRateGrace: Duration = .seconds(5)) {
            self.host = host
            self.port = port
            self.maxBodyBytes = maxBodyBytes
            self.connectionLimit = connectionLimit
            self.connectionLimitPerAddress = connectionLimitPerAddress
            self.connectionTimeout = connectionTimeout
            self.headerTimeout = headerTimeout
            self.bodyTimeout = bodyTimeout
            self.maxInFlightBodyBytes = maxInFlightBodyBytes
            self.busyRetryAfter = busyRetryAfter
            self.drainLimit = drainLimit
            self.threading = threading
            self.trustedProxies = trustedProxies
            self.minBodyRate = minBodyRate
            self.minBodyRateGrace = minBodyRateGrace
        }

        /// The connection timeout in whole seconds, rounded up.
        var connectionTimeoutSeconds: Int {
            let (seconds, attoseconds) = connectionTimeout.components
            return Int(seconds) + (attoseconds > 0 ? 1 : 0)
        }

        func validate() throws(HTTPError) {
            guard maxBodyBytes >= 0 else {
                throw HTTPError(.invalidConfiguration, "maxBodyBytes must not be negative (got \(maxBodyBytes))")
            }
            guard connectionLimit >= 1, connectionLimit <= Int(UInt32.max) else {
                throw HTTPError(.invalidConfiguration, "connectionLimit must be at least 1 (got \(connectionLimit))")
            }
            guard connectionLimitPerAddress >= 1, connectionLimitPerAddress <= Int(UInt32.max) else {
                throw HTTPError(.invalidConfiguration,
                                "connectionLimitPerAddress must be at least 1 (got \(connectionLimitPerAddress))")
            }
            guard connectionTimeoutSeconds >= 1, connectionTimeoutSeconds <= Int(UInt32.max) else {
                throw HTTPError(.invalidConfiguration, "connectionTimeout must be at least one second")
            }
            guard headerTimeout > .zero, bodyTimeout > .zero else {
                throw HTTPError(.invalidConfiguration, "headerTimeout and bodyTimeout must be positive")
            }
            guard maxInFlightBodyBytes >= maxBodyBytes else {
                throw HTTPError(.invalidConfiguration,
                                "maxInFlightBodyBytes (\(maxInFlightBodyBytes)) must be at least maxBodyBytes (\(maxBodyBytes))")
            }
            guard drainLimit >= 0, busyRetryAfter >= 1 else {
                throw HTTPError(.invalidConfiguration, "drainLimit must not be negative and busyRetryAfter must be at least 1")
            }
            _ = try TrustedProxies(trustedProxies)
            guard minBodyRate >= 0, minBodyRateGrace > .zero else {
                throw HTTPError(.invalidConfiguration, "minBodyRate must not be negative and minBodyRateGrace must be positive")
            }
            if case let .pool(size) = threading.mode, size < 1 || size > 1024 {
                throw HTTPError(.invalidConfiguration, "thread pool size must be 1...1024 (got \(size))")
            }
        }
    }
}
