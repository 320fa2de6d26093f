import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One TCP connection that speaks bytes, for tests that send what no well-behaved client sends:
/// malformed or ambiguous heads, bodies that trickle in, connections that are opened and left
/// idle, from a chosen source address on the loopback (`127.0.0.2` is another "client address"
/// than `127.0.0.1` on Linux). It reads responses leniently and tells when the server closed.
public final class RawHTTPConnection {
    /// A response as read: status, header fields in order, body (by Content-Length).
    public struct Response: Sendable {
        public let status: Int
        public let headers: [(name: String, value: String)]
        public let body: [UInt8]

        /// The first value of `name` (any case).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private var descriptor: Int32
    private var buffer: [UInt8] = []
    /// The server closed its side (end of stream or reset).
    public private(set) var closedByPeer = false

    /// Connects to `host:port`, from `source` (an IPv4 address to bind first) when given, with a
    /// receive buffer of `receiveBufferBytes` when given (a small one fills at once, so a client
    /// that reads slowly holds the server's response back).
    public init(host: String = "127.0.0.1", port: UInt16, source: String? = nil, receiveBufferBytes: Int? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if let receiveBufferBytes {
            var size = Int32(receiveBufferBytes)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = Self.address(source, port: 0)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let code = errno
                Glibc.close(descriptor)
                throw Failure(description: "bind \(source): errno \(code)")
            }
        }
        var remote = Self.address(host, port: port)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw Failure(description: "connect: errno \(code)")
        }
    }

    deinit { close() }

    public func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Sends every byte; false when the server has closed (EPIPE, reset) before all went out.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads one response, waiting up to `timeout`; nil when the server closed (or nothing came)
    /// before a full response arrived.
    public func readResponse(timeout: Duration = .seconds(30)) -> Response? {
        let deadline = Self.now() + Self.seconds(timeout)
        var headEnd: Int?
        while headEnd == nil {
            headEnd = Self.find([13, 10, 13, 10], in: buffer)
            if headEnd == nil, !fill(until: deadline) { return nil }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        let total = headEnd! + 4 + length
        while buffer.count < total {
            if !fill(until: deadline) { return nil }
        }
        let body = Array(buffer[(headEnd! + 4)..<total])
        buffer.removeFirst(total)
        return Response(status: status, headers: headers, body: body)
    }

    /// Reads (and drops) until the server closes, up to `timeout`; true when it closed.
    public func waitForClose(timeout: Duration = .seconds(30)) -> Bool {
        let deadline = Self.now() + Self.seconds(timeout)
        while !closedByPeer {
            buffer.removeAll(keepingCapacity: true)
            if !fill(until: deadline) { return closedByPeer }
        }
        return true
    }

    /// Takes at most `count` of the bytes the server has sent, without waiting, and drops them;
    /// returns how many (0 when none are there). Sets `closedByPeer` at the end of the stream.
    public func take(upTo count: Int) -> Int {
        guard !closedByPeer, count > 0 else { return 0 }
        var chunk = [UInt8](repeating: 0, count: count)
        let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if received > 0 { return received }
        if received == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { closedByPeer = true }
        return 0
    }

    /// True once the server has ended its side of the connection (a FIN or a reset), even while
    /// bytes it sent before are still unread.
    public var serverHungUp: Bool {
        if closedByPeer { return true }
        // POLLRDHUP (Linux; Glibc hides it behind _GNU_SOURCE): the peer shut its writing side.
        let readHangUp: Int16 = 0x2000
        var poller = pollfd(fd: descriptor, events: readHangUp, revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        return poller.revents & (readHangUp | Int16(POLLHUP) | Int16(POLLERR)) != 0
    }

    /// Reads and drops everything until the server closes (or `timeout`); the bytes read,
    /// counting those already buffered.
    public func drain(timeout: Duration = .seconds(30)) -> Int {
        var total = buffer.count
        let deadline = Self.now() + Self.seconds(timeout)
        buffer.removeAll(keepingCapacity: true)
        while fill(until: deadline) {
            total += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
        return total
    }

    /// Bytes received but not read as a response.
    public var unread: [UInt8] { buffer }

    /// Receives more bytes; false on end of stream, reset or when `deadline` passes.
    private func fill(until deadline: Double) -> Bool {
        guard !closedByPeer else { return false }
        while true {
            let remaining = deadline - Self.now()
            guard remaining > 0 else { return false }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0, errno != EINTR { closedByPeer = true; return false }
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return true
            }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            closedByPeer = true
            return false
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if Array(haystack[index..<(index + needle.count)]) == needle { return index }
        }
        return nil
    }

    private static func address(_ host: String, port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
