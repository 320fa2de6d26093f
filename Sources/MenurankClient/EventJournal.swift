#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The on-disk queue of recorded events that the server has not acknowledged yet.
///
/// Layout of the directory:
/// - `lock`: held with `flock` by the one journal that has the directory open (its process id
///   inside, for the message): a second process, or a second client in the same one, is refused
///   with an error that says so, instead of both writing the same segments.
/// - `segments/<16 hex digits>.seg`: append-only files, numbered in order. Each starts with the
///   8-byte magic `MRKJRNL3`, then records `[marker: FF 4D 52 4B][payload length: u32 LE]
///   [checksum of payload: u32 LE][payload]`, where the payload is the event's JSON object as it
///   is sent and the checksum `RecordChecksum.mix` (see `JournalFormat`). The marker lets reading
///   resynchronize after damaged bytes: one flipped byte loses one record, never the rest of the
///   segment. Segments of the earlier formats (`MRKJRNL2`, `MRKJRNL1`: no marker), left by an
///   earlier version, are still read and sent.
/// - `cursor`: the position of the first unacknowledged record, written in place after each
///   acknowledged batch into one of two slots (bytes 0 and 512), in turn: `menurank-journal 2
///   <segment> <offset> <CRC-32 of the text before it, hex>`. A restart takes the furthest intact
///   slot, so a torn cursor write falls back to the one before it (a batch sent again, never one
///   skipped). Writing in place costs one `pwrite`, where a file per update (temporary file,
///   rename) cost an inode each time: a tenth of the library's CPU in `simulate`. A cursor of
///   the first format (`menurank-journal 1 <segment> <offset>`, at byte 0) is still read.
///
/// Why it is safe:
/// - A record is in the kernel's page cache before `record` returns, which outlives a killed
///   process. On Linux the segment being written is mapped (`MAP_SHARED`, its blocks reserved
///   first with `posix_fallocate`, so a full disk fails the reservation, never a copy): an append
///   is a copy into the mapping, with no system call. Elsewhere, or when the reservation or the
///   mapping fails, it is one `pwrite(2)` at the record's offset (`write(2)` per event was most
///   of `record`'s cost). `syncToDisk` adds `fsync` of the segment before each cursor update, for
///   power loss (it writes the mapping's dirty pages too).
/// - A batch of the segment being written is read in place from the mapping (`JournalBytes`: no
///   copy, and no checksum, since this process wrote those records); other segments are read with
///   `pread` and each record checked against its checksum.
/// - A mapped segment is cut to its records when writing moves on or the journal closes. One
///   left by a killed process ends in zeros (reserved, never written): a record has a length of
///   at least 1, so the zeros end the scan and are not counted as torn.
/// - A torn last write (a short record) is cut off when the journal is opened; every record before
///   it is intact. Writing then goes on in a new segment.
/// - Damage is counted, never silent (`damage`, which the client adds to `dropped` and reports in
///   `lastError` and a log line): a record that does not check out in the middle of a segment is
///   skipped, and reading goes on at the next intact one; a whole record at the end that does not
///   check out is counted too. A segment whose magic is damaged is read as the format whose
///   records it holds (its magic then written again); one that holds no readable record is
///   deleted and its lost records counted; only a file of zeros (a spare being reused when the
///   process was killed) goes without a word.
/// - Acknowledging never rewrites a segment: the cursor moves, and segments wholly before it are
///   deleted. Killed between the server's answer and the cursor's rename, the batch is sent again
///   with the same ids, and the server counts its events as duplicates: exactly once in storage.
/// - The size cap drops whole segments, oldest first, and counts the unacknowledged records they
///   held (never those of the batch in flight, which is sent and counted as sent).
/// - Recycling (`recycles`: Linux, without `syncToDisk`): a mapped segment stays mapped, uncut,
///   after writing moves on, and the last one wholly acknowledged is kept as a spare instead of
///   deleted. The next segment reuses it: its bytes zeroed through the mapping (the magic
///   first), the file renamed to the new number, the magic written. Its pages are then already
///   in the page cache and mapped, so appends need no zeros written ahead, no `madvise`, no
///   page faults, and no file is created, reserved, cut or deleted (together about a tenth of
///   the library's CPU in `simulate`). Killed at any step, the spare is a file without a magic
///   (deleted at start) or an empty segment; the page cache holds the zeros before the rename, so
///   a killed process never leaves a renamed file with the old records in it. That holds for a
///   killed process, not for power loss (the rename may reach the disk before the zeros), so a
///   journal that syncs for power loss never recycles.
///
/// Not thread-safe: the client calls it under its lock. The state `append` touches for every
/// event is marked `@exclusivity(unchecked)`: one thread at a time, under that lock, and the
/// dynamic checks of overlapping access were a quarter of an append.
final class EventJournal {
    struct Position: Comparable, Sendable, CustomStringConvertible {
        var segment: UInt64
        var offset: Int
        /// The record's ordinal in its segment (kept in memory only, for counting).
        var index: Int

        static func < (a: Position, b: Position) -> Bool { (a.segment, a.offset) < (b.segment, b.offset) }
        static func == (a: Position, b: Position) -> Bool { a.segment == b.segment && a.offset == b.offset }
        var description: String { "\(segment):\(offset)" }
    }

    struct Record {
        /// The bytes the payload lies in, kept alive by the record.
        let storage: JournalBytes
        let offset: Int
        let length: Int
        /// The position right after this record.
        var end: Position

        /// Valid while the record is.
        var payload: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage.base + offset, count: length) }
    }

    private struct Segment {
        var number: UInt64
        /// Valid bytes, header included.
        var length: Int
        var records: Int
        /// How its records are framed and checked (by its magic).
        var format: JournalFormat
        /// Whether damaged bytes lie between its records (found when the journal was opened): it is
        /// then read whole, so that reading can resynchronize past them.
        var damaged = false
    }

    /// Records lost to damage found when the journal was opened, and what was found.
    struct Damage: Sendable, Equatable {
        var records = 0
        var messages: [String] = []
    }

    static let headerSize = JournalFormat.headerSize
    /// The overhead of a record of the format written now.
    static let recordOverhead = JournalFormat.current.overhead
    static let maxPayload = 64 * 1024

    let directory: String
    private let segmentsDirectory: String
    private let cursorPath: String
    let maxBytes: Int
    let segmentBytes: Int

    @exclusivity(unchecked) private var segments: [Segment] = []
    /// Whether segments are recycled (see above).
    let recycles: Bool
    /// A mapped segment that writing moved past (recycling journals only): its file stays open,
    /// mapped and whole until it is acknowledged.
    private struct Retired {
        var number: UInt64
        var fd: Int32
        var mapping: JournalBytes
        var path: String
        /// Its valid bytes, header included (what recycling zeroes).
        var length: Int
    }
    private var retired: [Retired] = []
    /// A wholly acknowledged segment kept for the next segment to reuse.
    private var spare: Retired?
    private var writeFD: Int32 = -1
    /// The segment being written, mapped (Linux): appends are copies into it, and batches are
    /// read from it in place.
    private var mapped: JournalBytes? {
        didSet {
            mappedBase = mapped?.base
            mappedCount = mapped?.count ?? 0
        }
    }
    /// `mapped`'s memory, for appends: taking the object itself retained and released it per
    /// event, on a reference count that the delivery threads' reads touch too.
    @exclusivity(unchecked) private var mappedBase: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var mappedCount = 0
    /// How far the mapping's pages are made present and writable ahead of the appends.
    @exclusivity(unchecked) private var populatedBytes = 0
    private static let populateStep = 256 * 1024
    /// The path of the segment being written (made once per segment, not per record).
    private var writePath = ""
    @exclusivity(unchecked) private(set) var cursor: Position
    /// The end of the last batch being delivered: the size cap never counts records before it as
    /// dropped (they are sent, and counted as sent).
    var inFlightEnd: Position?
    @exclusivity(unchecked) private(set) var totalBytes = 0
    /// Records dropped by the size cap, and bytes cut off as torn, since the journal was opened.
    private(set) var dropped = 0
    private(set) var tornBytesRepaired = 0
    /// Segments started by reusing the spare, since the journal was opened.
    private(set) var recycledSegments = 0
    /// What damage the opening found (see "Damage is counted" above).
    private(set) var damage = Damage()
    /// The `lock` file's descriptor, held (with its `flock`) while the journal is open.
    private var lockFD: Int32 = -1

    /// Opens (or creates) the journal in `directory`: takes the directory's lock (refused, with an
    /// error that says so, while another journal holds it), reads the cursor, deletes acknowledged
    /// segments, checks the others record by record (counting damage, cutting off a torn tail), and
    /// starts a new segment for writing.
    init(directory: String, maxBytes: Int, segmentBytes: Int, recycles: Bool = false) throws(POSIX.Failure) {
        self.directory = directory
        #if canImport(Glibc)
        self.recycles = recycles
        #else
        self.recycles = false
        #endif
        segmentsDirectory = directory + "/segments"
        cursorPath = directory + "/cursor"
        self.maxBytes = max(maxBytes, 4 * (Self.maxPayload + Self.recordOverhead) + 4 * Self.headerSize)
        self.segmentBytes = max(Self.headerSize + Self.recordOverhead + 1, min(segmentBytes, self.maxBytes / 4))
        for path in [directory, segmentsDirectory] where mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw POSIX.Failure(operation: "mkdir", path: path, code: errno)
        }
        lockFD = try Self.lock(directory + "/lock")
        cursor = Position(segment: 0, offset: Self.headerSize, index: 0)
        let saved = Self.readCursor(cursorPath)
        var numbers = try listSegments()
        numbers.sort()
        for number in numbers {
            if let saved, number < saved.segment {
                POSIX.remove(segmentPath(number))
                continue
            }
            if var segment = try scan(number) {
                if let saved, saved.segment == number {
                    // The record index at the saved offset (a saved offset past the end means the
                    // tail it pointed into was cut: start after the last intact record).
                    let (offset, index) = try locate(number, offset: saved.offset, length: segment.length,
                                                     format: segment.format)
                    cursor = Position(segment: number, offset: offset, index: index)
                }
                segment.length = max(segment.length, Self.headerSize)
                segments.append(segment)
            }
        }
        if let first = segments.first, cursor.segment < first.number || saved == nil {
            cursor = Position(segment: first.number, offset: Self.headerSize, index: 0)
        }
        try startSegment((segments.last?.number ?? (saved?.segment ?? 0)) + 1)
        if segments.count == 1 { cursor = Position(segment: segments[0].number, offset: Self.headerSize, index: 0) }
        totalBytes = segments.reduce(0) { $0 + $1.length }
    }

    deinit {
        release()
    }

    func close() {
        release()
    }

    /// Cuts every open segment to its records and closes it; deletes the spare; lets go of the
    /// directory's lock.
    private func release() {
        finishWriting()
        for segment in retired {
            if let known = segments.first(where: { $0.number == segment.number }) {
                _ = ftruncate(segment.fd, off_t(known.length))
            }
            POSIX.close(segment.fd)
        }
        retired = []
        discardSpare()
        if lockFD >= 0 {
            POSIX.close(lockFD)  // which releases the flock
            lockFD = -1
        }
    }

    /// Opens `path` and takes its exclusive `flock` without waiting, writing this process's id into
    /// it. Held by another open journal (another process, or another client of this one), it
    /// throws a failure that names the holder.
    ///
    /// One wait is allowed: when the holder is this process, the lock may be one this process has
    /// just let go of. A `flock` belongs to the open file, and a child this process is starting
    /// (`posix_spawn`, `Process`) holds a copy of every descriptor between its fork and its exec,
    /// close-on-exec or not; until the exec the lock outlives the `close`. So a journal reopened
    /// right after a client shut down, while another thread starts a process, can find it still
    /// held. The lock is tried again for up to a second before the directory is reported in use.
    private static func lock(_ path: String) throws(POSIX.Failure) -> Int32 {
        let fd = try POSIX.open(path, flags: O_RDWR | O_CREAT)
        var retries = 0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            let holder = ((try? POSIX.read(fd, offset: 0, count: 32, path: path)) ?? [])
                .prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            if code == EWOULDBLOCK, retries < 100, String(decoding: holder, as: UTF8.self) == String(getpid()) {
                retries += 1
                usleep(10_000)
                continue
            }
            POSIX.close(fd)
            var failure = POSIX.Failure(operation: "flock", path: path, code: code)
            if code == EWOULDBLOCK {
                failure.explanation = "the journal directory is in use by another process"
                    + (holder.isEmpty ? "" : " (pid \(String(decoding: holder, as: UTF8.self)))")
                    + " or by another client of this one; give each its own directory"
            }
            throw failure
        }
        _ = ftruncate(fd, 0)
        try? POSIX.writeAll(fd, Array("\(getpid())\n".utf8), at: 0, path: path)
        return fd
    }

    private func discardSpare() {
        guard let unused = spare else { return }
        spare = nil
        POSIX.close(unused.fd)
        POSIX.remove(unused.path)
    }

    /// Unacknowledged records.
    var pendingCount: Int { count(from: cursor) }

    /// Records from `position` (or from the cursor, when that is further) to the end: with batches
    /// in flight, those not read into one yet.
    func count(from position: Position) -> Int {
        let start = max(position, cursor)
        var count = 0
        for segment in segments where segment.number >= start.segment {
            count += segment.records - (segment.number == start.segment ? start.index : 0)
        }
        return count
    }

    /// The position after the last record written.
    var end: Position {
        let last = segments[segments.count - 1]
        return Position(segment: last.number, offset: last.length, index: last.records)
    }

    /// Appends one record. Returns how many unacknowledged records the size cap dropped to make room.
    func append(_ payload: [UInt8]) throws(POSIX.Failure) -> Int {
        var outcome: Swift.Result<Int, POSIX.Failure> = .success(0)
        payload.withUnsafeBytes { bytes in
            do throws(POSIX.Failure) { outcome = .success(try append(payload: bytes)) } catch { outcome = .failure(error) }
        }
        return try outcome.get()
    }

    /// Appends one record: its header and a copy of `payload` into the mapped segment, or one
    /// `pwrite` of both where there is no mapping. Returns how many unacknowledged records the size
    /// cap dropped to make room.
    func append(payload: UnsafeRawBufferPointer) throws(POSIX.Failure) -> Int {
        let length = payload.count
        precondition(length > 0 && length <= Self.maxPayload)
        let size = Self.recordOverhead + length
        var last = segments[segments.count - 1]
        if last.length + size > segmentBytes && last.records > 0 {
            try startSegment(last.number + 1)
            last = segments[segments.count - 1]
        }
        let droppedNow = totalBytes + size > maxBytes ? makeRoom(for: size) : 0
        // Always a segment this journal started: the current format.
        let crc = RecordChecksum.mix(payload)
        let offset = last.length
        if let base = mappedBase, offset + size <= mappedCount {
            if offset + size > populatedBytes { populate(through: offset + size) }
            // The payload first, then its length and checksum, the marker last: a record is there
            // once its marker is.
            (base + offset + Self.recordOverhead).copyMemory(from: payload.baseAddress!, byteCount: length)
            base.storeBytes(of: UInt32(length).littleEndian, toByteOffset: offset + 4, as: UInt32.self)
            base.storeBytes(of: crc.littleEndian, toByteOffset: offset + 8, as: UInt32.self)
            base.storeBytes(of: JournalFormat.markerWord.littleEndian, toByteOffset: offset, as: UInt32.self)
        } else {
            var record = JournalFormat.marker + [UInt8](repeating: 0, count: Self.recordOverhead - 4)
            record.reserveCapacity(size)
            for i in 0..<4 {
                record[4 + i] = UInt8(truncatingIfNeeded: UInt32(length) >> UInt32(8 * i))
                record[8 + i] = UInt8(truncatingIfNeeded: crc >> UInt32(8 * i))
            }
            record.append(contentsOf: payload)
            try POSIX.writeAll(writeFD, record, at: offset, path: writePath)
        }
        last.length += size
        last.records += 1
        segments[segments.count - 1] = last
        totalBytes += size
        return droppedNow
    }

    /// Deletes the oldest segments (never the one being written) until `size` more bytes fit.
    private func makeRoom(for size: Int) -> Int {
        var count = 0
        while totalBytes + size > maxBytes && segments.count > 1 {
            let oldest = segments.removeFirst()
            totalBytes -= oldest.length
            var from = 0
            if cursor.segment > oldest.number {
                from = oldest.records
            } else if cursor.segment == oldest.number {
                from = cursor.index
            }
            if let inFlight = inFlightEnd {
                if inFlight.segment > oldest.number { from = oldest.records }
                else if inFlight.segment == oldest.number { from = max(from, inFlight.index) }
            }
            count += max(0, oldest.records - from)
            if cursor.segment <= oldest.number {
                cursor = Position(segment: segments[0].number, offset: Self.headerSize, index: 0)
            }
            if let index = retired.firstIndex(where: { $0.number == oldest.number }) {
                POSIX.close(retired.remove(at: index).fd)
            }
            POSIX.remove(segmentPath(oldest.number))
        }
        dropped += count
        return count
    }

    /// Up to `maxEvents` records (and about `maxBytes` of payload, at least one record) from `from`.
    /// Records of the segment being written are read in place from its mapping; others from their
    /// file, each checked against its checksum.
    func read(from start: Position, maxEvents: Int, maxBytes: Int) throws(POSIX.Failure) -> [Record] {
        var records: [Record] = []
        try read(from: start, maxEvents: maxEvents, maxBytes: maxBytes, into: &records)
        return records
    }

    /// The same, appended to `records` (empty: its storage reused).
    func read(from start: Position, maxEvents: Int, maxBytes: Int, into records: inout [Record]) throws(POSIX.Failure) {
        records.reserveCapacity(min(maxEvents, count(from: start)))
        var bytes = 0
        var position = max(start, cursor)
        for segment in segments where segment.number >= position.segment {
            if segment.number > position.segment {
                position = Position(segment: segment.number, offset: Self.headerSize, index: 0)
            }
            guard position.offset < segment.length else { continue }
            let storage: JournalBytes
            let base: Int
            let trusted: Bool
            if let mapped, segment.number == segments[segments.count - 1].number, segment.length <= mapped.count {
                (storage, base, trusted) = (mapped, 0, true)
            } else if let kept = retired.first(where: { $0.number == segment.number }), segment.length <= kept.mapping.count {
                (storage, base, trusted) = (kept.mapping, 0, true)
            } else {
                let path = segmentPath(segment.number)
                let fd = try POSIX.open(path, flags: O_RDONLY)
                defer { POSIX.close(fd) }
                // A damaged segment whole, so that reading can resynchronize however much is damaged.
                let want = segment.damaged ? segment.length - position.offset
                    : min(segment.length - position.offset,
                          max(maxBytes - bytes, 0) + Self.maxPayload + segment.format.overhead)
                (storage, base, trusted) = (try JournalBytes(reading: fd, offset: position.offset, count: want, path: path),
                                            position.offset, false)
            }
            // `at` is a file offset; the storage holds the file from `base`.
            let limit = trusted ? segment.length : base + storage.count
            let window = UnsafeRawBufferPointer(start: storage.base, count: limit - base)
            let format = segment.format
            var at = position.offset
            while records.count < maxEvents {
                // This process wrote a trusted segment's records: framed, not checked again. Others
                // were checked at open; one that does not check out now (the file changed under us)
                // is skipped, not sent as garbage, and reading resynchronizes after it.
                guard let found = format.next(in: window, from: at - base, limit: limit - base, verify: !trusted) else { break }
                let length = found.length
                if !records.isEmpty && bytes + length > maxBytes { return }
                let payloadOffset = found.start + format.overhead
                at = base + payloadOffset + length
                position = Position(segment: segment.number, offset: at, index: position.index + 1)
                records.append(Record(storage: storage, offset: payloadOffset, length: length, end: position))
                bytes += length
            }
            if records.count >= maxEvents || bytes >= maxBytes { return }
            // A window that ends before the segment does: the batch ends here, and the next read
            // starts where it stopped (never in the next segment, past records not read yet).
            if limit < segment.length { return }
        }
    }

    /// Marks everything before `end` acknowledged. Returns the cursor file's new content and the
    /// segments to delete, for the caller to write and unlink outside its lock.
    func acknowledge(through end: Position) -> (cursorText: [UInt8], deletable: [String]) {
        if end > cursor { cursor = end }
        // A fully read segment that is no longer written to: move the cursor to the next one.
        while let i = segments.firstIndex(where: { $0.number == cursor.segment }), i + 1 < segments.count,
              cursor.offset >= segments[i].length {
            cursor = Position(segment: segments[i + 1].number, offset: Self.headerSize, index: 0)
        }
        var deletable: [String] = []
        while segments.count > 1 && segments[0].number < cursor.segment {
            let segment = segments.removeFirst()
            totalBytes -= segment.length
            if let index = retired.firstIndex(where: { $0.number == segment.number }) {
                // The newest acknowledged one is the spare: an older one may be what a batch
                // still holds (and then cannot be reused).
                if let older = spare {
                    POSIX.close(older.fd)
                    deletable.append(older.path)
                }
                spare = retired.remove(at: index)
                continue
            }
            deletable.append(segmentPath(segment.number))
        }
        return (Self.cursorSlot(cursor), deletable)
    }

    /// A second descriptor of the segment being written, for an `fsync` outside the caller's lock.
    func duplicateWriteHandle() -> Int32? {
        guard writeFD >= 0 else { return nil }
        let fd = dup(writeFD)
        return fd >= 0 ? fd : nil
    }

    /// Writes the cursor into slot `slot` (0 or 1: the caller alternates) and deletes acknowledged
    /// segments; with `durable`, syncs the segment first (`syncHandle`, closed here) so the cursor
    /// never outlives the records, and the cursor file after.
    static func persist(cursorText: [UInt8], at cursorPath: String, deletable: [String], syncHandle: Int32?,
                        durable: Bool, slot: Int = 0) throws(POSIX.Failure) {
        if let syncHandle {
            POSIX.sync(syncHandle)
            POSIX.close(syncHandle)
        }
        let fd = try openCursor(cursorPath)
        defer { POSIX.close(fd) }
        try persist(cursorText: cursorText, to: fd, path: cursorPath, deletable: deletable, syncHandle: nil,
                    durable: durable, slot: slot)
    }

    /// The same, into a cursor file the caller keeps open (`openCursor`).
    static func persist(cursorText: [UInt8], to fd: Int32, path cursorPath: String, deletable: [String], syncHandle: Int32?,
                        durable: Bool, slot: Int) throws(POSIX.Failure) {
        if let syncHandle {
            POSIX.sync(syncHandle)
            POSIX.close(syncHandle)
        }
        try POSIX.writeAll(fd, cursorText, at: cursorSlotOffsets[slot & 1], path: cursorPath)
        if durable { POSIX.sync(fd) }
        for path in deletable { POSIX.remove(path) }
    }

    /// The cursor file, opened for writing (made when missing).
    static func openCursor(_ cursorPath: String) throws(POSIX.Failure) -> Int32 {
        try POSIX.open(cursorPath, flags: O_WRONLY | O_CREAT)
    }

    /// Where the cursor file's two slots start (different disk sectors), and a slot's size.
    static let cursorSlotOffsets = [0, 512]
    static let cursorSlotSize = 128

    /// A cursor slot: its text line, padded with spaces to `cursorSlotSize`.
    static func cursorSlot(_ position: Position) -> [UInt8] {
        var bytes = Array("menurank-journal 2 \(position.segment) \(position.offset)".utf8)
        let crc = String(CRC32.checksum(bytes), radix: 16)
        bytes.append(contentsOf: " \(crc)\n".utf8)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: max(0, cursorSlotSize - bytes.count)))
        return bytes
    }

    /// The position in one slot's bytes: an intact second-format line, or a first-format one.
    static func parseCursorSlot(_ bytes: ArraySlice<UInt8>) -> Position? {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = bytes[bytes.startIndex..<newline]
        let fields = line.split(separator: UInt8(ascii: " "))
        guard fields.count >= 4, fields[0].elementsEqual("menurank-journal".utf8),
              let segment = UInt64(String(decoding: fields[2], as: UTF8.self)),
              let offset = Int(String(decoding: fields[3], as: UTF8.self))
        else { return nil }
        if fields.count == 4 && fields[1].elementsEqual("1".utf8) {
            return Position(segment: segment, offset: offset, index: 0)
        }
        guard fields.count == 5, fields[1].elementsEqual("2".utf8),
              let crc = UInt32(String(decoding: fields[4], as: UTF8.self), radix: 16),
              let end = line.lastIndex(of: UInt8(ascii: " ")),
              CRC32.checksum(line[line.startIndex..<end]) == crc
        else { return nil }
        return Position(segment: segment, offset: offset, index: 0)
    }

    var cursorFilePath: String { cursorPath }

    func segmentPath(_ number: UInt64) -> String {
        let hex = String(number, radix: 16)
        return segmentsDirectory + "/" + String(repeating: "0", count: max(0, 16 - hex.count)) + hex + ".seg"
    }

    private func startSegment(_ number: UInt64) throws(POSIX.Failure) {
        finishWriting()
        let path = segmentPath(number)
        if reuseSpare(as: number, path: path) { return }
        writeFD = try POSIX.open(path, flags: O_RDWR | O_CREAT | O_TRUNC)
        writePath = path
        try POSIX.writeAll(writeFD, JournalFormat.current.magic, at: 0, path: path)
        segments.append(Segment(number: number, length: Self.headerSize, records: 0, format: .current))
        totalBytes += Self.headerSize
        mapSegment()
    }

    /// Makes the spare the segment `number` (see "Recycling" above); false when there is none, or
    /// when a batch still reads from it (then it is deleted), or the rename fails.
    private func reuseSpare(as number: UInt64, path: String) -> Bool {
        guard var reused = spare else { return false }
        spare = nil
        // Only the journal refers to its mapping: no batch reads from it while it is zeroed.
        guard isKnownUniquelyReferenced(&reused.mapping) else {
            spare = reused
            discardSpare()
            return false
        }
        // Zeros first, magic included: killed from here on, the file is no segment (deleted at
        // start), under either name.
        memset(reused.mapping.base, 0, Self.headerSize)
        memset(reused.mapping.base + Self.headerSize, 0, max(0, min(reused.length, reused.mapping.count) - Self.headerSize))
        guard rename(reused.path, path) == 0 else {
            spare = reused
            discardSpare()
            return false
        }
        JournalFormat.current.magic.withUnsafeBytes {
            reused.mapping.base.copyMemory(from: $0.baseAddress!, byteCount: Self.headerSize)
        }
        writeFD = reused.fd
        writePath = path
        mapped = reused.mapping
        populatedBytes = reused.mapping.count
        segments.append(Segment(number: number, length: Self.headerSize, records: 0, format: .current))
        totalBytes += Self.headerSize
        recycledSegments += 1
        return true
    }

    /// Linux: reserves the new segment's blocks and maps it for appends. Without either, appends
    /// are `pwrite`s.
    private func mapSegment() {
        #if canImport(Glibc)
        guard posix_fallocate(writeFD, 0, off_t(segmentBytes)) == 0 else { return }
        guard let pointer = mmap(nil, segmentBytes, PROT_READ | PROT_WRITE, MAP_SHARED, writeFD, 0),
              pointer != UnsafeMutableRawPointer(bitPattern: -1)
        else {
            _ = ftruncate(writeFD, off_t(Self.headerSize))
            return
        }
        mapped = JournalBytes(mapping: pointer, count: segmentBytes)
        #endif
    }

    /// Makes the mapping's pages up to `end` (and a step beyond) present and writable before the
    /// appends reach them: first the file's zeros written there with one `pwrite` (the blocks are
    /// reserved, so it cannot run out of space), which puts the pages into the page cache through
    /// the write path, then `MADV_POPULATE_WRITE` (Linux 5.14) maps them writable in one call.
    /// Touched first through the mapping instead, each page cost a read fault (which reads the
    /// reserved blocks in as zeros) and a write fault that has the file system map its block, 5-6
    /// us of CPU per 4 KiB page where this costs about 1.5 (measured on ext4, see
    /// docs/benchmarks.md). Either step failing only leaves the faults.
    private func populate(through end: Int) {
        #if canImport(Glibc)
        guard let mapped else { return }
        // Whole steps (page-aligned starts, as madvise needs), up to the mapping's end.
        let step = Self.populateStep
        let target = min(mapped.count, (max(end, populatedBytes + step) + step - 1) / step * step)
        // Never over the records and the magic already there: zeros only past them.
        let zeroFrom = max(populatedBytes, segments[segments.count - 1].length)
        var at = zeroFrom
        while at < target {
            let written = pwrite(writeFD, Self.zeros, min(target - at, step), off_t(at))
            guard written > 0 else { break }
            at += written
        }
        let madvisePopulateWrite: Int32 = 23
        _ = madvise(mapped.base + populatedBytes, target - populatedBytes, madvisePopulateWrite)
        populatedBytes = target
        #endif
    }

    /// `populateStep` zero bytes (untouched pages of a fresh allocation: the kernel's zero page).
    /// Only read.
    nonisolated(unsafe) private static let zeros = UnsafeRawPointer(calloc(populateStep, 1)!)

    /// Lets go of the segment being written's mapping (unmapped once no batch reads from it), cuts
    /// the file to its records and closes it.
    private func finishWriting() {
        guard writeFD >= 0 else { return }
        if recycles, let mapping = mapped, let last = segments.last {
            // Kept whole and mapped (a mapping cut under a reader faults), for batches to read in
            // place and to become the spare once acknowledged: its records end where the zeros start.
            retired.append(Retired(number: last.number, fd: writeFD, mapping: mapping, path: writePath, length: last.length))
            mapped = nil
            populatedBytes = 0
            writeFD = -1
            return
        }
        if mapped != nil, let last = segments.last { _ = ftruncate(writeFD, off_t(last.length)) }
        mapped = nil
        populatedBytes = 0
        POSIX.close(writeFD)
        writeFD = -1
    }

    private func listSegments() throws(POSIX.Failure) -> [UInt64] {
        guard let dir = opendir(segmentsDirectory) else {
            throw POSIX.Failure(operation: "opendir", path: segmentsDirectory, code: errno)
        }
        defer { closedir(dir) }
        var numbers: [UInt64] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name.hasSuffix(".seg"), name.count == 20, let number = UInt64(name.prefix(16), radix: 16) {
                numbers.append(number)
            } else if name.hasSuffix(".tmp") {
                POSIX.remove(segmentsDirectory + "/" + name)
            }
        }
        return numbers
    }

    /// Checks a segment record by record: counts the records lost to damage (resynchronizing
    /// after it, in the current format), cuts off what follows the last intact record, and reads
    /// a segment whose magic is damaged as the format its records have. Nil (and the file
    /// deleted) when it holds no record: zeros only (a spare being reused when the process was
    /// killed), or nothing readable (counted as damage).
    private func scan(_ number: UInt64) throws(POSIX.Failure) -> Segment? {
        let path = segmentPath(number)
        let fd = try POSIX.open(path, flags: O_RDWR)
        defer { POSIX.close(fd) }
        let size = try POSIX.fileSize(fd, path: path)
        let bytes = try POSIX.read(fd, offset: 0, count: size, path: path)
        let outcome = bytes.withUnsafeBytes { all -> Swift.Result<Segment?, POSIX.Failure> in
            do throws(POSIX.Failure) { return .success(try scan(number, all, fd: fd, path: path)) } catch { return .failure(error) }
        }
        return try outcome.get()
    }

    /// `scan(_:)` of the segment's bytes `all`, read from `fd`.
    private func scan(_ number: UInt64, _ all: UnsafeRawBufferPointer, fd: Int32, path: String) throws(POSIX.Failure)
        -> Segment?
    {
        let name = "segment \(String(number, radix: 16))"
        var format: JournalFormat
        if let named = JournalFormat(magic: all.prefix(Self.headerSize)) {
            format = named
        } else {
            guard all.count > Self.headerSize, all[Self.headerSize...].contains(where: { $0 != 0 }) else {
                POSIX.remove(path)
                return nil
            }
            // The magic is damaged: the format whose records the rest holds.
            let readable = [JournalFormat.third, .second, .first].first { candidate in
                candidate.next(in: all, from: Self.headerSize, limit: all.count) != nil
            }
            guard let readable else {
                let lost = max(1, JournalFormat.current.damagedRecords(in: all, from: Self.headerSize, limit: all.count))
                damage.records += lost
                damage.messages.append("\(name): header damaged and no record readable; \(lost) records lost, file deleted")
                POSIX.remove(path)
                return nil
            }
            format = readable
            damage.messages.append("\(name): header damaged; its records read as the \(readable) format")
            try POSIX.writeAll(fd, format.magic, at: 0, path: path)
        }
        var segment = Segment(number: number, length: Self.headerSize, records: 0, format: format)
        var at = Self.headerSize
        while let found = format.next(in: all, from: at, limit: all.count) {
            if found.lost > 0 {
                segment.damaged = true
                damage.records += found.lost
                damage.messages.append("\(name): \(found.lost) damaged record(s) at offset \(at) skipped")
            }
            at = found.start + format.overhead + found.length
            segment.records += 1
        }
        segment.length = at
        // After the last record: a torn write or damaged records (cut off and counted), or only
        // the zeros of a mapped segment whose writer was killed (left: this segment is not
        // written again).
        if at < all.count, let last = all[at...].lastIndex(where: { $0 != 0 }) {
            let lost = format.damagedRecords(in: all, from: at, limit: last + 1)
            if lost > 0 {
                damage.records += lost
                damage.messages.append("\(name): \(lost) damaged record(s) at its end cut off")
            }
            tornBytesRepaired += last + 1 - at
            try POSIX.truncate(fd, to: at, path: path)
        }
        return segment
    }

    /// The record boundary at or before `offset` in a checked segment, and its index.
    private func locate(_ number: UInt64, offset: Int, length: Int, format: JournalFormat) throws(POSIX.Failure) -> (Int, Int) {
        let path = segmentPath(number)
        let fd = try POSIX.open(path, flags: O_RDONLY)
        defer { POSIX.close(fd) }
        let bytes = try POSIX.read(fd, offset: 0, count: length, path: path)
        return bytes.withUnsafeBytes { all in
            var at = Self.headerSize
            var index = 0
            while let found = format.next(in: all, from: at, limit: all.count) {
                let next = found.start + format.overhead + found.length
                if next > offset { break }
                at = next
                index += 1
            }
            return (at, index)
        }
    }

    /// The furthest intact slot of the cursor file (the cursor only moves forward).
    static func readCursor(_ path: String) -> Position? {
        guard let fd = try? POSIX.open(path, flags: O_RDONLY) else { return nil }
        defer { POSIX.close(fd) }
        guard let bytes = try? POSIX.read(fd, offset: 0, count: cursorSlotOffsets[1] + cursorSlotSize, path: path)
        else { return nil }
        return cursorSlotOffsets.compactMap { start -> Position? in
            guard start < bytes.count else { return nil }
            return parseCursorSlot(bytes[start..<min(bytes.count, start + cursorSlotSize)])
        }.max()
    }
}
