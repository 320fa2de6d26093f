import Dispatch
import Foundation
import HTTP
import Synchronization
import TestSupport
import Testing

@Suite("Graceful shutdown")
struct GracefulShutdownTests {
    @Test("a stop waits for the in-flight slow request, which still gets its response")
    func waitsForInFlight() async throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let released = Atomic<Bool>(false)
        let server = HTTPServer { request in
            if request.path == "/slow" {
                entered.signal()
                _ = release.wait(timeout: .now() + 20)
                return .text("slow done")
            }
            return .text("fast")
        }
        let port = try server.start()

        async let slow = onThread { try HTTPClient(port: port, timeout: .seconds(20)).send(method: "GET", path: "/slow") }
        // An idle keep-alive connection open during the stop must not hold it up.
        let idleOpened = DispatchSemaphore(value: 0)
        let stopFinished = DispatchSemaphore(value: 0)
        async let idle = onThread { () -> String in
            let client = HTTPClient(port: port)
            let text = try client.send(method: "GET", path: "/").text
            idleOpened.signal()
            _ = stopFinished.wait(timeout: .now() + 30)
            return text
        }
        try await onThread { _ = idleOpened.wait(timeout: .now() + 20) }

        try await onThread { _ = entered.wait(timeout: .now() + 20) }
        async let stopped = onThread { () -> (Bool, Bool) in
            let idleAtEnd = server.shutdown(gracePeriod: .seconds(20))
            return (idleAtEnd, released.load(ordering: .sequentiallyConsistent))
        }

        // New connections are refused once the stop has begun.
        let refused = try await onThread { () -> Bool in
            for _ in 0..<200 {
                do {
                    _ = try HTTPClient(port: port, timeout: .seconds(1)).send(method: "GET", path: "/")
                } catch let error as HTTPError {
                    if error.kind == .connectFailed { return true }
                }
                usleep(10_000)
            }
            return false
        }
        #expect(refused)
        #expect(server.inFlightRequests == 1)

        released.store(true, ordering: .sequentiallyConsistent)
        release.signal()
        let response = try await slow
        #expect(response.status == 200)
        #expect(response.text == "slow done")
        #expect(response.header("Connection")?.lowercased() == "close")
        let (idleAtEnd, sawRelease) = try await stopped
        #expect(idleAtEnd)
        #expect(sawRelease, "shutdown returned before the slow request was let go")
        #expect(server.port == 0)
        stopFinished.signal()
        #expect(try await idle == "fast")
    }

    @Test("a stop with nothing in flight is quick, and stopping twice is harmless")
    func idleStop() throws {
        let server = HTTPServer { _ in .text("x") }
        try server.start()
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(server.shutdown(gracePeriod: .seconds(10))) }
        #expect(elapsed < .seconds(5))
        #expect(server.shutdown(gracePeriod: .seconds(1)))
    }
}
