import Ranking

/// One event of a day as the rollups count it: what `events` holds of it, with its context
/// resolved to a slot (`DayLayout`).
public struct DayEvent: Hashable, Sendable {
    public var elementTypeID: Int32
    /// Nil for a dismissal.
    public var commandID: Int32?
    /// The person: the user hash, or for an event without a user a number of its own (the first
    /// 64 bits of its event id), so that it counts as one person.
    public var person: Int64
    /// Index into `DayLayout.slots`: the event's segment and menu version.
    public var slot: Int32
    public var position: Int16?
    public var latencyMS: Int32?
    /// The person's bucket (`PersonBucket`, `0..<64`): as ingestion stored it (from the raw user
    /// id, or the event id), else derived from `person` (`PersonBucket.of(pseudonym:)`).
    public var personBucket: Int

    /// `personBucket` nil derives it from `person` (an event stored before buckets were, sql/0020).
    public init(elementTypeID: Int32, commandID: Int32?, person: Int64, slot: Int32, position: Int16? = nil,
                latencyMS: Int32? = nil, personBucket: Int? = nil)
    {
        precondition(personBucket.map { (0..<PersonBucket.count).contains($0) } ?? true, "a person bucket is 0..<64")
        self.elementTypeID = elementTypeID
        self.commandID = commandID
        self.person = person
        self.slot = slot
        self.position = position
        self.latencyMS = latencyMS
        self.personBucket = personBucket ?? PersonBucket.of(pseudonym: person)
    }
}

/// The segments of an app in the order user-days are attributed in, and the (segment, menu
/// version) slots its events fall in (see `RollupSegments` in Storage for where they come from).
public struct DayLayout: Sendable {
    public struct Segment: Hashable, Sendable {
        public var segmentID: Int32
        public var isTest: Bool
        public init(segmentID: Int32, isTest: Bool) {
            self.segmentID = segmentID
            self.isTest = isTest
        }
    }

    public struct Slot: Hashable, Sendable {
        /// Index into `segments`.
        public var segment: Int
        public var menuVersion: String
        public init(segment: Int, menuVersion: String) {
            self.segment = segment
            self.menuVersion = menuVersion
        }
    }

    /// First segment first: a person's user-day goes to the first of the segments they picked
    /// the command in.
    public var segments: [Segment]
    public var slots: [Slot]

    public init(segments: [Segment], slots: [Slot]) {
        self.segments = segments
        self.slots = slots
    }
}
