/// The decisions of `PostgresPool`, with no I/O and no locks: events in, actions out.
///
/// The pool owns at most `maxConnections` connections, counting those being opened. A lease
/// gets an idle connection (most recently returned first), else opens a new one when there is
/// room, else waits in line (first come, first served) until a connection is returned, a slot
/// frees up, or its timeout fires. A broken connection is dropped and its slot goes to the
/// first waiter, who opens a fresh one: that is how the pool recovers after a server restart.
struct PoolStateMachine: Sendable {
    typealias ConnectionID = Int
    typealias RequestID = Int

    enum Failure: Equatable, Sendable {
        case timeout
        case closed
    }

    enum Action: Equatable, Sendable {
        /// Hand `connection` to `request`.
        case lend(ConnectionID, to: RequestID)
        /// `request` opens a new connection, to be known as `connection`.
        case connect(ConnectionID, for: RequestID)
        /// Fail `request`.
        case fail(RequestID, Failure)
        /// Close and forget `connection`.
        case close(ConnectionID)
    }

    struct Statistics: Equatable, Sendable {
        var size: Int
        var inUse: Int
        var idle: Int
        var waiting: Int
    }

    let maxConnections: Int
    private(set) var idle: [ConnectionID] = []
    private(set) var leased: Set<ConnectionID> = []
    /// Connections being opened, and the request each is for.
    private(set) var connecting: [ConnectionID: RequestID] = [:]
    private(set) var waiting: [RequestID] = []
    private(set) var isClosed = false
    private var nextConnectionID = 0

    init(maxConnections: Int) {
        precondition(maxConnections > 0, "a pool needs room for at least one connection")
        self.maxConnections = maxConnections
    }

    var statistics: Statistics {
        Statistics(
            size: idle.count + leased.count + connecting.count, inUse: leased.count, idle: idle.count,
            waiting: waiting.count)
    }

    private var hasRoom: Bool { idle.count + leased.count + connecting.count < maxConnections }

    private mutating func startConnecting(for request: RequestID) -> Action {
        let connection = nextConnectionID
        nextConnectionID += 1
        connecting[connection] = request
        return .connect(connection, for: request)
    }

    /// Gives a free slot or connection to the first waiter, if any.
    private mutating func serveFirstWaiter(with connection: ConnectionID?) -> [Action] {
        guard !waiting.isEmpty else {
            if let connection { idle.append(connection) }
            return []
        }
        let request = waiting.removeFirst()
        if let connection {
            leased.insert(connection)
            return [.lend(connection, to: request)]
        }
        return [startConnecting(for: request)]
    }

    /// A borrower asks for a connection. No action means: wait.
    mutating func leaseRequested(_ request: RequestID) -> [Action] {
        if isClosed { return [.fail(request, .closed)] }
        if let connection = idle.popLast() {
            leased.insert(connection)
            return [.lend(connection, to: request)]
        }
        if hasRoom { return [startConnecting(for: request)] }
        waiting.append(request)
        return []
    }

    /// A new connection is open; it goes to the request that opened it.
    mutating func connectSucceeded(_ connection: ConnectionID) -> [Action] {
        guard let request = connecting.removeValue(forKey: connection) else { return [.close(connection)] }
        if isClosed { return [.close(connection), .fail(request, .closed)] }
        leased.insert(connection)
        return [.lend(connection, to: request)]
    }

    /// Opening failed (the requester reports the error itself); the slot goes to a waiter.
    mutating func connectFailed(_ connection: ConnectionID) -> [Action] {
        guard connecting.removeValue(forKey: connection) != nil, !isClosed else { return [] }
        return serveFirstWaiter(with: nil)
    }

    /// A borrower gives back a healthy connection.
    mutating func connectionReturned(_ connection: ConnectionID) -> [Action] {
        guard leased.remove(connection) != nil else { return [] }
        if isClosed { return [.close(connection)] }
        return serveFirstWaiter(with: connection)
    }

    /// A borrower gives back a broken connection: it is closed and its slot reused.
    mutating func connectionBroken(_ connection: ConnectionID) -> [Action] {
        guard leased.remove(connection) != nil else { return [] }
        if isClosed { return [.close(connection)] }
        return [.close(connection)] + serveFirstWaiter(with: nil)
    }

    /// The connection lent to `request` turned out dead before use: replace it for that request.
    mutating func lentConnectionDead(_ connection: ConnectionID, request: RequestID) -> [Action] {
        guard leased.remove(connection) != nil else { return [] }
        if isClosed { return [.close(connection), .fail(request, .closed)] }
        return [.close(connection), startConnecting(for: request)]
    }

    /// The wait of `request` ran out. Nothing happens if it was served meanwhile.
    mutating func timedOut(_ request: RequestID) -> [Action] {
        guard let index = waiting.firstIndex(of: request) else { return [] }
        waiting.remove(at: index)
        return [.fail(request, .timeout)]
    }

    /// Closes the pool: idle connections close now, leased ones when returned, waiters fail.
    mutating func close() -> [Action] {
        guard !isClosed else { return [] }
        isClosed = true
        let actions = idle.map { Action.close($0) } + waiting.map { Action.fail($0, .closed) }
        idle.removeAll()
        waiting.removeAll()
        return actions
    }
}
