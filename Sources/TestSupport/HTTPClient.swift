#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import HTTP

/// A small, blocking HTTP/1.1 client over POSIX sockets, for tests: well-formed requests with
/// `send`, and hand-made (malformed, truncated, ambiguous) ones with `sendRaw`. Apps and
/// `menurank simulate` send through MenurankClient; the load generator's raw baseline uses the
/// library's `HTTPConnection`.
///
/// It keeps one keep-alive connection and reuses it; when the server has closed that connection
/// (idle timeout, `Connection: close`), the next request reconnects, and a request that failed on
/// a reused connection before any response byte arrived is sent once more on a fresh one. It
/// reads `Content-Length`, chunked, and read-until-close bodies and skips `1xx` interim
/// responses. Every socket wait is bounded by `timeout`.
///
/// Not thread-safe: use one client per thread.
public final class HTTPClient {
    public let host: String
    public let port: UInt16
    public let timeout: Duration
    /// How many TCP connections this client has opened so far (1 when keep-alive held throughout).
    public private(set) var connectionsOpened = 0

    private var socketDescriptor: Int32 = -1
    private let buffer = ReadBuffer()
    private var receivedAny = false
    private static let maxHeaderBytes = 64 * 1024

    public init(host: String = "127.0.0.1", port: UInt16, timeout: Duration = .seconds(10)) {
        self.host = host
        self.port = port
        self.timeout = timeout
    }

    deinit {
        close()
    }

    /// Whether a connection is currently open.
    public var isConnected: Bool { socketDescriptor >= 0 }

    /// Sends one request and reads its response. Adds `Host`, and `Content-Length` unless
    /// `headers` has a `Content-Length` or `Transfer-Encoding` (then `body` goes out as given, so
    /// a caller can send a chunked body it encoded itself).
    public func send(method: String, path: String, headers: HTTPHeaders = HTTPHeaders(),
                     body: [UInt8] = []) throws(HTTPError) -> HTTPClientResponse {
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if !headers.contains("Host") { head += "Host: \(host):\(port)\r\n" }
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        if !headers.contains("Content-Length"), !headers.contains("Transfer-Encoding"),
           !body.isEmpty || method == "POST" || method == "PUT" || method == "PATCH" {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        bytes.append(contentsOf: body)
        return try exchange(bytes, method: method, retryOnStale: true)
    }

    /// Sends `bytes` exactly as given (a hand-made, possibly malformed request) and reads one
    /// response. With `closeWriting` the sending side is shut down afterwards, telling the server
    /// no more bytes will come. Never retried.
    public func sendRaw(_ bytes: [UInt8], closeWriting: Bool = false) throws(HTTPError) -> HTTPClientResponse {
        try exchange(bytes, method: "GET", retryOnStale: false, closeWriting: closeWriting)
    }

    /// Closes the connection (the next request opens a new one).
    public func close() {
        if socketDescriptor >= 0 {
            _ = Glibc.close(socketDescriptor)
            socketDescriptor = -1
        }
        buffer.reset()
    }

    private func exchange(_ bytes: [UInt8], method: String, retryOnStale: Bool,
                          closeWriting: Bool = false) throws(HTTPError) -> HTTPClientResponse {
        let reused = isConnected
        if !reused { try connect() }
        receivedAny = false
        var writeError: HTTPError?
        do {
            try writeAll(bytes)
            if closeWriting { shutdown(socketDescriptor, Int32(SHUT_WR)) }
        } catch {
            // The server may have answered early (413 before the body) and closed: read anyway.
            writeError = error
        }
        do {
            let response = try readResponse(method: method)
            if writeError != nil || closeWriting { close() }
            return response
        } catch {
            let stale = reused && !receivedAny && retryOnStale
                && (error.kind == .connectionClosed || error.kind == .ioFailed)
            close()
            if stale { return try exchange(bytes, method: method, retryOnStale: false, closeWriting: closeWriting) }
            throw writeError ?? error
        }
    }

    private func connect() throws(HTTPError) {
        // A numeric host only (no name resolution), as the tests use.
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let address = list else {
            throw HTTPError(.invalidConfiguration, "host \(host) is not an IP address")
        }
        defer { freeaddrinfo(list) }
        let descriptor = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Self.failure(.ioFailed, "socket") }
        var time = Self.timeval(timeout)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let status = Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen)
        guard status == 0 else {
            let code = errno
            _ = Glibc.close(descriptor)
            let kind: HTTPError.Kind = (code == EINPROGRESS || code == ETIMEDOUT || code == EAGAIN) ? .timedOut : .connectFailed
            throw HTTPError(kind, "connect to \(host):\(port): \(Self.errorText(code))")
        }
        socketDescriptor = descriptor
        connectionsOpened += 1
        buffer.reset()
    }

    private func writeAll(_ bytes: [UInt8]) throws(HTTPError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(socketDescriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { throw HTTPError(.timedOut, "send timed out") }
                if code == EPIPE || code == ECONNRESET { throw HTTPError(.connectionClosed, "send: \(Self.errorText(code))") }
                throw HTTPError(.ioFailed, "send: \(Self.errorText(code))")
            }
            offset += written
        }
    }

    /// Reads more bytes into the buffer; false at end of stream.
    private func fill() throws(HTTPError) -> Bool {
        while true {
            let received = buffer.receive(from: socketDescriptor)
            if received < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { throw HTTPError(.timedOut, "no response within \(timeout)") }
                if code == ECONNRESET { throw HTTPError(.connectionClosed, "recv: \(Self.errorText(code))") }
                throw HTTPError(.ioFailed, "recv: \(Self.errorText(code))")
            }
            if received > 0 { receivedAny = true }
            return received > 0
        }
    }

    /// Reads up to and including the next CRLF; the line without it.
    private func readLine(limit: Int) throws(HTTPError) -> [UInt8] {
        var scanned = 0
        while true {
            if let offset = buffer.crlfOffset(from: scanned) {
                let line = buffer.take(offset)
                buffer.skip(2)
                return line
            }
            scanned = buffer.readableCount
            if scanned > limit { throw HTTPError(.malformedResponse, "line longer than \(limit) bytes") }
            guard try fill() else { throw HTTPError(.connectionClosed, "connection closed before a full response") }
        }
    }

    /// Reads exactly `count` body bytes, appending them to `body`.
    private func readBytes(_ count: Int, into body: inout [UInt8]) throws(HTTPError) {
        body.reserveCapacity(body.count + count)
        var missing = count
        while true {
            missing -= buffer.take(missing, into: &body)
            if missing == 0 { return }
            guard try fill() else { throw HTTPError(.connectionClosed, "connection closed inside the body") }
        }
    }

    private func readResponse(method: String) throws(HTTPError) -> HTTPClientResponse {
        while true {
            let statusLine = String(decoding: try readLine(limit: Self.maxHeaderBytes), as: UTF8.self)
            let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...999).contains(status) else {
                throw HTTPError(.malformedResponse, "bad status line \(statusLine.debugDescription)")
            }
            let reason = parts.count > 2 ? String(parts[2]) : ""
            var headers = HTTPHeaders()
            var headerBytes = 0
            while true {
                let line = try readLine(limit: Self.maxHeaderBytes)
                if line.isEmpty { break }
                headerBytes += line.count
                guard headerBytes <= Self.maxHeaderBytes, let colon = line.firstIndex(of: 0x3A) else {
                    throw HTTPError(.malformedResponse, "bad header line")
                }
                let name = String(decoding: line[..<colon], as: UTF8.self)
                let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpacesAndTabs()
                headers.add(name, value)
            }
            if status < 200 { continue }
            let body: [UInt8]
            let chunked = headers["Transfer-Encoding"]?.lowercased().contains("chunked") ?? false
            if method == "HEAD" || status == 204 || status == 304 {
                body = []
            } else if chunked {
                body = try readChunkedBody()
            } else if let lengthText = headers["Content-Length"] {
                guard let length = Int(lengthText), length >= 0 else {
                    throw HTTPError(.malformedResponse, "bad Content-Length \(lengthText)")
                }
                var bytes: [UInt8] = []
                try readBytes(length, into: &bytes)
                body = bytes
            } else {
                var bytes: [UInt8] = []
                repeat {
                    _ = buffer.take(buffer.readableCount, into: &bytes)
                } while try fill()
                body = bytes
                close()
            }
            let connection = headers["Connection"]?.lowercased() ?? ""
            if connection.contains("close") || (parts[0] == "HTTP/1.0" && !connection.contains("keep-alive")) {
                close()
            }
            return HTTPClientResponse(status: status, reason: reason, headers: headers, body: body)
        }
    }

    private func readChunkedBody() throws(HTTPError) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = String(decoding: try readLine(limit: 1024), as: UTF8.self)
            let sizeText = line.split(separator: ";", maxSplits: 1).first.map(String.init)?.trimmingSpacesAndTabs() ?? ""
            guard let size = Int(sizeText, radix: 16), size >= 0 else {
                throw HTTPError(.malformedResponse, "bad chunk size \(line.debugDescription)")
            }
            if size == 0 {
                // Trailers, up to the empty line.
                while try !readLine(limit: Self.maxHeaderBytes).isEmpty {}
                return body
            }
            try readBytes(size, into: &body)
            guard try readLine(limit: 2).isEmpty else { throw HTTPError(.malformedResponse, "chunk not followed by CRLF") }
        }
    }

    private static func timeval(_ duration: Duration) -> Glibc.timeval {
        let (seconds, attoseconds) = duration.components
        return Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }

    private static func failure(_ kind: HTTPError.Kind, _ call: String) -> HTTPError {
        HTTPError(kind, "\(call): \(errorText(errno))")
    }

    private static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// One client per thread: the connection and its buffer are not shared.
@available(*, unavailable)
extension HTTPClient: Sendable {}
