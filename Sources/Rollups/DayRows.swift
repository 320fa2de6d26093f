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

extension DayRows {
    /// The segment whose rows are the default rows: its command and element rows are, in order,
    /// the default rows but for the segment, in every figure (selections, dismissals, user-days,
    /// sketches, split by person bucket). Typically the day's only non-test segment when the
    /// day's test events, if any, are in segments of their own. Nil when no segment's rows are;
    /// the first such segment (in the order of `segmentElements`) when several are.
    ///
    /// Storage writes the default rows alone for such a segment and notes it (sql/0024), so a
    /// day is not stored twice; this is where the rows are compared, so the note never changes
    /// what a reading gives.
    public var segmentSharingDefaultRows: Int32? {
        guard !elements.isEmpty else { return nil }
        var candidates: [Int32] = []
        for row in segmentElements {
            if let segment = row.segmentID, !candidates.contains(segment) { candidates.append(segment) }
        }
        return candidates.first { segment in
            Self.same(segmentElements, of: segment, as: elements, by: Element.sameFigures)
                && Self.same(segmentCommands, of: segment, as: commands, by: Command.sameFigures)
        }
    }

    /// Whether the rows of `segment` in `rows` are `defaults`, in order, by `same`.
    private static func same<Row>(_ rows: [Row], of segment: Int32, as defaults: [Row],
                                  by same: (Row, Row) -> Bool) -> Bool where Row: SegmentRow {
        var next = defaults.startIndex
        for row in rows where row.segmentID == segment {
            guard next < defaults.endIndex, same(row, defaults[next]) else { return false }
            next += 1
        }
        return next == defaults.endIndex
    }
}

/// A row that may carry a segment.
protocol SegmentRow { var segmentID: Int32? { get } }

extension DayRows.Command: SegmentRow {
    /// Equal but for the segment.
    static func sameFigures(_ a: Self, _ b: Self) -> Bool {
        a.elementTypeID == b.elementTypeID && a.commandID == b.commandID && a.selections == b.selections
            && a.userDays == b.userDays && a.users == b.users && a.people == b.people
    }
}

extension DayRows.Element: SegmentRow {
    /// Equal but for the segment.
    static func sameFigures(_ a: Self, _ b: Self) -> Bool {
        a.elementTypeID == b.elementTypeID && a.selections == b.selections && a.dismissals == b.dismissals
            && a.users == b.users
    }
}
