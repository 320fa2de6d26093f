import CZlib

/// gzip / zlib compression through zlib.
public enum Gzip {
    private static let scratchSize = 64 * 1024

    /// Decompresses gzip or zlib data (detected from the header; concatenated gzip members are
    /// decompressed one after the other).
    ///
    /// Decompression stops as soon as the output would exceed `limit` bytes and throws
    /// `tooLarge`, so a small "gzip bomb" never makes this allocate more than `limit` bytes plus
    /// one 64 KiB scratch buffer. Invalid or truncated input throws `corrupt`.
    public static func inflate(_ bytes: [UInt8], limit: Int) throws(GzipError) -> [UInt8] {
        guard limit >= 0 else { throw GzipError(.tooLarge, "negative limit \(limit)") }
        guard !bytes.isEmpty else { throw GzipError(.corrupt, "empty input") }
        // zlib keeps a pointer back to its z_stream, so the stream must not move: heap-allocate it.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        let initStatus = menurank_inflate_init2(stream, 15 + 32)
        guard initStatus == Z_OK else { throw GzipError(.zlibFailure, "inflateInit2 returned \(initStatus)") }
        defer { inflateEnd(stream) }

        var output: [UInt8] = []
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchSize)
        defer { scratch.deallocate() }

        var input = bytes
        try input.withUnsafeMutableBufferPointer { (inputBuffer) throws(GzipError) in
            stream.pointee.next_in = inputBuffer.baseAddress
            stream.pointee.avail_in = UInt32(inputBuffer.count)
            while true {
                // Ask for at most one byte more than still fits under the limit: producing that
                // byte proves the output is too large without producing any more.
                // (Written so that a limit of Int.max cannot overflow.)
                let remaining = limit - output.count
                let room = remaining >= scratchSize ? scratchSize : remaining + 1
                stream.pointee.next_out = scratch
                stream.pointee.avail_out = UInt32(room)
                let status = CZlib.inflate(stream, Z_NO_FLUSH)
                let produced = room - Int(stream.pointee.avail_out)
                if output.count + produced > limit {
                    throw GzipError(.tooLarge, "decompressed data exceeds \(limit) bytes")
                }
                output.append(contentsOf: UnsafeBufferPointer(start: scratch, count: produced))
                switch status {
                case Z_STREAM_END:
                    guard stream.pointee.avail_in > 0 else { return }
                    // Another gzip member follows.
                    let resetStatus = inflateReset(stream)
                    guard resetStatus == Z_OK else { throw GzipError(.zlibFailure, "inflateReset returned \(resetStatus)") }
                case Z_OK:
                    continue
                case Z_BUF_ERROR:
                    // No progress possible although there is output room: the input ran out early.
                    throw GzipError(.corrupt, "truncated input after \(bytes.count) bytes")
                case Z_NEED_DICT:
                    throw GzipError(.corrupt, "zlib stream needs a preset dictionary")
                case Z_DATA_ERROR:
                    throw GzipError(.corrupt, message(stream) ?? "invalid compressed data")
                case Z_MEM_ERROR:
                    throw GzipError(.zlibFailure, "out of memory")
                default:
                    throw GzipError(.zlibFailure, "inflate returned \(status)")
                }
            }
        }
        return output
    }

    /// Compresses `bytes` in gzip format (level 6 unless given).
    public static func deflate(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        let initStatus = menurank_deflate_init2(stream, level, 15 + 16)
        precondition(initStatus == Z_OK, "deflateInit2 returned \(initStatus)")
        defer { deflateEnd(stream) }

        let bound = Int(deflateBound(stream, UInt(bytes.count))) + 32
        var output = [UInt8](repeating: 0, count: bound)
        var input = bytes
        let written = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.pointee.next_in = inputBuffer.baseAddress
                stream.pointee.avail_in = UInt32(inputBuffer.count)
                stream.pointee.next_out = outputBuffer.baseAddress
                stream.pointee.avail_out = UInt32(outputBuffer.count)
                let status = CZlib.deflate(stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "deflate returned \(status) with a deflateBound buffer")
                return outputBuffer.count - Int(stream.pointee.avail_out)
            }
        }
        output.removeSubrange(written...)
        return output
    }

    private static func message(_ stream: UnsafeMutablePointer<z_stream>) -> String? {
        stream.pointee.msg.map { String(cString: $0) }
    }
}
