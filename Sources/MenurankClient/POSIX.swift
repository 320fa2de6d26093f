#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few POSIX file calls the journal needs (available on Linux and every Apple platform), with
/// `EINTR` retried and short writes completed. Failures carry `errno`'s text.
enum POSIX {
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var code: Int32
        /// What the failure means for the journal, when `errno`'s text alone would not say.
        var explanation: String?
        var description: String {
            let text = "\(operation) \(path): \(String(cString: strerror(code)))"
            return explanation.map { "\($0) (\(text))" } ?? text
        }
    }

    static func open(_ path: String, flags: Int32, mode: UInt32 = 0o600) throws(Failure) -> Int32 {
        while true {
            let fd = systemOpen(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw Failure(operation: "open", path: path, code: errno) }
        }
    }

    private static func systemOpen(_ path: String, _ flags: Int32, _ mode: UInt32) -> Int32 {
        #if canImport(Darwin)
        return Darwin.open(path, flags, mode_t(mode))
        #elseif canImport(Glibc)
        return Glibc.open(path, flags, mode_t(mode))
        #else
        return Musl.open(path, flags, mode_t(mode))
        #endif
    }

    static func close(_ fd: Int32) {
        #if canImport(Darwin)
        _ = Darwin.close(fd)
        #elseif canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Musl.close(fd)
        #endif
    }

    /// Writes all of `bytes` (at the end of the file when the descriptor has O_APPEND).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(Failure) {
        try writeAll(bytes, path: path) { pointer, count, _ in systemWrite(fd, pointer, count) }
    }

    /// Writes all of `bytes` at `offset` (`pwrite`, in place).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int, path: String) throws(Failure) {
        try writeAll(bytes, path: path) { pointer, count, done in pwrite(fd, pointer, count, off_t(offset + done)) }
    }

    /// Calls `write(pointer, count, done)` until every byte is written (again after EINTR), `done`
    /// being the bytes written so far.
    private static func writeAll(_ bytes: [UInt8], path: String,
                                 _ write: (UnsafeRawPointer, Int, Int) -> Int) throws(Failure) {
        let code: Int32 = bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = write(raw.baseAddress! + done, raw.count - done, done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += n
            }
            return 0
        }
        if code != 0 { throw Failure(operation: "write", path: path, code: code) }
    }

    private static func systemWrite(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        return Darwin.write(fd, pointer, count)
        #elseif canImport(Glibc)
        return Glibc.write(fd, pointer, count)
        #else
        return Musl.write(fd, pointer, count)
        #endif
    }

    /// Reads up to `count` bytes at `offset`; fewer at the end of the file.
    static func read(_ fd: Int32, offset: Int, count: Int, path: String) throws(Failure) -> [UInt8] {
        var failure: Failure?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(Failure) {
                initialized = try read(fd, offset: offset, into: UnsafeMutableRawPointer(buffer.baseAddress!), count: count,
                                       path: path)
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Reads up to `count` bytes at `offset` into `buffer`; returns how many (fewer at the end of
    /// the file).
    static func read(_ fd: Int32, offset: Int, into buffer: UnsafeMutableRawPointer, count: Int,
                     path: String) throws(Failure) -> Int {
        var done = 0
        while done < count {
            let n = pread(fd, buffer + done, count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "read", path: path, code: errno)
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    static func fileSize(_ fd: Int32, path: String) throws(Failure) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(operation: "stat", path: path, code: errno) }
        return Int(info.st_size)
    }

    static func truncate(_ fd: Int32, to length: Int, path: String) throws(Failure) {
        guard ftruncate(fd, off_t(length)) == 0 else { throw Failure(operation: "truncate", path: path, code: errno) }
    }

    static func sync(_ fd: Int32) {
        _ = fsync(fd)
    }

    /// Replaces `path` with `bytes` atomically: a temporary file next to it, synced when
    /// `durable`, then renamed over it. A reader (or a restart after a kill) sees the old content or
    /// the new one, never a mix.
    static func replaceAtomically(_ path: String, with bytes: [UInt8], durable: Bool) throws(Failure) {
        let temporary = path + ".tmp"
        let fd = try open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC)
        do {
            try writeAll(fd, bytes, path: temporary)
        } catch {
            close(fd)
            throw error
        }
        if durable { sync(fd) }
        close(fd)
        guard rename(temporary, path) == 0 else { throw Failure(operation: "rename", path: temporary, code: errno) }
    }

    static func remove(_ path: String) {
        _ = unlink(path)
    }
}
