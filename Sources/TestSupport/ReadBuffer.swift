#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The client's receive buffer: raw bytes `start..<end` not yet consumed, refilled straight from
/// the socket with no per-read allocation.
final class ReadBuffer {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var start = 0
    private(set) var end = 0
    private static let minimumRead = 16 * 1024

    init(capacity: Int = 64 * 1024) {
        self.capacity = capacity
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    var readableCount: Int { end - start }

    func reset() {
        start = 0
        end = 0
    }

    /// One `recv` into free space (compacting or growing first); recv's result, errno untouched.
    func receive(from descriptor: Int32) -> Int {
        if start == end {
            start = 0
            end = 0
        }
        if capacity - end < Self.minimumRead {
            if start > 0 {
                storage.update(from: storage + start, count: end - start)
                end -= start
                start = 0
            }
            if capacity - end < Self.minimumRead {
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                grown.update(from: storage, count: end)
                storage.deallocate()
                storage = grown
                capacity *= 2
            }
        }
        let received = recv(descriptor, storage + end, capacity - end, 0)
        if received > 0 { end += received }
        return received
    }

    /// Offset (from `start`) of the first CRLF at or after `from`, if any.
    func crlfOffset(from: Int) -> Int? {
        var index = start + max(from, 1)
        while index < end {
            if storage[index] == 0x0A, storage[index - 1] == 0x0D { return index - 1 - start }
            index += 1
        }
        return nil
    }

    /// Removes and returns `count` bytes (at most what is readable).
    func take(_ count: Int) -> [UInt8] {
        let taken = min(count, readableCount)
        let bytes = Array(UnsafeBufferPointer(start: storage + start, count: taken))
        start += taken
        return bytes
    }

    /// Appends up to `count` bytes to `destination`; how many were appended.
    func take(_ count: Int, into destination: inout [UInt8]) -> Int {
        let taken = min(count, readableCount)
        destination.append(contentsOf: UnsafeBufferPointer(start: storage + start, count: taken))
        start += taken
        return taken
    }

    /// The readable bytes, copied.
    var readableBytes: [UInt8] { Array(UnsafeBufferPointer(start: storage + start, count: readableCount)) }

    func skip(_ count: Int) {
        start += min(count, readableCount)
    }
}
