import Dispatch
import Locking

/// A bounded pool of connections, lent for a scope.
///
/// ```swift
/// let pool = PostgresPool(configuration: .init(conninfo: url, maxConnections: 8))
/// let count = try pool.withConnection { conn in
///     try conn.query("select count(*) from apps").first!.decode(Int.self, at: 0)
/// }
/// ```
///
/// Connections open lazily, on demand. When all are lent, a borrower waits up to
/// `leaseTimeout`, then gets a `.poolTimeout` error. A connection that comes back broken (the
/// body threw a connection-class error, or libpq reports it dead) is dropped; an idle one is
/// checked without blocking before it is lent, so after a server restart the pool reconnects
/// instead of handing out dead connections. All blocking work (connecting, checking) happens
/// on the borrower's thread outside the pool's lock.
public final class PostgresPool: Sendable {
    public struct Configuration: Sendable {
        /// URL or conninfo; `nil` or empty uses libpq's `PG*` environment variables.
        public var conninfo: String?
        /// Extra libpq keywords for every connection (see `PostgresConnection.init`).
        public var parameters: [String: String]
        public var maxConnections: Int
        /// How long a borrower waits for a free connection.
        public var leaseTimeout: Duration

        public init(
            conninfo: String? = nil, parameters: [String: String] = [:], maxConnections: Int = 10,
            leaseTimeout: Duration = .seconds(10)
        ) {
            self.conninfo = conninfo
            self.parameters = parameters
            self.maxConnections = maxConnections
            self.leaseTimeout = leaseTimeout
        }
    }

    /// Counters for metrics.
    public struct Statistics: Equatable, Sendable {
        /// Connections open or being opened.
        public var size: Int
        /// Connections lent out.
        public var inUse: Int
        public var idle: Int
        /// Borrowers waiting for a connection.
        public var waiting: Int

        public init(size: Int, inUse: Int, idle: Int, waiting: Int) {
            self.size = size
            self.inUse = inUse
            self.idle = idle
            self.waiting = waiting
        }
    }

    private enum Delivery {
        case connection(PoolStateMachine.ConnectionID, PostgresConnection)
        case connect(PoolStateMachine.ConnectionID)
        case failure(PoolStateMachine.Failure)
    }

    private struct State {
        var machine: PoolStateMachine
        var connections: [PoolStateMachine.ConnectionID: PostgresConnection] = [:]
        var waiters: [PoolStateMachine.RequestID: DispatchSemaphore] = [:]
        var deliveries: [PoolStateMachine.RequestID: Delivery] = [:]
        var nextRequest = 0

        /// Carries out actions; returns connections to close once the lock is released.
        mutating func apply(_ actions: [PoolStateMachine.Action]) -> [PostgresConnection] {
            var closing: [PostgresConnection] = []
            for action in actions {
                switch action {
                case .lend(let id, let request):
                    deliver(.connection(id, connections[id]!), to: request)
                case .connect(let id, let request):
                    deliver(.connect(id), to: request)
                case .fail(let request, let failure):
                    deliver(.failure(failure), to: request)
                case .close(let id):
                    if let connection = connections.removeValue(forKey: id) { closing.append(connection) }
                }
            }
            return closing
        }

        mutating func deliver(_ delivery: Delivery, to request: PoolStateMachine.RequestID) {
            deliveries[request] = delivery
            waiters.removeValue(forKey: request)?.signal()
        }
    }

    public let configuration: Configuration
    private let state: Locked<State>

    public init(configuration: Configuration) {
        self.configuration = configuration
        state = Locked(State(machine: PoolStateMachine(maxConnections: configuration.maxConnections)))
    }

    /// Lends a connection to `body` and takes it back afterwards.
    /// - Throws: `PostgresError` of kind `.poolTimeout`, `.poolClosed` or `.connection`
    ///   (opening a connection failed), or whatever `body` throws.
    @discardableResult
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let (id, connection) = try lease()
        let value: T
        do {
            value = try body(connection)
        } catch {
            giveBack(id, connection, broken: (error as? PostgresError)?.isConnectionError ?? false)
            throw error
        }
        giveBack(id, connection, broken: false)
        return value
    }

    /// `withConnection` and `PostgresConnection.withTransaction` in one.
    @discardableResult
    public func withTransaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnection { connection in try connection.withTransaction(body) }
    }

    /// The counters right now.
    public var statistics: Statistics {
        let counts = state.withLock { $0.machine.statistics }
        return Statistics(size: counts.size, inUse: counts.inUse, idle: counts.idle, waiting: counts.waiting)
    }

    /// Closes idle connections now and lent ones when they come back; later leases fail
    /// with `.poolClosed`, and so do borrowers waiting now.
    public func close() {
        handle { $0.machine.close() }
    }

    /// Feeds one event to the state machine under the lock and carries out its actions. The
    /// connections it closes are released (`PQfinish`) here, after the lock is given up.
    private func handle(_ event: (inout State) -> [PoolStateMachine.Action]) {
        let closing = state.withLock { state in state.apply(event(&state)) }
        withExtendedLifetime(closing) {}
    }

    private func lease() throws -> (PoolStateMachine.ConnectionID, PostgresConnection) {
        let semaphore = DispatchSemaphore(value: 0)
        let request = state.withLock { state in
            let request = state.nextRequest
            state.nextRequest += 1
            state.waiters[request] = semaphore
            let closing = state.apply(state.machine.leaseRequested(request))
            precondition(closing.isEmpty, "a lease request never closes connections")
            return request
        }
        let (seconds, attoseconds) = configuration.leaseTimeout.components
        let nanoseconds = max(0, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        let deadline = DispatchTime.now() + .nanoseconds(nanoseconds)
        while true {
            if semaphore.wait(timeout: deadline) == .timedOut {
                handle { $0.machine.timedOut(request) }
                // Served meanwhile or failed just now: either way a delivery is there.
                semaphore.wait()
            }
            let delivery = state.withLock { state in
                state.waiters[request] = semaphore
                return state.deliveries.removeValue(forKey: request)!
            }
            switch delivery {
            case .connection(let id, let connection):
                if connection.isAlive {
                    state.withLock { state in _ = state.waiters.removeValue(forKey: request) }
                    return (id, connection)
                }
                handle { $0.machine.lentConnectionDead(id, request: request) }
            case .connect(let id):
                do {
                    let connection = try PostgresConnection(configuration.conninfo, parameters: configuration.parameters)
                    handle { state in
                        state.connections[id] = connection
                        return state.machine.connectSucceeded(id)
                    }
                } catch {
                    handle { state in
                        state.waiters.removeValue(forKey: request)
                        return state.machine.connectFailed(id)
                    }
                    throw error
                }
            case .failure(.timeout):
                state.withLock { state in _ = state.waiters.removeValue(forKey: request) }
                let counts = statistics
                throw PostgresError(
                    kind: .poolTimeout,
                    message: "no connection became free within \(configuration.leaseTimeout) (pool of \(configuration.maxConnections), \(counts.inUse) in use, \(counts.waiting) waiting)")
            case .failure(.closed):
                state.withLock { state in _ = state.waiters.removeValue(forKey: request) }
                throw PostgresError(kind: .poolClosed, message: "the pool is closed")
            }
        }
    }

    private func giveBack(_ id: PoolStateMachine.ConnectionID, _ connection: PostgresConnection, broken: Bool) {
        var broken = broken || !connection.isUsable
        if !broken && connection.isInTransaction {
            // The borrower left a transaction open: never hand that to the next one.
            connection.rollbackKeepingError()
            broken = !connection.isUsable
        }
        handle { broken ? $0.machine.connectionBroken(id) : $0.machine.connectionReturned(id) }
    }
}
