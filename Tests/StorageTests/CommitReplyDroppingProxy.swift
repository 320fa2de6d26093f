import Foundation
import Synchronization

/// A TCP proxy in front of PostgreSQL that, while armed, lets a COMMIT reach the server and then
/// cuts the connection instead of passing on the server's reply: the transaction is committed, but
/// the client only sees a lost connection, the "unknown outcome" of a COMMIT.
///
/// It reads the server's side of the protocol as typed messages (type byte, 32-bit length), so
/// clients must connect with `sslmode=disable` and `gssencmode=disable`.
final class CommitReplyDroppingProxy: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let target: UInt16
    /// How many COMMIT replies are still to be dropped.
    private let armed = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)

    init(targetPort: UInt16) throws {
        target = targetPort
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Drops the reply to the next `count` COMMITs.
    func dropCommitReplies(_ count: Int) { armed.store(count, ordering: .sequentiallyConsistent) }

    /// COMMIT replies dropped so far.
    var droppedReplies: Int { dropped.load(ordering: .sequentiallyConsistent) }

    /// Stops accepting. The accept thread closes the listener itself when `accept` fails: closed
    /// here, its number could be reused by another test's socket before that thread calls
    /// `accept` again.
    func close() { shutdown(listener, Int32(SHUT_RDWR)) }

    private func acceptLoop() {
        defer { Glibc.close(listener) }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { Glibc.close(client); Glibc.close(server); continue }
            let pair = SocketPair(client: client, server: server)
            Thread { Self.pipe(from: client, to: server); pair.finished() }.start()
            Thread { [self] in serverToClient(server: server, client: client); pair.finished() }.start()
        }
    }

    /// Client to server: bytes as they come.
    private static func pipe(from source: Int32, to sink: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(source, &buffer, buffer.count)
            if n <= 0 || !writeAll(sink, buffer[0..<n]) { break }
        }
    }

    /// Server to client, one message at a time; an armed COMMIT's CommandComplete cuts both sides.
    private func serverToClient(server: Int32, client: Int32) {
        while true {
            guard let header = Self.readExactly(server, 5) else { return }
            let length = Int(header[1]) << 24 | Int(header[2]) << 16 | Int(header[3]) << 8 | Int(header[4])
            guard length >= 4, let body = Self.readExactly(server, length - 4) else { return }
            if header[0] == UInt8(ascii: "C"), body.starts(with: Array("COMMIT".utf8)) {
                var remaining = armed.load(ordering: .sequentiallyConsistent)
                while remaining > 0 {
                    let (exchanged, original) = armed.compareExchange(expected: remaining, desired: remaining - 1,
                                                                      ordering: .sequentiallyConsistent)
                    if exchanged {
                        dropped.add(1, ordering: .sequentiallyConsistent)
                        return
                    }
                    remaining = original
                }
            }
            guard Self.writeAll(client, header[...]), Self.writeAll(client, body[...]) else { return }
        }
    }

    /// The two sockets of one proxied connection: either direction ending shuts both down (waking
    /// the other thread); they are closed once both threads are done, so that neither touches a
    /// descriptor number the kernel has already handed to a new connection.
    private final class SocketPair: @unchecked Sendable {
        let client: Int32
        let server: Int32
        private let lock = NSLock()
        private var running = 2

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        func finished() {
            lock.lock()
            running -= 1
            let last = running == 0
            if !last {
                shutdown(client, Int32(SHUT_RDWR))
                shutdown(server, Int32(SHUT_RDWR))
            }
            lock.unlock()
            if last {
                Glibc.close(client)
                Glibc.close(server)
            }
        }
    }

    private static func readExactly(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = out.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, count - got) }
            if n <= 0 { return nil }
            got += n
        }
        return out
    }

    private static func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
