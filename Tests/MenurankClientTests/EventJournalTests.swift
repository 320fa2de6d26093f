import Foundation
@testable import MenurankClient
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The journal on its own: what a restart reads back, a torn tail, the size cap, acknowledgement.
@Suite("MenurankClient: journal")
struct EventJournalTests {
    static func scratch() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        return path
    }

    static func payload(_ n: Int, size: Int = 100) -> [UInt8] {
        let text = "{\"n\":\(n),\"pad\":\"" + String(repeating: "x", count: max(0, size - 20)) + "\"}"
        return Array(text.utf8)
    }

    /// A copy of the directory as a killed process leaves it (what its page cache holds): another
    /// journal cannot open the directory itself while this process's journal holds its lock.
    static func copyAsKilled(_ directory: String) throws -> String {
        let copy = scratch()
        try FileManager.default.copyItem(atPath: directory, toPath: copy)
        return copy
    }

    static func numbers(_ records: [EventJournal.Record]) -> [Int] {
        records.compactMap { record in
            (try? JSONSerialization.jsonObject(with: Data(record.payload)) as? [String: Any])?["n"] as? Int
        }
    }

    @Test func recordsSurviveReopeningAndAcknowledgedOnesDoNotComeBack() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let journal = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 4096)
            for n in 0..<100 { _ = try journal.append(Self.payload(n)) }
            #expect(journal.pendingCount == 100)
            let batch = try journal.read(from: journal.cursor, maxEvents: 30, maxBytes: 1 << 20)
            #expect(Self.numbers(batch) == Array(0..<30))
            let (text, deletable) = journal.acknowledge(through: batch.last!.end)
            try EventJournal.persist(cursorText: text, at: journal.cursorFilePath, deletable: deletable, syncHandle: nil,
                                     durable: false)
            #expect(journal.pendingCount == 70)
            // Read but never acknowledged (a kill before the answer): they come back.
            _ = try journal.read(from: journal.cursor, maxEvents: 30, maxBytes: 1 << 20)
        }
        let reopened = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 4096)
        #expect(reopened.pendingCount == 70)
        let all = try reopened.read(from: reopened.cursor, maxEvents: 1000, maxBytes: 1 << 20)
        #expect(Self.numbers(all) == Array(30..<100))
        // Segments wholly before the cursor are gone.
        let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/segments")
        #expect(files.count < 100 * 108 / 4096 + 3)
    }

    @Test func aTornLastWriteIsCutOffAndEverythingBeforeItKept() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var lastSegment = ""
        do {
            let journal = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
            for n in 0..<10 { _ = try journal.append(Self.payload(n)) }
            lastSegment = journal.segmentPath(journal.end.segment)
        }
        // A torn record: a header that promises more than was written, then a half payload.
        let handle = try #require(FileHandle(forWritingAtPath: lastSegment))
        handle.seekToEndOfFile()
        handle.write(Data([200, 0, 0, 0, 1, 2, 3, 4] + Array("{\"n\":10,\"pa".utf8)))
        try handle.close()
        let reopened = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
        #expect(reopened.tornBytesRepaired == 8 + 11)
        #expect(Self.numbers(try reopened.read(from: reopened.cursor, maxEvents: 100, maxBytes: 1 << 20)) == Array(0..<10))
        // A flipped byte inside the last record fails its CRC: that record is cut, not sent as garbage.
        _ = try reopened.append(Self.payload(10))
        let segment = reopened.segmentPath(reopened.end.segment)
        reopened.close()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
        bytes[bytes.count - 5] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: segment))
        let again = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
        #expect(again.tornBytesRepaired > 0)
        // A whole record that does not check out is a loss, and counted as one.
        #expect(again.damage.records == 1, "\(again.damage)")
        #expect(Self.numbers(try again.read(from: again.cursor, maxEvents: 100, maxBytes: 1 << 20)) == Array(0..<10))
    }

    @Test func aFullJournalDropsTheOldestAndCountsThem() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // 256 KiB is the smallest cap (four records of the largest size); 1 KiB records.
        let journal = try EventJournal(directory: directory, maxBytes: 256 * 1024, segmentBytes: 16 * 1024)
        var dropped = 0
        for n in 0..<1000 { dropped += try journal.append(Self.payload(n, size: 1000)) }
        #expect(dropped > 0)
        #expect(journal.dropped == dropped)
        #expect(journal.pendingCount + dropped == 1000)
        #expect(journal.totalBytes <= 256 * 1024)
        let kept = Self.numbers(try journal.read(from: journal.cursor, maxEvents: 10_000, maxBytes: 1 << 30))
        // The newest are kept, in order, with no gap: the oldest went first.
        #expect(kept == Array((1000 - kept.count)..<1000))
        #expect(kept.count == journal.pendingCount)
    }

    @Test func theBatchInFlightIsNeverCountedAsDropped() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try EventJournal(directory: directory, maxBytes: 256 * 1024, segmentBytes: 16 * 1024)
        for n in 0..<50 { _ = try journal.append(Self.payload(n, size: 1000)) }
        let batch = try journal.read(from: journal.cursor, maxEvents: 20, maxBytes: 1 << 30)
        journal.inFlightEnd = batch.last!.end
        var dropped = 0
        for n in 50..<400 { dropped += try journal.append(Self.payload(n, size: 1000)) }
        // The 20 in flight are acknowledged later and count as sent: dropped + pending + 20 = all.
        let (_, _) = journal.acknowledge(through: batch.last!.end)
        #expect(dropped + journal.pendingCount + 20 == 400)
    }

    /// The cursor is written in place, in two slots in turn: a torn write of one falls back to the
    /// other (an older position: a batch sent again, never one skipped); a cursor file of the first
    /// format (one line, renamed into place) is still read.
    @Test func aTornCursorFallsBackToTheSlotBeforeIt() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var cursorPath = ""
        var positions: [EventJournal.Position] = []
        do {
            let journal = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
            cursorPath = journal.cursorFilePath
            for n in 0..<100 { _ = try journal.append(Self.payload(n)) }
            for (slot, count) in [30, 30].enumerated() {
                let batch = try journal.read(from: journal.cursor, maxEvents: count, maxBytes: 1 << 20)
                let (text, deletable) = journal.acknowledge(through: batch.last!.end)
                try EventJournal.persist(cursorText: text, at: cursorPath, deletable: deletable, syncHandle: nil,
                                         durable: false, slot: slot)
                positions.append(journal.cursor)
            }
        }
        #expect(try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16).pendingCount == 40)
        #expect(EventJournal.readCursor(cursorPath) == positions[1])
        // A digit of the newer slot changed (a torn write): its checksum fails, the older slot wins.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: cursorPath)))
        let slot = EventJournal.cursorSlotOffsets[1]
        let digit = try #require(bytes[slot...].firstIndex { (0x31...0x38).contains($0) })
        bytes[digit] += 1
        try Data(bytes).write(to: URL(fileURLWithPath: cursorPath))
        #expect(EventJournal.readCursor(cursorPath) == positions[0])
        // The first format, as an earlier version wrote it.
        let old = "menurank-journal 1 \(positions[1].segment) \(positions[1].offset)\n"
        try Data(old.utf8).write(to: URL(fileURLWithPath: cursorPath))
        #expect(EventJournal.readCursor(cursorPath) == positions[1])
        #expect(try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16).pendingCount == 40)
    }

    /// On Linux the segment being written is mapped and its space reserved: what a killed writer
    /// leaves ends in zeros, which a restart reads past without calling them torn; a closed
    /// segment is cut to its records.
    @Test func aSegmentLeftByAKilledWriterEndsInZerosThatAreNotTorn() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
        for n in 0..<10 { _ = try writer.append(Self.payload(n)) }
        let segment = writer.segmentPath(writer.end.segment)
        let length = writer.end.offset
        #if os(Linux)
        #expect(try FileManager.default.attributesOfItem(atPath: segment)[.size] as? Int == 1 << 16)
        #endif
        // Copied while the writer still has it (as a kill leaves it): the ten records, nothing torn.
        let copy = try Self.copyAsKilled(directory)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let reader = try EventJournal(directory: copy, maxBytes: 1 << 20, segmentBytes: 1 << 16)
        #expect(reader.tornBytesRepaired == 0)
        #expect(reader.damage == EventJournal.Damage())
        #expect(Self.numbers(try reader.read(from: reader.cursor, maxEvents: 100, maxBytes: 1 << 20)) == Array(0..<10))
        reader.close()
        writer.close()
        #expect(try FileManager.default.attributesOfItem(atPath: segment)[.size] as? Int == length)
    }

    /// A batch of the segment being written is read in place from its mapping: its records stay
    /// readable while writing moves on to new segments (cutting the old one to its records) and
    /// after the journal is closed, until the batch lets go.
    @Test func aBatchReadInPlaceOutlivesTheJournalMovingOnAndClosing() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 4096)
        for n in 0..<10 { _ = try journal.append(Self.payload(n)) }
        let batch = try journal.read(from: journal.cursor, maxEvents: 10, maxBytes: 1 << 20)
        let first = batch[0].end.segment
        for n in 10..<200 { _ = try journal.append(Self.payload(n)) }
        #expect(journal.end.segment > first + 2)
        #expect(Self.numbers(batch) == Array(0..<10))
        let later = try journal.read(from: batch.last!.end, maxEvents: 1000, maxBytes: 1 << 20)
        #expect(Self.numbers(later) == Array(10..<200))
        journal.close()
        #expect(Self.numbers(batch) == Array(0..<10))
        #expect(Self.numbers(later) == Array(10..<200))
    }

    /// The mapping is made present ahead of the appends, 256 KiB at a time, by writing the file's
    /// zeros there first: across many such steps no record is overwritten, and what a killed writer
    /// leaves reads back whole, ending in zeros that are not torn.
    @Test func recordsAcrossManyPopulatedStepsReadBackWhole() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = try EventJournal(directory: directory, maxBytes: 64 << 20, segmentBytes: 4 << 20)
        for n in 0..<3000 { _ = try writer.append(Self.payload(n, size: 300 + n % 7)) }
        // About 0.9 MiB in one segment: four populated steps.
        #expect(writer.end.segment == writer.cursor.segment && writer.end.offset > 3 * 256 * 1024)
        let copy = try Self.copyAsKilled(directory)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let reader = try EventJournal(directory: copy, maxBytes: 64 << 20, segmentBytes: 4 << 20)
        #expect(reader.tornBytesRepaired == 0)
        #expect(Self.numbers(try reader.read(from: reader.cursor, maxEvents: 10_000, maxBytes: 1 << 30)) == Array(0..<3000))
        #expect(Self.numbers(try writer.read(from: writer.cursor, maxEvents: 10_000, maxBytes: 1 << 30)) == Array(0..<3000))
        reader.close()
        writer.close()
    }

    /// A segment of the first format (`MRKJRNL1`, CRC-32 checksums), as an earlier version left
    /// it with a torn last record, is read and its torn tail cut; new records go into a segment of
    /// the current format after it, and all come back in order.
    @Test func aSegmentOfTheFirstFormatIsStillReadAndCheckedWithCRC32() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/segments", withIntermediateDirectories: true)
        var file = Array("MRKJRNL1".utf8)
        func u32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(8 * $0)) } }
        for n in 0..<5 {
            let payload = Self.payload(n)
            file += u32(UInt32(payload.count)) + u32(CRC32.checksum(payload)) + payload
        }
        // A sixth record whose checksum is the second format's, not CRC-32: torn for this segment.
        let sixth = Self.payload(5)
        file += u32(UInt32(sixth.count)) + u32(sixth.withUnsafeBytes { RecordChecksum.mix($0) }) + sixth
        try Data(file).write(to: URL(fileURLWithPath: directory + "/segments/0000000000000001.seg"))
        let journal = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
        #expect(journal.tornBytesRepaired == 8 + sixth.count)
        #expect(journal.pendingCount == 5)
        for n in 5..<10 { _ = try journal.append(Self.payload(n)) }
        #expect(journal.end.segment == 2)
        #expect(Self.numbers(try journal.read(from: journal.cursor, maxEvents: 100, maxBytes: 1 << 20)) == Array(0..<10))
        journal.close()
        let segment = try Data(contentsOf: URL(fileURLWithPath: directory + "/segments/0000000000000002.seg"))
        #expect(Array(segment.prefix(8)) == Array("MRKJRNL3".utf8))
        let reopened = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
        #expect(reopened.tornBytesRepaired == 0)
        #expect(Self.numbers(try reopened.read(from: reopened.cursor, maxEvents: 100, maxBytes: 1 << 20)) == Array(0..<10))
    }

    /// Acknowledged segments are reused (recycling: no fsync for power loss): across many segments
    /// only a few files exist, and a copy of the directory taken at any moment (what a killed
    /// process leaves in the page cache) reads back exactly the records not yet acknowledged, with
    /// nothing torn and no record of a segment's earlier use.
    @Test func recycledSegmentsLeaveNothingOfTheirEarlierRecords() throws {
        let directory = Self.scratch()
        let copies = Self.scratch()
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: copies)
        }
        let journal = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 4096, recycles: true)
        var acknowledged = 0
        var snapshots = 0
        for n in 0..<2000 {
            // Sizes vary, so a reused segment's old records never line up with the new ones.
            _ = try journal.append(Self.payload(n, size: 60 + (n * 37) % 200))
            if n % 23 == 22 {
                // All but the last few: a backlog of a few records, as a client in step with its server has.
                let batch = try journal.read(from: journal.cursor, maxEvents: journal.pendingCount - 5, maxBytes: 1 << 20)
                let (text, deletable) = journal.acknowledge(through: batch.last!.end)
                try EventJournal.persist(cursorText: text, at: journal.cursorFilePath, deletable: deletable,
                                         syncHandle: nil, durable: false)
                acknowledged += batch.count
            }
            if n % 97 == 96 {
                let copy = copies + "/\(n)"
                try FileManager.default.copyItem(atPath: directory, toPath: copy)
                let reopened = try EventJournal(directory: copy, maxBytes: 1 << 20, segmentBytes: 4096)
                #expect(reopened.tornBytesRepaired == 0)
                #expect(Self.numbers(try reopened.read(from: reopened.cursor, maxEvents: 10_000, maxBytes: 1 << 30))
                        == Array(acknowledged...n))
                reopened.close()
                snapshots += 1
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/segments")
            #expect(files.count <= 4, "\(files.count) segment files")
        }
        #expect(snapshots > 15)
        #expect(journal.end.segment > 50)
        #expect(journal.recycledSegments > journal.end.segment * 9 / 10, "\(journal.recycledSegments) of \(journal.end.segment)")
        #expect(Self.numbers(try journal.read(from: journal.cursor, maxEvents: 10_000, maxBytes: 1 << 30))
                == Array(acknowledged..<2000))
        journal.close()
        let reopened = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 4096)
        #expect(reopened.tornBytesRepaired == 0)
        #expect(reopened.pendingCount == 2000 - acknowledged)
    }

    /// A segment that a batch still reads from is never zeroed for reuse: it is deleted instead,
    /// and the batch's records stay as they were.
    @Test func aSegmentABatchStillReadsIsNotRecycled() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 4096, recycles: true)
        for n in 0..<60 { _ = try journal.append(Self.payload(n)) }
        // Held, as a delivery thread holds its batch until it has finished with it.
        let held = try journal.read(from: journal.cursor, maxEvents: 60, maxBytes: 1 << 20)
        #expect(held.first!.end.segment < journal.end.segment)
        _ = journal.acknowledge(through: held.last!.end)
        for n in 60..<300 { _ = try journal.append(Self.payload(n)) }
        #expect(Self.numbers(held) == Array(0..<60))
        do {
            let rest = try journal.read(from: journal.cursor, maxEvents: 1000, maxBytes: 1 << 20)
            #expect(Self.numbers(rest) == Array(60..<300))
            let (text, deletable) = journal.acknowledge(through: rest.last!.end)
            try EventJournal.persist(cursorText: text, at: journal.cursorFilePath, deletable: deletable, syncHandle: nil,
                                     durable: false)
        }
        // Later spares, which no batch holds any more, are reused.
        for n in 300..<400 { _ = try journal.append(Self.payload(n)) }
        #expect(journal.recycledSegments > 0)
        #expect(Self.numbers(try journal.read(from: journal.cursor, maxEvents: 1000, maxBytes: 1 << 20)) == Array(300..<400))
        journal.close()
    }

    /// A lock this process has just let go of can outlive its `close` for a moment: a child being
    /// started holds a copy of every descriptor until its exec. Here a second open description of
    /// the lock file plays that child, holding the lock with this process's id for 200 ms after
    /// the journal closed; the journal opened again meanwhile waits for it instead of reporting the
    /// directory in use (it did, as `DeliveryPolicyTests` found under a loaded test run).
    @Test func aLockThisProcessJustReleasedIsWaitedFor() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
        for n in 0..<3 { _ = try first.append(Self.payload(n)) }
        first.close()
        let lingering = open(directory + "/lock", O_RDWR | O_CLOEXEC)
        #expect(lingering >= 0)
        #expect(flock(lingering, LOCK_EX | LOCK_NB) == 0)
        // A thread of its own lets go of it: a loaded test run can keep Dispatch's global queue
        // busy for seconds (a 14 s wait for an asyncAfter of 200 ms was seen), longer than the
        // journal waits.
        let released = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            usleep(200_000)
            close(lingering)
            released.signal()
        }
        let again = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
        #expect(again.pendingCount == 3)
        again.close()
        released.wait()
    }

    /// One journal per directory: a second one, in this process or another, is refused with an
    /// error that says why (and names the process that holds it); once the first closes, or its
    /// process dies, the directory opens again.
    @Test func aSecondJournalOnTheSameDirectoryIsRefused() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
        for n in 0..<5 { _ = try first.append(Self.payload(n)) }
        do {
            _ = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
            Issue.record("a second journal opened the same directory")
        } catch {
            #expect(error.description.contains("in use by another process"), "\(error)")
            #expect(error.description.contains("pid \(getpid())"), "\(error)")
        }
        // The refused one touched nothing: the first still reads its records back.
        #expect(Self.numbers(try first.read(from: first.cursor, maxEvents: 100, maxBytes: 1 << 20)) == Array(0..<5))
        first.close()
        let again = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
        #expect(again.pendingCount == 5)
        again.close()
    }

    /// One flipped byte in the middle of a segment (payload, length, checksum or marker) loses that
    /// record only: reading resynchronizes at the next one, and the loss is counted.
    @Test(arguments: ["payload", "length", "checksum", "marker"])
    func aFlippedByteMidSegmentLosesExactlyOneRecord(place: String) throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var segment = ""
        var victim = 0
        do {
            let journal = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
            for n in 0..<300 {
                if n == 150 { victim = journal.end.offset }
                _ = try journal.append(Self.payload(n, size: 60 + n % 50))
            }
            segment = journal.segmentPath(journal.end.segment)
            #expect(journal.cursor.segment == journal.end.segment)
        }
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
        let offset = switch place {
        case "marker": victim + 1
        case "length": victim + 4
        case "checksum": victim + 9
        default: victim + EventJournal.recordOverhead + 30
        }
        bytes[offset] ^= 0x20
        try Data(bytes).write(to: URL(fileURLWithPath: segment))
        let reopened = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
        #expect(reopened.damage.records == 1, "\(reopened.damage)")
        #expect(reopened.pendingCount == 299)
        // In small batches too, so that some start right at the damage.
        var read: [Int] = []
        var from = reopened.cursor
        while true {
            let batch = try reopened.read(from: from, maxEvents: 7, maxBytes: 1 << 20)
            guard let last = batch.last else { break }
            read += Self.numbers(batch)
            from = last.end
        }
        #expect(read == Array(0..<150) + Array(151..<300))
        // Acknowledged past the damage, reopened: the rest, nothing counted twice.
        let (text, deletable) = reopened.acknowledge(through: try reopened.read(from: reopened.cursor, maxEvents: 200,
                                                                                maxBytes: 1 << 20).last!.end)
        try EventJournal.persist(cursorText: text, at: reopened.cursorFilePath, deletable: deletable, syncHandle: nil,
                                 durable: false)
        reopened.close()
        let later = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 1 << 16)
        #expect(Self.numbers(try later.read(from: later.cursor, maxEvents: 1000, maxBytes: 1 << 20)) == Array(201..<300))
    }

    /// A segment whose magic is damaged is not deleted behind the client's back: its records are
    /// read as their format (resynchronized at their markers) and the damage is reported; a
    /// segment with nothing readable left is counted as lost.
    @Test func aDamagedSegmentHeaderIsCountedAndItsRecordsKept() throws {
        let directory = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var segments: [String] = []
        do {
            let journal = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 4096)
            for n in 0..<120 { _ = try journal.append(Self.payload(n)) }
            segments = (journal.cursor.segment...journal.end.segment).map { journal.segmentPath($0) }
        }
        #expect(segments.count > 3)
        // The first segment's magic garbled: its records are still there.
        var first = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segments[0])))
        first[3] ^= 0x55
        try Data(first).write(to: URL(fileURLWithPath: segments[0]))
        let reopened = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 4096)
        #expect(reopened.damage.records == 0)
        #expect(reopened.damage.messages.count == 1 && reopened.damage.messages[0].contains("header damaged"),
                "\(reopened.damage)")
        #expect(Self.numbers(try reopened.read(from: reopened.cursor, maxEvents: 1000, maxBytes: 1 << 20)) == Array(0..<120))
        reopened.close()
        // Repaired: no second report.
        let again = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 4096)
        #expect(again.damage == EventJournal.Damage())
        again.close()
        // A second segment garbled beyond reading (magic and every marker): deleted, but counted.
        var second = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segments[1])))
        let records = second.indices.filter { at in at + 4 <= second.count && Array(second[at..<(at + 4)]) == JournalFormat.marker }.count
        for at in second.indices where second[at] == 0xFF || at < 8 { second[at] ^= 0x01 }
        try Data(second).write(to: URL(fileURLWithPath: segments[1]))
        let last = try EventJournal(directory: directory, maxBytes: 1 << 20, segmentBytes: 4096)
        #expect(last.damage.records >= 1, "\(last.damage)")
        #expect(last.damage.messages.joined().contains("no record readable"))
        #expect(last.pendingCount == 120 - records)
        last.close()
    }

    /// Two processes on one journal directory: the second is refused at once with an error that
    /// names the first (before, both wrote the same segments and up to three quarters of the events
    /// were lost with both exiting 0); once the first is gone, the directory opens again.
    @Test func aSecondProcessOnTheSameDirectoryIsRefused() throws {
        let first = ProbeRun(url: URL(string: "http://127.0.0.1:9")!, key: "mrk_w_0", count: 1_000_000)
        defer { first.cleanUp() }
        let holder = try first.start(paceMicroseconds: 2000)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, ((try? String(contentsOf: first.log, encoding: .utf8)) ?? "").count < 100 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(holder.isRunning)
        let second = ProbeRun(url: first.url, key: first.key, count: 10)
        defer { second.cleanUp() }
        let refused = try ChildProcess(try RepositoryPaths.builtExecutable("menurank-client-probe"), [
            "--dir", first.directory.path, "--url", first.url.absoluteString, "--key", first.key,
            "--log", second.log.path, "--count", "10",
        ])
        #expect(refused.wait(timeout: 60) == 1)
        #expect(refused.standardError.contains("in use by another process (pid \(holder.pid))"), "\(refused.standardError)")
        holder.signal(SIGKILL)
        _ = holder.wait(timeout: 60)
        // The lock goes with the process: the directory opens, with what the first one recorded.
        let journal = try EventJournal(directory: first.directory.appendingPathComponent("journal").path,
                                       maxBytes: 64 << 20, segmentBytes: 1 << 20)
        #expect(journal.pendingCount > 0)
        journal.close()
    }
}
