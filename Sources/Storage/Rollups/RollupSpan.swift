/// A run of days as the rollups read it: stored blocks where they fit, single days elsewhere.
///
/// `covering` cuts `[from, to]` greedily from the left into the largest aligned blocks that lie
/// inside the range and are stored (`available`), and days where none is, so a 28-day window with
/// every block stored is at most eight parts (typically five) instead of 28. The parts never
/// overlap, so summing selections and uniting the sketches of the parts gives exactly what the
/// daily rows give.
public struct RollupSpan: Hashable, Sendable {
    /// Single days (days since 1970-01-01), ascending.
    public var days: [Int]
    /// Blocks, ascending by first day.
    public var blocks: [RollupBlock]

    public init(days: [Int] = [], blocks: [RollupBlock] = []) {
        self.days = days
        self.blocks = blocks
    }

    /// The parts of `[from, to]` (empty when `to < from`), using only blocks in `available` and of
    /// a level below `belowLevel`.
    public static func covering(from: Int, to: Int, available: Set<RollupBlock>,
                                belowLevel: Int = RollupBlock.levels.upperBound + 1) -> RollupSpan
    {
        var span = RollupSpan()
        var day = from
        let top = min(belowLevel - 1, RollupBlock.levels.upperBound)
        while day <= to {
            var taken: RollupBlock?
            if top >= RollupBlock.levels.lowerBound {
                for level in stride(from: top, through: RollupBlock.levels.lowerBound, by: -1) {
                    let size = 1 << level
                    guard day & (size - 1) == 0, day + size - 1 <= to else { continue }
                    let block = RollupBlock(level: level, index: day >> level)
                    if available.contains(block) {
                        taken = block
                        break
                    }
                }
            }
            if let taken {
                span.blocks.append(taken)
                day += taken.length
            } else {
                span.days.append(day)
                day += 1
            }
        }
        return span
    }

    /// Days and blocks together.
    public var partCount: Int { days.count + blocks.count }
}
