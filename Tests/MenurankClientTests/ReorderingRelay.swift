import Dispatch
import Foundation
import HTTP
import TestSupport

/// Stands between a client and the real daemon: forwards each request as it came and passes the
/// daemon's answer back, except that it holds the answer to every other request until the next
/// request's answer has gone back (or for `hold` at most). A client with batches in flight thus
/// gets acknowledgements out of order; `outOfOrder` counts the answers that came back before the
/// answer to a batch recorded earlier (told by the events' UUIDv7 ids).
final class ReorderingRelay: @unchecked Sendable {
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var requests = 0
        var held: [Int: (gate: DispatchSemaphore, firstID: String)] = [:]
        var outOfOrder = 0
    }

    private let state = State()
    private let server: HTTPServer
    let port: UInt16

    init(daemonPort: UInt16, hold: Duration = .seconds(1)) throws {
        let state = self.state
        server = HTTPServer(configuration: .init(maxBodyBytes: 8 << 20)) { request in
            let firstID = Self.firstID(request)
            state.lock.lock()
            let n = state.requests
            state.requests += 1
            let gate = DispatchSemaphore(value: 0)
            if n % 2 == 0 { state.held[n] = (gate, firstID) }
            state.lock.unlock()

            let answer: HTTPClientResponse
            do {
                let daemon = HTTPClient(port: daemonPort, timeout: .seconds(60))
                defer { daemon.close() }
                var headers = HTTPHeaders()
                for name in ["Authorization", "Content-Type", "Content-Encoding"] {
                    if let value = request.header(name) { headers.add(name, value) }
                }
                answer = try daemon.send(method: request.method, path: request.path, headers: headers, body: request.body)
            } catch {
                state.lock.lock()
                state.held[n] = nil
                state.lock.unlock()
                return .error(status: 502, code: "relay", message: "\(error)")
            }
            if n % 2 == 0 {
                // Held until the next request's answer is on its way, then a little longer.
                let seconds = Double(hold.components.seconds) + Double(hold.components.attoseconds) / 1e18
                if gate.wait(timeout: .now() + seconds) == .success { usleep(50_000) }
                state.lock.lock()
                state.held[n] = nil
                state.lock.unlock()
            } else {
                state.lock.lock()
                let earlier = state.held.removeValue(forKey: n - 1)
                if let earlier, earlier.firstID < firstID { state.outOfOrder += 1 }
                state.lock.unlock()
                earlier?.gate.signal()
            }
            var headers = HTTPHeaders()
            for name in ["Content-Type", "Retry-After"] {
                if let value = answer.header(name) { headers.add(name, value) }
            }
            return HTTPResponse(status: answer.status, headers: headers, body: answer.body)
        }
        port = try server.start()
    }

    deinit { server.stop() }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Answers that overtook the answer to an earlier-recorded batch.
    var outOfOrder: Int {
        state.lock.lock()
        defer { state.lock.unlock() }
        return state.outOfOrder
    }

    /// The first event id of a `POST /v1/events` body ("" when there is none).
    private static func firstID(_ request: HTTPRequest) -> String {
        var body = request.body
        if request.header("Content-Encoding") == "gzip" { body = (try? Gzip.inflate(body, limit: 64 << 20)) ?? [] }
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        return ((object?["events"] as? [[String: Any]])?.first?["id"] as? String) ?? ""
    }
}
