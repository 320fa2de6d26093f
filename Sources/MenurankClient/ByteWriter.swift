/// Bytes written into memory that the caller has sized beforehand (`EventPayload.maxSize`, a
/// fixed-width field), with no bounds check or growth per byte: `record` encodes each event this
/// way into a buffer it reuses, so recording allocates nothing.
struct ByteWriter {
    let base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    private(set) var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        base[count] = value
        count += 1
    }

    /// Fixed text, straight from the binary's constant bytes.
    @inline(__always)
    mutating func text(_ value: StaticString) {
        let length = value.utf8CodeUnitCount
        (base + count).update(from: value.utf8Start, count: length)
        count += length
    }

    @inline(__always)
    mutating func bytes(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let start = buffer.baseAddress else { return }
        (base + count).update(from: start, count: buffer.count)
        count += buffer.count
    }

    /// Counts `length` bytes that the caller wrote itself at `base + count`.
    @inline(__always)
    mutating func advance(by length: Int) {
        count += length
    }

    /// Writes at most `capacity` bytes with `body` and appends them to `out`.
    static func append(to out: inout [UInt8], capacity: Int, _ body: (inout ByteWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var writer = ByteWriter(buffer.baseAddress!)
            body(&writer)
            out.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: writer.count))
        }
    }
}
