import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response as the client needs it: status, headers by lowercased name, body.
struct TransportResponse: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Blocking HTTP over URLSession, for the client's own threads (never the caller's): one session
/// per client, no cache, no cookies. `cancelAll()` ends requests in flight at shutdown.
final class HTTPTransport: @unchecked Sendable {
    private let session: URLSession
    private let lock = NSLock()
    private var tasks: [Int: URLSessionTask] = [:]
    /// Set by `cancelAll`: a request that a delivery thread starts afterwards fails at once
    /// instead of running to its timeout.
    private var cancelled = false

    init(timeout: Duration, connections: Int) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds * 2
        configuration.httpMaximumConnectionsPerHost = max(2, connections)
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func send(_ request: URLRequest) -> Swift.Result<TransportResponse, Failure> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        let task = session.dataTask(with: request) { data, response, error in
            box.set(Self.result(data: data, response: response, error: error))
            done.signal()
        }
        lock.lock()
        if cancelled {
            lock.unlock()
            return .failure(Failure(description: "cancelled: the client is shutting down"))
        }
        tasks[task.taskIdentifier] = task
        lock.unlock()
        task.resume()
        done.wait()
        lock.lock()
        tasks[task.taskIdentifier] = nil
        lock.unlock()
        return box.value ?? .failure(Failure(description: "no response"))
    }

    /// The same, for async callers: the continuation resumes from URLSession's callback, so no
    /// thread of the cooperative pool blocks.
    func send(_ request: URLRequest) async -> Swift.Result<TransportResponse, Failure> {
        await withCheckedContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                continuation.resume(returning: Self.result(data: data, response: response, error: error))
            }
            task.resume()
        }
    }

    private static func result(data: Data?, response: URLResponse?, error: (any Error)?)
        -> Swift.Result<TransportResponse, Failure>
    {
        guard let http = response as? HTTPURLResponse, error == nil else {
            return .failure(Failure(description: error.map { $0.localizedDescription } ?? "no HTTP response"))
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        return .success(TransportResponse(status: http.statusCode, headers: headers, body: data.map { [UInt8]($0) } ?? []))
    }

    func cancelAll() {
        lock.lock()
        cancelled = true
        let running = Array(tasks.values)
        lock.unlock()
        running.forEach { $0.cancel() }
    }

    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Swift.Result<TransportResponse, Failure>?
        func set(_ value: Swift.Result<TransportResponse, Failure>) {
            lock.lock()
            stored = value
            lock.unlock()
        }
        var value: Swift.Result<TransportResponse, Failure>? {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
    }
}
