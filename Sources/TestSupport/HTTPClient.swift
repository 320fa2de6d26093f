#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import HTTP

/// The one HTTP/1.1 client of the tests: blocking, over POSIX sockets. Apps and `menurank
/// simulate` send through MenurankClient; the load generator's raw baseline uses the library's
/// `HTTPConnection`.
///
/// - Well-formed requests with `send`: one keep-alive connection, reused; when the server has
///   closed it (idle timeout, `Connection: close`), the next request reconnects, and a request
///   that failed on a reused connection before any response byte arrived is sent once more on a
///   fresh one. It reads `Content-Length`, chunked and read-until-close bodies and skips `1xx`
///   interim responses. Every socket wait is bounded by `timeout`.
/// - Hand-made (malformed, truncated, ambiguous) requests with `sendRaw`, or with `write` and the
///   byte-level reads after it (`readResponse(timeout:)`, `waitForClose`, `take(upTo:)`,
///   `serverHungUp`, `drain`, `unread`), for tests that send what no well-behaved client sends:
///   heads or bodies that trickle in, connections opened and left idle, a reader that takes its
///   answers slowly. These never reconnect and never close on the server's `Connection: close`,
///   so a test sees whatever the server does next. `connected(...)` opens the connection at once,
///   from a chosen `source` address on the loopback (`127.0.0.2` is another "client address" than
///   `127.0.0.1` on Linux), with a small receive buffer when asked.
///
/// Not thread-safe: use one client per thread.
public final class HTTPClient {
    public let host: String
    public let port: UInt16
    public let timeout: Duration
    /// An IPv4 address to bind before connecting (the connection's client address).
    public let source: String?
    /// The socket's receive buffer size (`SO_RCVBUF`), when set.
    public let receiveBufferBytes: Int?
    /// How many TCP connections this client has opened so far (1 when keep-alive held throughout).
    public private(set) var connectionsOpened = 0
    /// The server ended the current connection (end of stream or reset), as a read found.
    public private(set) var closedByPeer = false

    private var socketDescriptor: Int32 = -1
    private let buffer = ReadBuffer()
    private var receivedAny = false
    /// While set, every wait ends by this monotonic time (one deadline for a whole exchange);
    /// otherwise each wait has `timeout`.
    private var waitDeadline: Double?
    private static let maxHeaderBytes = 64 * 1024

    public init(host: String = "127.0.0.1", port: UInt16, timeout: Duration = .seconds(10), source: String? = nil,
                receiveBufferBytes: Int? = nil) {
        self.host = host
        self.port = port
        self.timeout = timeout
        self.source = source
        self.receiveBufferBytes = receiveBufferBytes
    }

    /// A client whose connection is open already.
    public static func connected(host: String = "127.0.0.1", port: UInt16, timeout: Duration = .seconds(10),
                                 source: String? = nil, receiveBufferBytes: Int? = nil) throws(HTTPError) -> HTTPClient {
        let client = HTTPClient(host: host, port: port, timeout: timeout, source: source,
                                receiveBufferBytes: receiveBufferBytes)
        try client.connect()
        return client
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

    // MARK: Bytes: what no well-behaved client sends

    /// Sends `bytes` as they are and reads nothing; false when the server has closed (EPIPE,
    /// reset) before all went out, when `timeout` passed, or when there is no connection.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard socketDescriptor >= 0 else { return false }
        do {
            try writeAll(bytes)
            return true
        } catch {
            return false
        }
    }

    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Reads one response to what `write` sent, waiting up to `timeout` in all; nil when the
    /// server closed (or nothing came, or not a response) first. The connection stays as the
    /// server left it.
    public func readResponse(timeout: Duration = .seconds(30)) -> HTTPClientResponse? {
        guard socketDescriptor >= 0 else { return nil }
        waitDeadline = Self.now() + Self.seconds(timeout)
        defer { waitDeadline = nil }
        return try? readResponse(method: "GET", closing: false)
    }

    /// Reads until the server closes, up to `timeout`, keeping what it sends (`unread`); true
    /// when it closed.
    public func waitForClose(timeout: Duration = .seconds(30)) -> Bool {
        guard socketDescriptor >= 0 else { return closedByPeer }
        waitDeadline = Self.now() + Self.seconds(timeout)
        defer { waitDeadline = nil }
        while !closedByPeer {
            guard (try? fill()) == true else { break }
        }
        return closedByPeer
    }

    /// Takes at most `count` of the bytes the server has sent, without waiting, and drops them;
    /// how many (0 when none are there). Sets `closedByPeer` at the end of the stream.
    public func take(upTo count: Int) -> Int {
        guard count > 0, socketDescriptor >= 0 else { return 0 }
        if buffer.readableCount > 0 {
            let taken = min(count, buffer.readableCount)
            buffer.skip(taken)
            return taken
        }
        guard !closedByPeer else { return 0 }
        var chunk = [UInt8](repeating: 0, count: count)
        let received = chunk.withUnsafeMutableBytes { recv(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if received > 0 { return received }
        if received == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { closedByPeer = true }
        return 0
    }

    /// True once the server has ended its side of the connection (a FIN or a reset), even while
    /// bytes it sent before are still unread.
    public var serverHungUp: Bool {
        if closedByPeer { return true }
        guard socketDescriptor >= 0 else { return false }
        // POLLRDHUP (Linux; Glibc hides it behind _GNU_SOURCE): the peer shut its writing side.
        let readHangUp: Int16 = 0x2000
        var poller = pollfd(fd: socketDescriptor, events: readHangUp, revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        return poller.revents & (readHangUp | Int16(POLLHUP) | Int16(POLLERR)) != 0
    }

    /// Reads and drops everything until the server closes (or `timeout`); the bytes read,
    /// counting those already received.
    public func drain(timeout: Duration = .seconds(30)) -> Int {
        var total = buffer.readableCount
        buffer.reset()
        guard socketDescriptor >= 0 else { return total }
        waitDeadline = Self.now() + Self.seconds(timeout)
        defer { waitDeadline = nil }
        while (try? fill()) == true {
            total += buffer.readableCount
            buffer.reset()
        }
        return total
    }

    /// Bytes received and not read as a response.
    public var unread: [UInt8] { buffer.readableBytes }

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
            let response = try readResponse(method: method, closing: true)
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

    /// Opens the connection now, if none is open (`send` opens one when it needs to).
    public func connect() throws(HTTPError) {
        guard socketDescriptor < 0 else { return }
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
        // Receiving waits in poll (per wait, or to an exchange's deadline); sending in the kernel.
        var time = Self.timeval(timeout)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if let receiveBufferBytes {
            var size = Int32(receiveBufferBytes)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else {
                _ = Glibc.close(descriptor)
                throw HTTPError(.invalidConfiguration, "source \(source) is not an IPv4 address")
            }
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                _ = Glibc.close(descriptor)
                throw HTTPError(.connectFailed, "bind \(source): \(Self.errorText(code))")
            }
        }
        let status = Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen)
        guard status == 0 else {
            let code = errno
            _ = Glibc.close(descriptor)
            let kind: HTTPError.Kind = (code == EINPROGRESS || code == ETIMEDOUT || code == EAGAIN) ? .timedOut : .connectFailed
            throw HTTPError(kind, "connect to \(host):\(port): \(Self.errorText(code))")
        }
        socketDescriptor = descriptor
        connectionsOpened += 1
        closedByPeer = false
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
        if closedByPeer { return false }
        let deadline = waitDeadline ?? Self.now() + Self.seconds(timeout)
        while true {
            let remaining = deadline - Self.now()
            guard remaining > 0 else { throw HTTPError(.timedOut, "no response within \(timeout)") }
            var poller = pollfd(fd: socketDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0 {
                if errno == EINTR { continue }
                throw Self.failure(.ioFailed, "poll")
            }
            if ready == 0 { continue }
            let received = buffer.receive(from: socketDescriptor)
            if received < 0 {
                let code = errno
                if code == EINTR || code == EAGAIN || code == EWOULDBLOCK { continue }
                if code == ECONNRESET {
                    closedByPeer = true
                    throw HTTPError(.connectionClosed, "recv: \(Self.errorText(code))")
                }
                throw HTTPError(.ioFailed, "recv: \(Self.errorText(code))")
            }
            if received == 0 {
                closedByPeer = true
                return false
            }
            receivedAny = true
            return true
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

    /// One response; with `closing`, the connection is closed when the response says so.
    private func readResponse(method: String, closing: Bool) throws(HTTPError) -> HTTPClientResponse {
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
                if closing { close() }
            }
            let connection = headers["Connection"]?.lowercased() ?? ""
            if closing, connection.contains("close") || (parts[0] == "HTTP/1.0" && !connection.contains("keep-alive")) {
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

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
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
