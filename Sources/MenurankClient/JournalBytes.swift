#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Bytes of a journal segment that read records point into, alive as long as a record (or the
/// journal) refers to them: the mapping of the segment being written, which a batch is read from
/// in place (no copy, no checksum: this process wrote those records), or a chunk of a segment file
/// read with `pread` (an earlier run's segment, or one that writing has moved past).
///
/// A mapping outlives the journal's own use of it: the journal lets go when writing moves to the
/// next segment and cuts the file to its records, while a batch being sent still reads its
/// records (all before that cut) from it; the last reference unmaps it.
final class JournalBytes: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let count: Int
    private let isMapping: Bool

    /// Takes over a mapping of `count` bytes (from `mmap`).
    init(mapping: UnsafeMutableRawPointer, count: Int) {
        base = mapping
        self.count = count
        isMapping = true
    }

    /// Up to `count` bytes of the file at `offset`.
    init(reading fd: Int32, offset: Int, count: Int, path: String) throws(POSIX.Failure) {
        base = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        isMapping = false
        do {
            self.count = try POSIX.read(fd, offset: offset, into: base, count: count, path: path)
        } catch {
            base.deallocate()
            throw error
        }
    }

    deinit {
        if isMapping {
            #if canImport(Glibc)
            munmap(base, count)
            #endif
        } else {
            base.deallocate()
        }
    }

    /// The little-endian `UInt32` at `offset`.
    func u32(_ offset: Int) -> Int {
        Int(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }
}
