extension HTTPServer {
    /// How libmicrohttpd runs connections.
    ///
    /// The default, ``threadPerConnection``, gives every connection its own OS thread
    /// (`MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD`, with `poll()` so file
    /// descriptors above `FD_SETSIZE` work). Why: with MHD's own thread pool
    /// (`MHD_OPTION_THREAD_POOL_SIZE`) a connection is bound for its whole life to the pool thread
    /// that accepted it, and under keep-alive many connections end up on the same thread, which
    /// halved throughput in our measurements with 32 keep-alive clients. One thread per connection
    /// leaves the balancing to the kernel scheduler, and since handlers run on the connection's
    /// thread they may block (a database commit) without stalling any other connection. The cost
    /// is one thread (stack reserved lazily) per open connection, bounded by the connection limit.
    public struct Threading: Sendable, Hashable, CustomStringConvertible {
        enum Mode: Sendable, Hashable {
            case threadPerConnection
            case pool(Int)
        }

        let mode: Mode

        /// One OS thread per connection (the default; see above).
        public static let threadPerConnection = Threading(mode: .threadPerConnection)

        /// MHD's epoll thread pool with `size` threads; kept for measurements and comparison.
        /// A handler that blocks stalls every connection of its pool thread.
        public static func threadPool(size: Int) -> Threading {
            Threading(mode: .pool(size))
        }

        public var description: String {
            switch mode {
            case .threadPerConnection: "thread-per-connection"
            case let .pool(size): "thread-pool(\(size))"
            }
        }
    }
}
