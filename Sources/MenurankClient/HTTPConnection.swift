#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// One keep-alive HTTP/1.1 connection over a blocking POSIX socket, for plain `http://`
/// endpoints: the request leaves with one `send`, and the calling thread sleeps in `recv` until
/// the answer is there, woken by the kernel alone.
///
/// Why it exists: on Linux, URLSession (swift-corelibs-foundation) drives libcurl's multi interface
/// from dispatch sources, so each request crosses several threads (the dispatch manager, the
/// session's work queue, the delegate queue, the caller) and costs milliseconds of CPU; see
/// `HTTPTransport` and docs/benchmarks.md. `https://` always goes through URLSession (TLS, proxies).
///
/// It writes `Host` and `Content-Length` itself; it reads `Content-Length`, chunked and
/// read-until-close bodies and skips `1xx` interim responses. Every socket wait is bounded by
/// `timeout` (`SO_RCVTIMEO`, `SO_SNDTIMEO`). Used by one thread at a time; `interrupt()` may come
/// from any thread (shutdown wakes a thread waiting for an answer).
package final class HTTPConnection: @unchecked Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// No byte of a response arrived: on a reused connection the server may have closed it
        /// while idle, and the request may be sent again on a new one.
        package var beforeResponse: Bool
    }

    package let host: String
    package let port: UInt16
    /// The `Host` header's value, made once.
    private let hostHeader: [UInt8]
    private let timeout: Duration
    /// Guards `descriptor` against `interrupt()` from another thread (taken only to open, close
    /// and interrupt, never around a read or a write).
    private let descriptorLock = NSLock()
    private var descriptor: Int32 = -1
    private var buffer: [UInt8] = []
    /// The last request's storage, reused (one thread at a time uses a connection).
    private var requestBuffer: [UInt8] = []
    private var consumed = 0
    /// Whether any byte of the current request's response has arrived.
    private var receivedAny = false
    private static let maxHeaderBytes = 64 * 1024
    private static let maxBodyBytes = 64 * 1024 * 1024

    /// `host` is a name or an IP address (IPv6 with or without brackets).
    package init(host: String, port: UInt16, timeout: Duration) {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.host = bare
        self.port = port
        hostHeader = Array((bare.utf8.contains(UInt8(ascii: ":")) ? "[\(bare)]:\(port)" : "\(bare):\(port)").utf8)
        self.timeout = timeout
    }

    deinit {
        if descriptor >= 0 { POSIX.close(descriptor) }
    }

    package var isOpen: Bool {
        descriptorLock.lock()
        defer { descriptorLock.unlock() }
        return descriptor >= 0
    }

    /// Sends one request (adding `Host` and `Content-Length`) and reads its response. A request
    /// that fails on a reused connection before any byte of an answer is sent once more on a new
    /// one (the caller's requests must be safe to repeat, as a batch of events with ids is).
    package func send(method: String, target: String, headers: [(name: String, value: String)],
                      body: [UInt8]) throws(Failure) -> TransportResponse {
        // The request's head goes into a buffer kept from one request to the next; the body is
        // sent from the caller's array as it is (a batch's body is over 100 KB: copying it after
        // the head cost a copy per request, and a fresh array each time page faults and zeroing).
        var bytes = requestBuffer
        requestBuffer = []
        defer {
            bytes.removeAll(keepingCapacity: true)
            requestBuffer = bytes
        }
        bytes.reserveCapacity(256)
        // Piece by piece (no string interpolation: a string made and dropped per piece).
        bytes.append(contentsOf: method.utf8)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: target.utf8)
        bytes.append(contentsOf: " HTTP/1.1\r\nHost: ".utf8)
        bytes.append(contentsOf: hostHeader)
        for (name, value) in headers {
            bytes.append(contentsOf: "\r\n".utf8)
            bytes.append(contentsOf: name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: value.utf8)
        }
        if !body.isEmpty || method == "POST" || method == "PUT" {
            bytes.append(contentsOf: "\r\nContent-Length: ".utf8)
            bytes.append(contentsOf: String(body.count).utf8)
        }
        bytes.append(contentsOf: "\r\n\r\n".utf8)
        let reused = isOpen
        do {
            return try exchange(head: bytes, body: body, headOnly: method == "HEAD")
        } catch where reused && error.beforeResponse {
            return try exchange(head: bytes, body: body, headOnly: method == "HEAD")
        }
    }

    /// Closes the connection; the next request opens a new one.
    package func close() {
        descriptorLock.lock()
        let fd = descriptor
        descriptor = -1
        descriptorLock.unlock()
        if fd >= 0 { POSIX.close(fd) }
        buffer.removeAll(keepingCapacity: true)
        consumed = 0
    }

    /// Wakes a thread blocked on this connection (its request fails); safe from any thread.
    package func interrupt() {
        descriptorLock.lock()
        if descriptor >= 0 { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        descriptorLock.unlock()
    }

    private func exchange(head: [UInt8], body: [UInt8], headOnly: Bool) throws(Failure) -> TransportResponse {
        let fd = try openIfNeeded()
        receivedAny = false
        // What the last response left unread (nothing, from a server that keeps to one answer per
        // request) stays; what it consumed goes. Only here: a line being scanned keeps its offsets.
        if consumed > 0 {
            buffer.removeFirst(consumed)
            consumed = 0
        }
        do {
            // The head is held back (MSG_MORE on Linux) until the body follows, so both leave in
            // full segments as one write of both would.
            try writeAll(fd, head, more: !body.isEmpty)
            if !body.isEmpty { try writeAll(fd, body, more: false) }
        } catch {
            // The server may have answered early (a 413 before the whole body) and closed: read anyway.
            if let response = try? readResponse(fd, headOnly: headOnly) {
                close()
                return response
            }
            close()
            throw error
        }
        do {
            return try readResponse(fd, headOnly: headOnly)
        } catch {
            close()
            throw error
        }
    }

    private func openIfNeeded() throws(Failure) -> Int32 {
        descriptorLock.lock()
        let open = descriptor
        descriptorLock.unlock()
        if open >= 0 { return open }
        buffer.removeAll(keepingCapacity: true)
        consumed = 0
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw Failure(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))", beforeResponse: true)
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = 0
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let address = entry {
            entry = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard fd >= 0 else {
                lastError = errno
                continue
            }
            configure(fd)
            if connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
                descriptorLock.lock()
                descriptor = fd
                descriptorLock.unlock()
                return fd
            }
            lastError = errno
            POSIX.close(fd)
        }
        throw Failure(description: "connect to \(host):\(port): \(String(cString: strerror(lastError)))", beforeResponse: true)
    }

    private func configure(_ fd: Int32) {
        let (seconds, attoseconds) = timeout.components
        var time = timeval()
        time.tv_sec = .init(max(0, seconds))
        time.tv_usec = .init(max(0, attoseconds / 1_000_000_000_000))
        if seconds <= 0 && attoseconds < 1_000_000_000_000 { time.tv_usec = 1000 }
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8], more: Bool) throws(Failure) {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL) | (more ? Int32(MSG_MORE) : 0)
        #endif
        let code: Int32 = bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let sent = Self.systemSend(fd, raw.baseAddress! + done, raw.count - done, flags)
                if sent < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += sent
            }
            return 0
        }
        guard code == 0 else {
            let text = code == EAGAIN || code == EWOULDBLOCK ? "send timed out after \(timeout)" : "send: \(String(cString: strerror(code)))"
            throw Failure(description: text, beforeResponse: code != EAGAIN && code != EWOULDBLOCK)
        }
    }

    /// Receives more bytes; false at the end of the stream.
    private func fill(_ fd: Int32) throws(Failure) -> Bool {
        let chunk = 16 * 1024
        let before = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        while true {
            let received = buffer.withUnsafeMutableBytes { raw in
                recv(fd, raw.baseAddress! + before, chunk, 0)
            }
            let code = errno
            if received < 0 && code == EINTR { continue }
            buffer.removeLast(chunk - max(0, received))
            if received > 0 { receivedAny = true }
            if received >= 0 { return received > 0 }
            let text = code == EAGAIN || code == EWOULDBLOCK ? "no answer within \(timeout)" : "recv: \(String(cString: strerror(code)))"
            // A timeout is not a stale connection: never sent again at once.
            throw Failure(description: text, beforeResponse: !receivedAny && code != EAGAIN && code != EWOULDBLOCK)
        }
    }

    /// The next line without its CRLF.
    private func readLine(_ fd: Int32, limit: Int) throws(Failure) -> ArraySlice<UInt8> {
        var scanned = consumed
        while true {
            var index = max(scanned, consumed + 1)
            while index < buffer.count {
                if buffer[index] == 0x0A && buffer[index - 1] == 0x0D {
                    let line = buffer[consumed..<(index - 1)]
                    consumed = index + 1
                    return line
                }
                index += 1
            }
            scanned = buffer.count
            if scanned - consumed > limit {
                throw Failure(description: "a response line longer than \(limit) bytes", beforeResponse: false)
            }
            guard try fill(fd) else {
                throw Failure(description: "the server closed the connection before a full response",
                              beforeResponse: !receivedAny)
            }
        }
    }

    private func readBody(_ fd: Int32, count: Int, into body: inout [UInt8]) throws(Failure) {
        var missing = count
        while true {
            let taken = min(missing, buffer.count - consumed)
            body.append(contentsOf: buffer[consumed..<(consumed + taken)])
            consumed += taken
            missing -= taken
            if missing == 0 { return }
            guard try fill(fd) else {
                throw Failure(description: "the server closed the connection inside a body", beforeResponse: false)
            }
        }
    }

    private func readResponse(_ fd: Int32, headOnly: Bool) throws(Failure) -> TransportResponse {
        while true {
            let statusLine = try readLine(fd, limit: Self.maxHeaderBytes)
            let parts = statusLine.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0].starts(with: "HTTP/1.".utf8),
                  let status = Int(String(decoding: parts[1], as: UTF8.self)), (100...999).contains(status)
            else {
                throw Failure(description: "not an HTTP/1.1 status line: \(String(decoding: statusLine.prefix(80), as: UTF8.self))",
                              beforeResponse: false)
            }
            let http10 = parts[0].elementsEqual("HTTP/1.0".utf8)
            var headers: [String: String] = [:]
            var headerBytes = 0
            while true {
                let line = try readLine(fd, limit: Self.maxHeaderBytes)
                if line.isEmpty { break }
                headerBytes += line.count
                guard headerBytes <= Self.maxHeaderBytes, let colon = line.firstIndex(of: 0x3A) else {
                    throw Failure(description: "a malformed header line", beforeResponse: false)
                }
                let name = Self.lowercased(line[..<colon])
                let value = Self.trimmed(line[(colon + 1)...])
                headers[name] = headers[name].map { $0 + ", " + value } ?? value
            }
            if status < 200 { continue }
            var body: [UInt8] = []
            var closeAfter = http10 && !(headers["connection"]?.lowercased().contains("keep-alive") ?? false)
            if headers["connection"]?.lowercased().contains("close") == true { closeAfter = true }
            if headOnly || status == 204 || status == 304 {
                // No body.
            } else if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
                try readChunked(fd, into: &body)
            } else if let text = headers["content-length"] {
                guard let length = Int(text), length >= 0, length <= Self.maxBodyBytes else {
                    throw Failure(description: "a bad Content-Length \(text)", beforeResponse: false)
                }
                body.reserveCapacity(length)
                try readBody(fd, count: length, into: &body)
            } else {
                while true {
                    body.append(contentsOf: buffer[consumed...])
                    consumed = buffer.count
                    guard body.count <= Self.maxBodyBytes else {
                        throw Failure(description: "a body over \(Self.maxBodyBytes) bytes", beforeResponse: false)
                    }
                    if try !fill(fd) { break }
                }
                closeAfter = true
            }
            if closeAfter { close() }
            return TransportResponse(status: status, headers: headers, body: body)
        }
    }

    private func readChunked(_ fd: Int32, into body: inout [UInt8]) throws(Failure) {
        while true {
            let line = try readLine(fd, limit: 1024)
            let sizeText = String(decoding: line.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
            guard let size = Int(sizeText, radix: 16), size >= 0, body.count + size <= Self.maxBodyBytes else {
                throw Failure(description: "a bad chunk size", beforeResponse: false)
            }
            if size == 0 {
                while try !readLine(fd, limit: Self.maxHeaderBytes).isEmpty {}
                return
            }
            try readBody(fd, count: size, into: &body)
            guard try readLine(fd, limit: 2).isEmpty else {
                throw Failure(description: "a chunk not followed by CRLF", beforeResponse: false)
            }
        }
    }

    /// A header name in ASCII lower case (field names are tokens: ASCII only).
    private static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.lazy.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// A header value without the spaces and tabs around it (RFC 9110's optional whitespace).
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end && isSpace(bytes[start]) { start += 1 }
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private static func systemSend(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
        #if canImport(Darwin)
        return Darwin.send(fd, pointer, count, flags)
        #elseif canImport(Glibc)
        return Glibc.send(fd, pointer, count, flags)
        #else
        return Musl.send(fd, pointer, count, flags)
        #endif
    }
}
