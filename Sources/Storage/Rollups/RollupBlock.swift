/// An aligned block of days of the block rollups (`block_command_usage`, `block_element_usage`):
/// level L (1 to 4) covers the 2^L days `[index * 2^L, (index + 1) * 2^L - 1]`, days counted from
/// 1970-01-01 in UTC (`CivilDate.dayNumber`), so blocks of one level never overlap and each is made of the
/// two blocks (or, at level 1, the two days) one level down.
public struct RollupBlock: Hashable, Sendable, Comparable {
    /// The levels stored: blocks of 2, 4, 8 and 16 days.
    public static let levels: ClosedRange<Int> = 1...4

    public var level: Int
    public var index: Int

    public init(level: Int, index: Int) {
        precondition(Self.levels.contains(level), "block level \(level) is not stored")
        self.level = level
        self.index = index
    }

    /// The block of `level` that holds `day`.
    public init(level: Int, containing day: Int) {
        self.init(level: level, index: day >> level)
    }

    /// Days in the block.
    public var length: Int { 1 << level }
    public var firstDay: Int { index << level }
    public var lastDay: Int { firstDay + length - 1 }

    /// The two halves one level down, as blocks (nil at level 1, whose halves are days).
    public var halves: [RollupBlock]? {
        level == 1 ? nil : [RollupBlock(level: level - 1, index: index * 2), RollupBlock(level: level - 1, index: index * 2 + 1)]
    }

    public static func < (a: RollupBlock, b: RollupBlock) -> Bool {
        (a.level, a.index) < (b.level, b.index)
    }
}
