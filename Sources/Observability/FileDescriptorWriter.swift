#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes text to a file descriptor with write(2), a whole line per call.
enum FileDescriptorWriter {
    /// Writes all of `text` to `descriptor`: one write(2) call unless the kernel takes less, in which
    /// case the rest follows; interrupted calls are retried, other failures drop the rest.
    static func writeAll(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
