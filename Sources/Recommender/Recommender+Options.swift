extension Recommender {
    /// How the top level is split into groups.
    public enum Grouping: String, Hashable, Sendable, CaseIterable {
        /// Groups are categories (`CommandInfo.category`, else the command's group in the current
        /// layout), reordered and trimmed.
        case semantic
        /// The use-ordered list is cut into consecutive groups.
        case usage
    }

    public struct Options: Hashable, Sendable {
        /// At most this many groups at the top level (at least 1).
        public var maxGroups: Int
        /// At most this many items per group, a submenu counting as one (at least 2, so that a
        /// group can always end with a submenu next to another item).
        public var maxGroupSize: Int
        /// A command is flagged when the upper Wilson bound of its share is below this.
        public var pruneThreshold: Double
        public var grouping: Grouping
        /// Confidence of the Wilson intervals (prune flags and the stability gate).
        public var confidence: Double
        /// Seconds per item scanned, for the time-saved estimate.
        public var secondsPerItem: Double

        public init(maxGroups: Int = 3, maxGroupSize: Int = 3, pruneThreshold: Double = 0.01,
                    grouping: Grouping = .semantic, confidence: Double = 0.95, secondsPerItem: Double = 0.4)
        {
            self.maxGroups = max(1, maxGroups)
            self.maxGroupSize = max(2, maxGroupSize)
            self.pruneThreshold = pruneThreshold
            self.grouping = grouping
            self.confidence = confidence
            self.secondsPerItem = secondsPerItem
        }
    }
}
