/// Encodes `EventRow`s in PostgreSQL's binary COPY format, in the column order of the `events`
/// table (app_id, day, time, user_hash, event_id, element_type_id, command_id, context_id,
/// latency_ms, session_hash, position), optionally followed by one `integer` tag column (the
/// staging table of the duplicate-aware path tags each row with its request).
///
/// Binary COPY costs PostgreSQL about a third less CPU than text COPY of the same rows (no
/// timestamp, uuid or integer parsing), and costs us no number formatting.
public struct EventCopyEncoder: Sendable {
    /// Microseconds and days between the Unix epoch and PostgreSQL's (2000-01-01).
    static let postgresEpochDays: Int32 = 10_957
    static let postgresEpochMicros: Int64 = 946_684_800_000_000

    public private(set) var bytes: [UInt8] = []
    private let tagged: Bool

    /// Starts a COPY stream with its header.
    public init(tagged: Bool = false, reservingRows rows: Int = 0) {
        self.tagged = tagged
        bytes.reserveCapacity(19 + rows * (tagged ? 108 : 100) + 2)
        bytes.append(contentsOf: [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00])
        appendInt32(0)  // flags
        appendInt32(0)  // header extension length
    }

    /// Appends one row; `tag` is written only by a tagged encoder.
    public mutating func append(_ row: EventRow, tag: Int32 = 0) {
        appendInt16(tagged ? 12 : 11)
        field(row.appID)
        field(row.day &- Self.postgresEpochDays)
        field(row.time &- Self.postgresEpochMicros)
        field(row.userHash)
        appendInt32(16)
        appendUInt64(row.eventIDHigh)
        appendUInt64(row.eventIDLow)
        field(row.elementTypeID)
        field(row.commandID)
        field(row.contextID)
        field(row.latencyMs)
        field(row.sessionHash)
        if let position = row.position {
            appendInt32(2)
            appendInt16(position)
        } else {
            appendInt32(-1)
        }
        if tagged { field(tag) }
    }

    /// Appends the trailer; the stream is complete after this.
    public mutating func finish() {
        appendInt16(-1)
    }

    /// Moves the encoded bytes out, leaving the encoder empty (for streaming in chunks).
    public mutating func takeBytes() -> [UInt8] {
        defer { bytes = [] }
        return bytes
    }

    /// Bytes encoded and not yet taken.
    public var count: Int { bytes.count }

    @inline(__always) private mutating func field(_ value: Int32) {
        appendInt32(4)
        appendInt32(value)
    }

    @inline(__always) private mutating func field(_ value: Int32?) {
        if let value { field(value) } else { appendInt32(-1) }
    }

    @inline(__always) private mutating func field(_ value: Int64) {
        appendInt32(8)
        appendUInt64(UInt64(bitPattern: value))
    }

    @inline(__always) private mutating func field(_ value: Int64?) {
        if let value { field(value) } else { appendInt32(-1) }
    }

    @inline(__always) private mutating func appendInt16(_ value: Int16) {
        let v = UInt16(bitPattern: value)
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    @inline(__always) private mutating func appendInt32(_ value: Int32) {
        let v = UInt32(bitPattern: value)
        bytes.append(UInt8(truncatingIfNeeded: v >> 24))
        bytes.append(UInt8(truncatingIfNeeded: v >> 16))
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    @inline(__always) private mutating func appendUInt64(_ v: UInt64) {
        appendInt32(Int32(bitPattern: UInt32(truncatingIfNeeded: v >> 32)))
        appendInt32(Int32(bitPattern: UInt32(truncatingIfNeeded: v)))
    }
}
