#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How the records of a journal segment are framed, told by the segment's 8-byte magic.
///
/// - `first` (`MRKJRNL1`) and `second` (`MRKJRNL2`), left by earlier versions and still read:
///   `[payload length: u32 LE][checksum: u32 LE][payload]`, CRC-32 and `RecordChecksum.mix`. A
///   damaged record there ends what can be read of the segment: nothing says where the next one
///   starts.
/// - `third` (`MRKJRNL3`, written now): `[marker][payload length: u32 LE][mix checksum: u32 LE]
///   [payload]`. The marker starts with 0xFF, a byte that never occurs in UTF-8 text, so it never
///   occurs inside a payload (the event's JSON): after a damaged record, reading resynchronizes at
///   the next marker that starts a record whose length fits and whose checksum matches. A flipped
///   byte anywhere in a record (marker, length, checksum or payload) loses that record only.
enum JournalFormat: Sendable {
    case first
    case second
    case third

    /// The format new segments are written in.
    static let current = JournalFormat.third

    static let headerSize = 8
    static let marker: [UInt8] = [0xFF, 0x4D, 0x52, 0x4B]
    /// `marker` as the little-endian `UInt32` a load reads.
    static let markerWord = UInt32(0x4B52_4DFF)

    var magic: [UInt8] {
        switch self {
        case .first: Array("MRKJRNL1".utf8)
        case .second: Array("MRKJRNL2".utf8)
        case .third: Array("MRKJRNL3".utf8)
        }
    }

    /// The format a segment's first eight bytes name; nil for anything else (a damaged header).
    init?<Bytes: Collection<UInt8>>(magic bytes: Bytes) {
        guard let found = [JournalFormat.third, .second, .first].first(where: { bytes.elementsEqual($0.magic) })
        else { return nil }
        self = found
    }

    /// Bytes of a record before its payload.
    var overhead: Int { self == .third ? 12 : 8 }
    /// Where the payload length sits in a record.
    var lengthOffset: Int { self == .third ? 4 : 0 }

    var checksum: RecordChecksum.Kind { self == .first ? .crc32 : .mix }

    /// A record found in a segment's bytes: where it starts, its payload length, and the records
    /// lost in the damaged bytes skipped before it (0 when there were none).
    struct Found {
        var start: Int
        var length: Int
        var lost: Int
    }

    /// The payload length of an intact record at exactly `at` (it fits before `limit`, and for the
    /// third format starts with the marker; `verify`: its checksum matches), else nil.
    func record(in bytes: UnsafeRawBufferPointer, at: Int, limit: Int, verify: Bool = true) -> Int? {
        guard at >= 0, at + overhead <= limit, limit <= bytes.count else { return nil }
        if self == .third, Self.word(bytes, at) != Self.markerWord { return nil }
        let length = Int(Self.word(bytes, at + lengthOffset))
        guard length > 0, length <= EventJournal.maxPayload, at + overhead + length <= limit else { return nil }
        if verify {
            let payload = UnsafeRawBufferPointer(rebasing: bytes[(at + overhead)..<(at + overhead + length)])
            guard RecordChecksum.of(payload, kind: checksum) == Self.word(bytes, at + lengthOffset + 4) else { return nil }
        }
        return length
    }

    /// The next intact record at or after `at`, before `limit`: the one at `at`, or (third format)
    /// the first after it that a marker starts, with the records lost in between (the markers
    /// passed, at least one). Nil when there is none.
    func next(in bytes: UnsafeRawBufferPointer, from at: Int, limit: Int, verify: Bool = true) -> Found? {
        if let length = record(in: bytes, at: at, limit: limit, verify: verify) {
            return Found(start: at, length: length, lost: 0)
        }
        guard self == .third else { return nil }
        var markers = Self.word(bytes, at, limit: limit) == Self.markerWord ? 1 : 0
        var candidate = at + 1
        while let start = Self.nextMarker(in: bytes, from: candidate, limit: limit) {
            if let length = record(in: bytes, at: start, limit: limit) {
                return Found(start: start, length: length, lost: max(1, markers))
            }
            markers += 1
            candidate = start + 1
        }
        return nil
    }

    /// How many records the bytes `from..<limit` held that cannot be read (after the last intact
    /// record): each marker whose record would end inside them was a whole record, damaged; one
    /// that runs past them is a torn last write, never acknowledged as recorded. Zero for the older
    /// formats, which cannot tell.
    func damagedRecords(in bytes: UnsafeRawBufferPointer, from: Int, limit: Int) -> Int {
        guard self == .third else { return 0 }
        var count = 0
        var at = from
        while let start = Self.nextMarker(in: bytes, from: at, limit: limit) {
            if start + overhead <= limit {
                let length = Int(Self.word(bytes, start + lengthOffset))
                if length > 0, length <= EventJournal.maxPayload, start + overhead + length <= limit { count += 1 }
            }
            at = start + 1
        }
        return count
    }

    /// The offset of the next marker at or after `from` whose four bytes lie before `limit`.
    static func nextMarker(in bytes: UnsafeRawBufferPointer, from: Int, limit: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var at = from
        while at + 4 <= limit {
            guard let hit = memchr(base + at, 0xFF, limit - 4 + 1 - at) else { return nil }
            let offset = base.distance(to: UnsafeRawPointer(hit))
            if word(bytes, offset) == markerWord { return offset }
            at = offset + 1
        }
        return nil
    }

    /// The little-endian `UInt32` at `at` (0 when fewer than four bytes are left before `limit`).
    static func word(_ bytes: UnsafeRawBufferPointer, _ at: Int, limit: Int? = nil) -> UInt32 {
        guard at >= 0, at + 4 <= (limit ?? bytes.count), let base = bytes.baseAddress else { return 0 }
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }
}
