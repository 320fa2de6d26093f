import Testing

@testable import Postgres

@Suite struct PoolStateMachineTests {
    @Test func firstLeaseOpensAConnectionAndGetsIt() {
        var machine = PoolStateMachine(maxConnections: 2)
        #expect(machine.leaseRequested(1) == [.connect(0, for: 1)])
        #expect(machine.statistics == .init(size: 1, inUse: 0, idle: 0, waiting: 0))
        #expect(machine.connectSucceeded(0) == [.lend(0, to: 1)])
        #expect(machine.statistics == .init(size: 1, inUse: 1, idle: 0, waiting: 0))
    }

    @Test func returnedConnectionIsReusedWithoutConnecting() {
        var machine = PoolStateMachine(maxConnections: 2)
        _ = machine.leaseRequested(1)
        _ = machine.connectSucceeded(0)
        #expect(machine.connectionReturned(0) == [])
        #expect(machine.statistics == .init(size: 1, inUse: 0, idle: 1, waiting: 0))
        #expect(machine.leaseRequested(2) == [.lend(0, to: 2)])
    }

    @Test func exhaustedPoolQueuesWaitersFirstComeFirstServed() {
        var machine = PoolStateMachine(maxConnections: 1)
        _ = machine.leaseRequested(1)
        _ = machine.connectSucceeded(0)
        #expect(machine.leaseRequested(2) == [])
        #expect(machine.leaseRequested(3) == [])
        #expect(machine.statistics == .init(size: 1, inUse: 1, idle: 0, waiting: 2))
        #expect(machine.connectionReturned(0) == [.lend(0, to: 2)])
        #expect(machine.connectionReturned(0) == [.lend(0, to: 3)])
        #expect(machine.connectionReturned(0) == [])
        #expect(machine.statistics == .init(size: 1, inUse: 0, idle: 1, waiting: 0))
    }

    @Test func timeoutFailsOnlyARequestStillWaiting() {
        var machine = PoolStateMachine(maxConnections: 1)
        _ = machine.leaseRequested(1)
        _ = machine.connectSucceeded(0)
        _ = machine.leaseRequested(2)
        _ = machine.leaseRequested(3)
        #expect(machine.timedOut(2) == [.fail(2, .timeout)])
        #expect(machine.statistics.waiting == 1)
        #expect(machine.connectionReturned(0) == [.lend(0, to: 3)])
        // Served before its timer fired: the late timeout changes nothing.
        #expect(machine.timedOut(3) == [])
        #expect(machine.statistics == .init(size: 1, inUse: 1, idle: 0, waiting: 0))
    }

    @Test func brokenConnectionIsClosedAndItsSlotGoesToAWaiter() {
        var machine = PoolStateMachine(maxConnections: 1)
        _ = machine.leaseRequested(1)
        _ = machine.connectSucceeded(0)
        _ = machine.leaseRequested(2)
        #expect(machine.connectionBroken(0) == [.close(0), .connect(1, for: 2)])
        #expect(machine.statistics == .init(size: 1, inUse: 0, idle: 0, waiting: 0))
        #expect(machine.connectSucceeded(1) == [.lend(1, to: 2)])
    }

    @Test func brokenConnectionWithoutWaitersShrinksThePool() {
        var machine = PoolStateMachine(maxConnections: 3)
        _ = machine.leaseRequested(1)
        _ = machine.connectSucceeded(0)
        #expect(machine.connectionBroken(0) == [.close(0)])
        #expect(machine.statistics == .init(size: 0, inUse: 0, idle: 0, waiting: 0))
        #expect(machine.leaseRequested(2) == [.connect(1, for: 2)])
    }

    @Test func failedConnectFreesItsSlotForTheNextWaiter() {
        var machine = PoolStateMachine(maxConnections: 1)
        #expect(machine.leaseRequested(1) == [.connect(0, for: 1)])
        #expect(machine.leaseRequested(2) == [])
        #expect(machine.connectFailed(0) == [.connect(1, for: 2)])
        #expect(machine.connectFailed(1) == [])
        #expect(machine.statistics == .init(size: 0, inUse: 0, idle: 0, waiting: 0))
    }

    @Test func deadConnectionFoundAtLendingIsReplacedForTheSameRequest() {
        var machine = PoolStateMachine(maxConnections: 2)
        _ = machine.leaseRequested(1)
        _ = machine.connectSucceeded(0)
        _ = machine.connectionReturned(0)
        #expect(machine.leaseRequested(2) == [.lend(0, to: 2)])
        #expect(machine.lentConnectionDead(0, request: 2) == [.close(0), .connect(1, for: 2)])
        #expect(machine.connectSucceeded(1) == [.lend(1, to: 2)])
        #expect(machine.statistics == .init(size: 1, inUse: 1, idle: 0, waiting: 0))
    }

    @Test func neverOpensMoreThanTheMaximum() {
        var machine = PoolStateMachine(maxConnections: 3)
        var connects = 0
        for request in 0..<10 {
            for action in machine.leaseRequested(request) {
                if case .connect = action { connects += 1 }
            }
        }
        #expect(connects == 3)
        #expect(machine.statistics == .init(size: 3, inUse: 0, idle: 0, waiting: 7))
    }

    @Test func closeClosesIdleFailsWaitersAndLaterLeases() {
        var machine = PoolStateMachine(maxConnections: 2)
        _ = machine.leaseRequested(1)
        _ = machine.connectSucceeded(0)
        _ = machine.leaseRequested(2)
        _ = machine.connectSucceeded(1)
        _ = machine.connectionReturned(1)
        _ = machine.leaseRequested(3)  // takes idle 1
        _ = machine.leaseRequested(4)  // waits
        #expect(machine.close() == [.fail(4, .closed)])
        #expect(machine.connectionReturned(0) == [.close(0)])
        #expect(machine.connectionBroken(1) == [.close(1)])
        #expect(machine.leaseRequested(5) == [.fail(5, .closed)])
        #expect(machine.statistics == .init(size: 0, inUse: 0, idle: 0, waiting: 0))
        #expect(machine.close() == [])
    }

    @Test func closeWhileConnectingClosesTheNewConnection() {
        var machine = PoolStateMachine(maxConnections: 2)
        _ = machine.leaseRequested(1)
        _ = machine.leaseRequested(2)
        _ = machine.connectSucceeded(1)
        _ = machine.connectionReturned(1)
        #expect(machine.close() == [.close(1)])
        #expect(machine.connectSucceeded(0) == [.close(0), .fail(1, .closed)])
    }
}
