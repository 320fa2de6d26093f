import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response as the client needs it: status, headers by lowercased name, body.
package struct TransportResponse: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: [UInt8]

    package func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A request as the delivery threads make it: the body stays bytes until a transport needs more.
struct TransportRequest {
    var method: String
    var url: URL
    var headers: [(name: String, value: String)]
    var body: [UInt8]
}

/// Blocking HTTP for the client's own threads (never the caller's).
///
/// - `https://` (and everything with `.urlSession`, and every endpoint on Apple platforms):
///   URLSession, one session per client, no cache, no cookies.
/// - `http://` on Linux with `.automatic`: a pool of the library's own keep-alive connections
///   (`HTTPConnection`), one per delivery thread. URLSession there is swift-corelibs-foundation's:
///   libcurl's multi interface driven by dispatch sources, so every request hops between four
///   threads and cost the load generator about 3 ms of CPU (measured in docs/benchmarks.md,
///   "Delivery through MenurankClient").
///
/// `cancelAll()` ends requests in flight at shutdown, on either path.
final class HTTPTransport: @unchecked Sendable {
    private let configuration: URLSessionConfiguration
    /// Made on first use (under `lock`): a client that sends over its own connections and never
    /// fetches menus makes none (on Linux a session costs a libcurl multi handle and its queues).
    private var madeSession: URLSession?
    private let lock = NSLock()
    private var tasks: [Int: URLSessionTask] = [:]
    /// Set by `cancelAll`: a request that a delivery thread starts afterwards fails at once
    /// instead of running to its timeout.
    private var cancelled = false
    /// Where the own connections go (nil: URLSession for everything).
    private let plainHost: (host: String, port: UInt16)?
    private let timeout: Duration
    private var idle: [HTTPConnection] = []
    private var busy: [ObjectIdentifier: HTTPConnection] = [:]
    private var lastTarget: (URL, String)?

    init(endpoint: URL, timeout: Duration, connections: Int, kind: MenurankConfiguration.Transport) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds * 2
        configuration.httpMaximumConnectionsPerHost = max(2, connections)
        self.configuration = configuration
        self.timeout = timeout
        plainHost = Self.usesOwnConnections(endpoint, kind) ? endpoint.host.map { ($0, UInt16(endpoint.port ?? 80)) } : nil
    }

    deinit {
        madeSession?.invalidateAndCancel()
    }

    private var session: URLSession {
        lock.lock()
        defer { lock.unlock() }
        if let madeSession { return madeSession }
        let session = URLSession(configuration: configuration)
        madeSession = session
        return session
    }

    /// Whether requests to `endpoint` go over the library's own connections.
    static func usesOwnConnections(_ endpoint: URL, _ kind: MenurankConfiguration.Transport) -> Bool {
        #if canImport(FoundationNetworking)
        return kind == .automatic && endpoint.scheme?.lowercased() == "http" && endpoint.host != nil
            && (endpoint.port ?? 80) > 0 && (endpoint.port ?? 80) <= Int(UInt16.max)
        #else
        return false
        #endif
    }

    /// Whether this transport sends over its own connections.
    var usesOwnConnections: Bool { plainHost != nil }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    func send(_ request: TransportRequest) -> Swift.Result<TransportResponse, Failure> {
        if let plainHost { return sendOwn(request, to: plainHost) }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        return send(blocking: urlRequest)
    }

    private func sendOwn(_ request: TransportRequest, to server: (host: String, port: UInt16))
        -> Swift.Result<TransportResponse, Failure>
    {
        lock.lock()
        if cancelled {
            lock.unlock()
            return .failure(Failure(description: "cancelled: the client is shutting down"))
        }
        let connection = idle.popLast() ?? HTTPConnection(host: server.host, port: server.port, timeout: timeout)
        busy[ObjectIdentifier(connection)] = connection
        lock.unlock()
        let target = requestTarget(request.url)
        let result: Swift.Result<TransportResponse, Failure>
        do {
            result = .success(try connection.send(method: request.method, target: target, headers: request.headers,
                                                  body: request.body))
        } catch {
            connection.close()
            result = .failure(Failure(description: error.description))
        }
        lock.lock()
        busy[ObjectIdentifier(connection)] = nil
        if cancelled {
            lock.unlock()
            connection.close()
        } else {
            if connection.isOpen { idle.append(connection) }
            lock.unlock()
        }
        return result
    }

    /// The request target (path and query) of `url`; the last one is kept, since a client posts
    /// to one URL (taking `URLComponents` apart for each request was a tenth of `send`).
    private func requestTarget(_ url: URL) -> String {
        lock.lock()
        if let (known, target) = lastTarget, known == url {
            lock.unlock()
            return target
        }
        lock.unlock()
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        lock.lock()
        lastTarget = (url, target)
        lock.unlock()
        return target
    }

    private func send(blocking request: URLRequest) -> Swift.Result<TransportResponse, Failure> {
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

    /// The same, for async callers (the menus, always over URLSession): the continuation resumes
    /// from URLSession's callback, so no thread of the cooperative pool blocks.
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
        busy.values.forEach { $0.interrupt() }
        let open = idle
        idle = []
        lock.unlock()
        running.forEach { $0.cancel() }
        open.forEach { $0.close() }
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
