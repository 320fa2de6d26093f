import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP server on 127.0.0.1 that answers each request with the bytes the test gives, exactly as
/// given (interim responses, chunked or close-delimited bodies, a connection dropped without a
/// word), for checking how the library's own HTTP connection reads what a server or proxy sends.
/// It reads a request as a head and a `Content-Length` body, and counts connections and requests.
final class CannedServer: @unchecked Sendable {
    struct Answer {
        var bytes: [UInt8]
        /// Close the connection after writing.
        var close = false
        /// Write nothing and keep the connection open (a server that never answers).
        var hang = false
        /// Write in pieces of this many bytes, a few milliseconds apart (a reader must join them).
        var piece: Int?
    }

    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var connectionCount = 0
    private var requestHeads: [String] = []
    private var open: [Int32] = []
    private var stopped = false
    /// Signalled each time a whole request has arrived.
    let arrived = DispatchSemaphore(value: 0)

    /// `script(n)` answers the n-th request (from 0, over all connections).
    init(_ script: @escaping @Sendable (Int) -> Answer) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else { throw CocoaError(.fileWriteUnknown) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop(script) }
        thread.start()
    }

    deinit { stop() }

    /// Shuts the listener and every open connection down; the threads that own them close them.
    /// Only the owner closes a descriptor, and `stop` touches only descriptors still in `open`
    /// (under the lock that their owner takes to close them), so it never shuts down a number the
    /// kernel has meanwhile handed to another socket of this process: tests run in parallel, and
    /// such a stray shutdown (or an `accept` on a reused listener number) reset other tests'
    /// connections.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        if stopped { return }
        stopped = true
        shutdown(listener, Int32(SHUT_RDWR))
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    var connections: Int {
        lock.lock()
        defer { lock.unlock() }
        return connectionCount
    }

    var heads: [String] {
        lock.lock()
        defer { lock.unlock() }
        return requestHeads
    }

    private func acceptLoop(_ script: @escaping @Sendable (Int) -> Answer) {
        defer { Glibc.close(listener) }
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 { return }
            lock.lock()
            if stopped {
                lock.unlock()
                Glibc.close(fd)
                return
            }
            connectionCount += 1
            open.append(fd)
            lock.unlock()
            let thread = Thread { [self] in serve(fd, script) }
            thread.start()
        }
    }

    /// Closes a connection's descriptor once it is out of `open`.
    private func finish(_ fd: Int32) {
        lock.lock()
        open.removeAll { $0 == fd }
        Glibc.close(fd)
        lock.unlock()
    }

    private func serve(_ fd: Int32, _ script: @escaping @Sendable (Int) -> Answer) {
        defer { finish(fd) }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            // A head, then as many body bytes as it announces.
            var headEnd: Int?
            while headEnd == nil {
                if let range = Self.find([13, 10, 13, 10], in: pending) {
                    headEnd = range
                    break
                }
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { return }
                pending.append(contentsOf: chunk[0..<n])
            }
            let head = String(decoding: pending[0..<headEnd!], as: UTF8.self)
            let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            while pending.count < headEnd! + 4 + length {
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { return }
                pending.append(contentsOf: chunk[0..<n])
            }
            pending.removeFirst(headEnd! + 4 + length)
            lock.lock()
            let n = requestHeads.count
            requestHeads.append(head)
            lock.unlock()
            arrived.signal()
            let answer = script(n)
            if answer.hang {
                while recv(fd, &chunk, chunk.count, 0) > 0 {}
                return
            }
            var sent = 0
            while sent < answer.bytes.count {
                let end = answer.piece.map { min(sent + $0, answer.bytes.count) } ?? answer.bytes.count
                let written = answer.bytes[sent..<end].withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
                if written <= 0 { return }
                sent += written
                if answer.piece != nil { usleep(2_000) }
            }
            if answer.close { return }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
