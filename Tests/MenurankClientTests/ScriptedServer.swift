import Dispatch
import Foundation
import HTTP

/// A controllable stand-in for the daemon: it answers `POST /v1/events` as the test's script says
/// and remembers every request (arrival on a monotonic clock, headers, the events' ids).
final class ScriptedServer: @unchecked Sendable {
    struct Request {
        var arrivalNanos: UInt64
        var headers: HTTPHeaders
        var sentAt: String?
        var ids: [String]
        var status: Int
    }

    private final class Log: @unchecked Sendable {
        let lock = NSLock()
        var seen: [Request] = []
    }

    private let log = Log()
    private let server: HTTPServer
    let port: UInt16

    /// `script(n, ids)` answers the n-th request (from 0) carrying the events `ids`.
    init(_ script: @escaping @Sendable (_ n: Int, _ ids: [String]) -> HTTPResponse) throws {
        let log = self.log
        server = HTTPServer(configuration: .init(maxBodyBytes: 8 << 20)) { request in
            var body = request.body
            if request.header("Content-Encoding") == "gzip" { body = (try? Gzip.inflate(body, limit: 64 << 20)) ?? [] }
            let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
            let ids = (object?["events"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            log.lock.lock()
            let n = log.seen.count
            log.seen.append(Request(arrivalNanos: DispatchTime.now().uptimeNanoseconds, headers: request.headers,
                                sentAt: object?["sent_at"] as? String, ids: ids, status: 0))
            log.lock.unlock()
            let response = script(n, ids)
            log.lock.lock()
            log.seen[n].status = response.status
            log.lock.unlock()
            return response
        }
        port = try server.start()
    }

    deinit { server.stop() }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    var requests: [Request] {
        log.lock.lock()
        defer { log.lock.unlock() }
        return log.seen
    }

    static func accepted(_ count: Int, rejected: [(index: Int, code: String)] = []) -> HTTPResponse {
        let list = rejected.map { #"{"index":\#($0.index),"id":"x","code":"\#($0.code)","message":"no"}"# }
        return .json(body: #"{"accepted":\#(count - rejected.count),"duplicates":0,"rejected":[\#(list.joined(separator: ","))],"server_time":"2026-11-29T10:00:00.000Z"}"#)
    }

    static func error(_ status: Int, _ code: String, retryAfter: String? = nil) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let retryAfter { headers.add("Retry-After", retryAfter) }
        return .error(status: status, code: code, message: "scripted", headers: headers)
    }
}
