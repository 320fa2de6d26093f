import Foundation
import MenurankClient
import Postgres
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The client while everything around it fails: the daemon SIGKILLed and started again on the same
/// port, PostgreSQL restarted, the app itself killed, all mid-stream, on a scratch cluster of its
/// own (this suite runs alone, after the others: see scripts/test).
@Suite(.enabled(if: TestDatabase.shouldRun && ScratchServer.isPossible, "needs PostgreSQL's server binaries for a scratch cluster"))
struct ClientOutageTests {
    @Test func daemonKilledPostgresRestartedAndTheAppKilledEveryAcceptedEventIsStoredOnce() throws {
        try ScratchServer.with { scratch in
            let daemon = try LiveDaemon(database: scratch.url)
            defer { daemon.stop() }
            let run = ProbeRun(url: daemon.url, key: daemon.writeKey, count: 5000)
            defer { run.cleanUp() }

            var probe = try run.start(paceMicroseconds: 300)
            usleep(400_000)
            // The daemon dies mid-stream (requests in flight are lost: the client retries them).
            daemon.kill9()
            usleep(300_000)
            try daemon.start()
            usleep(400_000)
            // The app dies while the daemon is back.
            probe.signal(SIGKILL)
            _ = probe.wait(timeout: 60)
            probe = try run.start(paceMicroseconds: 300)
            usleep(300_000)
            // PostgreSQL restarts under the daemon: 503 with Retry-After until it is back.
            try scratch.restart()
            usleep(300_000)
            daemon.kill9()
            probe.signal(SIGKILL)
            _ = probe.wait(timeout: 60)
            try daemon.start()
            try run.finish()
            try run.verify(stored: try daemon.query("SELECT latency_ms::text || ' ' || event_id::text FROM events"))
        }
    }
}
