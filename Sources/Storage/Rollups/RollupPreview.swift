public import CivilTime
import Rollups
import Sketches

/// The new default rows (every non-test event) of the days a rollup in progress recomputes, handed
/// to a reader before the rollup writes them, so that the reader can read the rest of a window
/// while the rollup writes (`RollupStore.rollUp(appID:on:alongside:previewing:meanwhile:)`,
/// `RankingQuery.activities(on:alongside:replacing:)`).
///
/// Why a reader may combine these rows with the rows stored before the rollup commits: a rollup
/// changes the rows of the days it recomputes (the queued days) and of the blocks holding them,
/// nothing else, and rollups of one app never overlap (its advisory lock). So the window as it
/// will read once the rollup commits is, exactly: the stored rows of the days that were not
/// recomputed (through the stored blocks that hold none of the recomputed days), plus these rows
/// for the recomputed days. The reader takes its own snapshot, which sees none of the rollup's
/// uncommitted writes.
public struct RollupPreview: Sendable {
    /// Every day the rollup recomputes, ascending.
    public let days: [CivilDate]
    /// The default rows of the recomputed days within the previewed range, by day number (a day
    /// without events has none).
    let commands: [Int: [DayRows.Command]]
    let elements: [Int: [DayRows.Element]]
    /// The days whose rows are here: every recomputed day in this range.
    public let range: ClosedRange<CivilDate>

    init(days: [Int], rows: [Int: DayRows], range: ClosedRange<CivilDate>) {
        self.days = days.map(CivilDate.init(dayNumber:))
        self.range = range
        commands = rows.mapValues { $0.commands }
        elements = rows.mapValues { $0.elements }
    }

    /// Whether `day` is one the rollup recomputes.
    func recomputes(_ day: Int) -> Bool { days.contains(CivilDate(dayNumber: day)) }

    /// Whether the block holds a recomputed day (the rollup deletes and recomputes it).
    func recomputes(_ block: RollupBlock) -> Bool { days.contains { block.firstDay <= $0.dayNumber && $0.dayNumber <= block.lastDay } }

    /// Whether the preview holds every recomputed day of `first...last`.
    public func covers(_ first: CivilDate, _ last: CivilDate) -> Bool { range.contains(first) && range.contains(last) }
}

/// Rows of a preview with their sketches' bytes copied into one buffer of their own, whose
/// addresses stay valid until `release` (`PartTotals.addSketch` keeps addresses, not bytes).
struct PreviewSketches<Row> {
    let rows: [Row]
    private let buffer: UnsafeMutableRawBufferPointer
    private let offsets: [Int]

    init(_ rows: [Row], sketch: (Row) -> HLLSketch) {
        self.rows = rows
        var offsets = [0]
        offsets.reserveCapacity(rows.count + 1)
        for row in rows { offsets.append(offsets.last! + sketch(row).bytes.count) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, offsets.last!), alignment: 8)
        for (index, row) in rows.enumerated() {
            sketch(row).bytes.withUnsafeBytes { bytes in
                UnsafeMutableRawBufferPointer(rebasing: buffer[offsets[index]..<offsets[index + 1]]).copyMemory(from: bytes)
            }
        }
        self.buffer = buffer
        self.offsets = offsets
    }

    /// The bytes of row `index`'s sketch.
    func bytes(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[offsets[index]..<offsets[index + 1]])
    }

    func release() { buffer.deallocate() }
}
