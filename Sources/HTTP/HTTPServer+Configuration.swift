extension HTTPServer {
    /// Server settings. Every value has a usable default.
    public struct Configuration: Sendable {
        /// The IP address to bind (IPv4 dotted or IPv6); `127.0.0.1` unless set.
        public var host: String
        /// The TCP port; 0 lets the kernel pick a free one (read it back from ``HTTPServer/port``).
        public var port: UInt16
        /// Largest request body accepted, in bytes. A larger `Content-Length` is answered 413 at
        /// once, before any of the body is read (and the connection is closed). A chunked body
        /// that grows past the cap is never buffered further: the handler is not called, the
        /// rest of the body is read and dropped and 413 is answered when it ends (libmicrohttpd
        /// 0.9.75 cannot answer in the middle of a body); a body that runs on for more than
        /// `max(4 * maxBodyBytes, 1 MiB)` past that point gets its connection closed instead.
        public var maxBodyBytes: Int
        /// Most connections open at once; further connections are refused.
        public var connectionLimit: Int
        /// An idle connection is closed after this long (whole seconds, at least one).
        public var connectionTimeout: Duration
        public var threading: Threading

        public init(host: String = "127.0.0.1", port: UInt16 = 0, maxBodyBytes: Int = 1 << 20,
                    connectionLimit: Int = 1024, connectionTimeout: Duration = .seconds(30),
                    threading: Threading = .threadPerConnection) {
            self.host = host
            self.port = port
            self.maxBodyBytes = maxBodyBytes
            self.connectionLimit = connectionLimit
            self.connectionTimeout = connectionTimeout
            self.threading = threading
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
            guard connectionTimeoutSeconds >= 1, connectionTimeoutSeconds <= Int(UInt32.max) else {
                throw HTTPError(.invalidConfiguration, "connectionTimeout must be at least one second")
            }
            if case let .pool(size) = threading.mode, size < 1 || size > 1024 {
                throw HTTPError(.invalidConfiguration, "thread pool size must be 1...1024 (got \(size))")
            }
        }
    }
}
