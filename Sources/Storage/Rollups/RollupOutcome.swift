public import CivilTime

/// What one rollup of one app did.
public struct RollupOutcome: Hashable, Sendable {
    public var appID: Int32
    /// The days recomputed (ascending): those queued since the last rollup.
    public var days: [CivilDate]
    /// Rows written to `daily_command_usage` and `daily_element_usage`.
    public var commandRows: Int
    public var elementRows: Int
    /// Rows written to `daily_outcomes` (`RollupDay`).
    public var outcomeRows: Int = 0
    /// How many of `days` were read in two halves at once, on two connections
    /// (`RollupStore.splitFromPages`).
    public var daysReadInHalves = 0
    /// The block rollups computed (blocks that ended and were not stored, see `RollupStore`).
    public var blocks: [RollupBlock]

    public init(appID: Int32, days: [CivilDate], commandRows: Int, elementRows: Int, blocks: [RollupBlock] = []) {
        self.appID = appID
        self.days = days
        self.commandRows = commandRows
        self.elementRows = elementRows
        self.blocks = blocks
    }
}
