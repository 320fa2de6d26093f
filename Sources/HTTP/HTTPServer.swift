import CMicroHTTPD
import Foundation
import Locking

/// An HTTP/1.1 server on libmicrohttpd.
///
/// The handler is asked to admit each request once its head has arrived, and called once the whole
/// body has arrived, on the connection's own thread (see ``Threading``); it may block. Ambiguous
/// framing is answered 400/501 and the connection closed (``RequestFraming``); bodies over
/// ``Configuration/maxBodyBytes`` are answered 413, and bodies that do not fit the in-flight budget
/// 503, by the server itself; other malformed requests are answered by libmicrohttpd; a response
/// the server cannot send as given (status out of range, a header with a line break) becomes a
/// 500. Every response carries `X-Request-Id`. Per-address connection limits and total-time
/// deadlines (``Configuration``) keep one client from holding the server.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 0)) { request in .text("hello") }
/// let port = try server.start()
/// ...
/// server.shutdown(gracePeriod: .seconds(10))
/// ```
public final class HTTPServer: Sendable {
    private struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private enum State: Sendable {
        case idle
        case running(Daemon, port: UInt16)
        case stopped
    }

    public let configuration: Configuration
    private let core: ServerCore
    private let state = Locked<State>(.idle)

    public init(configuration: Configuration = Configuration(), handler: any HTTPHandler) {
        self.configuration = configuration
        core = ServerCore(handler: handler, configuration: configuration)
    }

    public convenience init(configuration: Configuration = Configuration(),
                            handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.init(configuration: configuration, handler: ClosureHandler(handler))
    }

    deinit {
        shutdown(gracePeriod: .zero)
    }

    /// The bound port while running (the real one when port 0 was configured), else 0.
    public var port: UInt16 {
        state.withLock { state in
            if case let .running(_, port) = state { return port }
            return 0
        }
    }

    /// Requests received and not yet completed.
    public var inFlightRequests: Int { core.inFlight.current }

    /// Connections open now.
    public var openConnections: Int { core.watchdog.count }

    /// Connections closed for passing their header, body or response deadline, since the start.
    public var expiredConnections: Int { core.watchdog.expired.load(ordering: .relaxed) }

    /// Connections closed for a body slower than ``Configuration/minBodyRate``, since the start
    /// (counted in ``expiredConnections`` too).
    public var slowBodyConnections: Int { core.watchdog.tooSlow.load(ordering: .relaxed) }

    /// Connections shut down as they opened, their address holding its limit, since the start.
    public var refusedConnections: Int { core.refusedConnections.load(ordering: .relaxed) }

    /// Bytes of request bodies reserved now (see ``Configuration/maxInFlightBodyBytes``).
    public var bodyBytesInFlight: Int { core.budget.inUse }

    /// Binds and starts serving; returns the bound port. A server starts once: starting it again,
    /// or after a stop, throws `invalidConfiguration`.
    @discardableResult
    public func start() throws(HTTPError) -> UInt16 {
        try configuration.validate()
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        return try state.withLock { (state) throws(HTTPError) -> UInt16 in
            guard case .idle = state else { throw HTTPError(.invalidConfiguration, "server already started") }
            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_ITC.rawValue
            var poolSize: UInt32 = 0
            switch configuration.threading.mode {
            case .threadPerConnection:
                flags |= MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL.rawValue
            case let .pool(size):
                flags |= MHD_USE_EPOLL.rawValue
                poolSize = UInt32(size)
            }
            if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
            let context = Unmanaged.passUnretained(core).toOpaque()
            let started = address.withSockaddr { sockaddr, _ in
                menurank_mhd_start(flags, sockaddr, Self.accessCallback, context, Self.completedCallback, context,
                                   UInt32(configuration.connectionLimit),
                                   UInt32(configuration.connectionTimeoutSeconds), poolSize,
                                   0, Self.connectionCallback, Self.acceptCallback)  // per address: `core` counts
            }
            guard let daemon = started else {
                throw HTTPError(.startFailed, "libmicrohttpd could not listen on \(configuration.host):\(configuration.port)")
            }
            let port = menurank_mhd_bind_port(daemon)
            core.watchdog.start()
            state = .running(Daemon(pointer: daemon), port: port)
            return port
        }
    }

    /// Stops gracefully, waiting up to ten seconds for requests in flight.
    public func stop() {
        shutdown(gracePeriod: .seconds(10))
    }

    /// Stops accepting connections at once (the listening socket is closed), lets requests in
    /// flight finish and send their responses (with `Connection: close`) for up to
    /// `gracePeriod`, then closes every connection. Returns true when no request was still in
    /// flight at the end of the grace period. Handlers still running then are waited for (they
    /// run on connection threads the daemon joins) but their responses are not sent. Calling it
    /// again, or before `start()`, does nothing and returns true. Never call it from inside a
    /// handler: it waits for the handler's own connection thread.
    @discardableResult
    public func shutdown(gracePeriod: Duration) -> Bool {
        let daemon = state.withLock { state -> Daemon? in
            guard case let .running(daemon, _) = state else {
                state = .stopped
                return nil
            }
            state = .stopped
            return daemon
        }
        guard let daemon else { return true }
        core.stopping.store(true, ordering: .relaxed)
        let listener = MHD_quiesce_daemon(daemon.pointer)
        if listener >= 0 { close(listener) }
        let (seconds, attoseconds) = gracePeriod.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        let idle = core.inFlight.waitUntilIdle(deadline: deadline)
        MHD_stop_daemon(daemon.pointer)
        core.watchdog.stop()
        return idle
    }

    private static let accessCallback: MHD_AccessHandlerCallback = {
        cls, connection, url, method, version, uploadData, uploadDataSize, slot in
        guard let cls, let connection, let url, let method, let uploadDataSize, let slot else { return .NO }
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        return core.access(connection: connection, url: url, method: method, version: version, uploadData: uploadData,
                           uploadDataSize: uploadDataSize, slot: slot)
    }

    private static let completedCallback: MHD_RequestCompletedCallback = { cls, connection, slot, _ in
        guard let cls, let slot else { return }
        Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().completed(connection: connection, slot: slot)
    }

    private static let acceptCallback: MHD_AcceptPolicyCallback = { cls, address, _ in
        guard let cls else { return .YES }
        return Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().accepts(address) ? .YES : .NO
    }

    private static let connectionCallback: MHD_NotifyConnectionCallback = { cls, connection, socketContext, toe in
        guard let cls, let connection, let socketContext else { return }
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        if toe.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED (MHD_CONNECTION_NOTIFY_CLOSED is 1)
            core.connectionStarted(connection, socketContext: socketContext)
        } else {
            core.connectionClosed(socketContext: socketContext)
        }
    }
}
