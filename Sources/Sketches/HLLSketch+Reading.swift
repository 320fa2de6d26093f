extension HLLSketch {
    /// A stored sketch, checked: the default parameters (the header bytes `HLLSketch` writes) and
    /// a body of the size its storage form needs.
    /// - Throws: `HLLSketchError` when the bytes are not such a sketch.
    public init(validating bytes: [UInt8]) throws(HLLSketchError) {
        let checked = bytes.withUnsafeBytes { bytes in Result { () throws(HLLSketchError) in try Self.kind(of: bytes) } }
        _ = try checked.get()
        self.init(bytes: bytes)
    }

    /// The distinct count as `hll_cardinality` gives it (see `HLLUnion`).
    public var cardinality: Double {
        var union = HLLUnion()
        union.formUnion(self)
        return union.cardinality()
    }

    /// An EXPLICIT sketch of hashes given sorted and distinct (at most `explicitLimit`), or EMPTY.
    init(sortedDistinct hashes: [Int64]) {
        precondition(hashes.count <= Self.explicitLimit)
        guard !hashes.isEmpty else {
            self = .empty
            return
        }
        var bytes = Self.header(.explicit)
        bytes.reserveCapacity(3 + 8 * hashes.count)
        for hash in hashes {
            withUnsafeBytes(of: UInt64(bitPattern: hash).bigEndian) { bytes.append(contentsOf: $0) }
        }
        self.init(bytes: bytes)
    }

    /// The storage form of stored sketch bytes, once they are checked.
    static func kind(of bytes: UnsafeRawBufferPointer) throws(HLLSketchError) -> Kind {
        guard bytes.count >= 3 else { throw HLLSketchError(.malformed, "\(bytes.count) bytes, shorter than the header") }
        guard bytes[0] >> 4 == 1 else { throw HLLSketchError(.unsupported, "schema version \(bytes[0] >> 4)") }
        guard bytes[1] == parameterByte, bytes[2] == cutoffByte else {
            throw HLLSketchError(.unsupported, "parameter bytes \(String(bytes[1], radix: 16)) \(String(bytes[2], radix: 16)) (hex), not the defaults")
        }
        let body = bytes.count - 3
        guard let kind = Kind(rawValue: bytes[0] & 0x0F) else {
            throw HLLSketchError(.unsupported, "storage type \(bytes[0] & 0x0F)")
        }
        let fits = switch kind {
        case .empty: body == 0
        case .explicit: body % 8 == 0 && body / 8 <= explicitLimit
        case .sparse: body % 2 == 0 && body / 2 <= registerCount
        case .full: body == (registerCount * registerWidth + 7) / 8
        }
        guard fits else { throw HLLSketchError(.malformed, "\(kind) sketch with \(body) bytes after its header") }
        return kind
    }
}

/// Stored bytes that are not a sketch `HLLSketch` can read.
public struct HLLSketchError: Error, CustomStringConvertible, Sendable {
    public struct Kind: Hashable, Sendable {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// Not the size or layout its header announces.
        public static let malformed = Kind("malformed")
        /// Another schema version, storage type or parameters than the extension's defaults.
        public static let unsupported = Kind("unsupported")
    }

    public let kind: Kind
    public let message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "hll sketch: \(message)" }
}
