public import Sketches

/// The rollup rows of one day, as `DayTally` counts them from the day's events.
public struct DayRows: Hashable, Sendable {
    /// Per element type and command: `segment_command_usage` rows (segmentID set) and the
    /// default rows `daily_command_usage` (segmentID nil: the non-test segments together).
    public struct Command: Hashable, Sendable {
        public var segmentID: Int32?
        public var elementTypeID: Int32
        public var commandID: Int32
        public var selections: Int64
        public var userDays: Int64
        public var users: HLLSketch
        /// The selections and user-days split by person bucket, as stored (`PeopleCounts.encoded`).
        public var people: [UInt8] = []
    }

    /// Per element type: `segment_element_usage` (segmentID set) and `daily_element_usage` rows.
    public struct Element: Hashable, Sendable {
        public var segmentID: Int32?
        public var elementTypeID: Int32
        public var selections: Int64
        public var dismissals: Int64
        public var users: HLLSketch
    }

    /// Per segment, element type and menu version: `daily_outcomes` rows. Histograms are sparse,
    /// ascending by position and by latency bucket (`LatencyHistogram`).
    public struct Outcome: Hashable, Sendable {
        public var segmentID: Int32
        public var elementTypeID: Int32
        public var menuVersion: String
        public var opens: Int64
        public var dismissals: Int64
        public var positions: [Int32]
        public var positionCounts: [Int64]
        public var latencyBuckets: [Int32]
        public var latencyCounts: [Int64]
    }

    public var segmentCommands: [Command] = []
    public var segmentElements: [Element] = []
    public var commands: [Command] = []
    public var elements: [Element] = []
    public var outcomes: [Outcome] = []

    public init() {}
}

extension DayRows {
    /// The rows of shares of a day's element types (`DayTally.Counter.rows(layout:share:of:)`)
    /// together, the shares in order: each table in the order one count of the whole day gives.
    public init(joining shares: [DayRows]) {
        self.init()
        for share in shares {
            segmentCommands += share.segmentCommands
            segmentElements += share.segmentElements
            commands += share.commands
            elements += share.elements
            outcomes += share.outcomes
        }
        if shares.count > 1 {
            outcomes.sort { ($0.segmentID, $0.elementTypeID, $0.menuVersion) < ($1.segmentID, $1.elementTypeID, $1.menuVersion) }
        }
    }
}
