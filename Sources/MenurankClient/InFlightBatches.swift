/// The batches the delivery threads have read off the journal and not yet settled, in journal
/// order, and how far the journal's cursor may move: past a batch only once it and every batch
/// before it are acknowledged. A batch acknowledged out of order waits for those before it, so a
/// crash in between sends it again (same ids: the server counts duplicates) and never skips one
/// that was not acknowledged.
///
/// Not thread-safe: the client uses it under its lock.
struct InFlightBatches {
    final class Batch {
        /// The position right after the batch's last record.
        let end: EventJournal.Position
        /// How far the server has acknowledged it: its end, or the end of its first part when a
        /// 413 split it (the parts are sent in order).
        var acknowledgedThrough: EventJournal.Position?

        init(end: EventJournal.Position) {
            self.end = end
        }
    }

    private var batches: [Batch] = []

    var count: Int { batches.count }

    /// The end of the last batch in flight.
    var lastEnd: EventJournal.Position? { batches.last?.end }

    /// Where the next batch starts: after the last one in flight, else at the cursor.
    func nextRead(cursor: EventJournal.Position) -> EventJournal.Position {
        guard let last = batches.last else { return cursor }
        return max(last.end, cursor)
    }

    /// A batch read off the journal, after every one already in flight.
    @discardableResult
    mutating func add(end: EventJournal.Position) -> Batch {
        let batch = Batch(end: end)
        batches.append(batch)
        return batch
    }

    /// Forgets the acknowledged batches at the front and returns how far everything is
    /// acknowledged (into the first batch still in flight, when its first part is); nil when no
    /// batch at the front has been acknowledged.
    mutating func settle() -> EventJournal.Position? {
        var through: EventJournal.Position?
        while let first = batches.first, let acknowledged = first.acknowledgedThrough {
            through = acknowledged
            guard acknowledged >= first.end else { break }
            batches.removeFirst()
        }
        return through
    }
}
