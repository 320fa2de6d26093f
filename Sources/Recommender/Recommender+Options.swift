public import Menus

extension Recommender {
    /// How the top level is split into groups.
    public enum Grouping: String, Hashable, Sendable, CaseIterable {
        /// Groups are categories (`CommandInfo.category`, else the command's current submenu, else
        /// its group in the current layout), reordered and trimmed.
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
        /// A command is flagged only when the upper Wilson bound of its share is below this...
        public var pruneShare: Double
        /// ...and the upper Wilson bound of its reach (people who picked it / people who used the
        /// menu) is below this.
        public var pruneReach: Double
        public var grouping: Grouping
        /// What ordering, the stability gate and "used at least as much as" compare.
        public var weight: UsageWeight
        /// Confidence of the Wilson intervals (prune flags and the stability gate).
        public var confidence: Double
        /// Scan cost of a pruned command in the evidence; nil: the number of items of the current
        /// layout + 1 (looked through the whole menu without finding it).
        public var fallbackCost: Double?
        /// A changed proposal whose stability is below this is tentative: reported, not filed.
        public var minStability: Double
        /// Resamples of people behind the stability.
        public var bootstrapRounds: Int
        /// The proposal filed is the smallest step of the ladder whose model-time gain is at least
        /// this share of the best step's (DESIGN.md, "The proposal is the smallest change...").
        public var minGainShare: Double

        /// Every default here is the one `menurank recommend` shows and applies (its options take
        /// them from `Options()`); the shape's are the linter's (HIG-6: usually three groups).
        ///
        /// The values are checked where they enter, as the command line's ranges: here a value out
        /// of range is a programming error, never silently changed into another.
        public init(maxGroups: Int = LintOptions().maxGroups, maxGroupSize: Int = LintOptions().maxGroupSize,
                    pruneShare: Double = 0.01, pruneReach: Double = 0.05,
                    grouping: Grouping = .semantic, weight: UsageWeight = .userDays, confidence: Double = 0.95,
                    fallbackCost: Double? = nil, minStability: Double = 0.9, bootstrapRounds: Int = 200,
                    minGainShare: Double = 0.9)
        {
            precondition(maxGroups >= 1, "maxGroups \(maxGroups) is below 1")
            precondition(maxGroupSize >= 2, "maxGroupSize \(maxGroupSize) is below 2")
            precondition(bootstrapRounds >= 1, "bootstrapRounds \(bootstrapRounds) is below 1")
            self.maxGroups = maxGroups
            self.maxGroupSize = maxGroupSize
            self.pruneShare = pruneShare
            self.pruneReach = pruneReach
            self.grouping = grouping
            self.weight = weight
            self.confidence = confidence
            self.fallbackCost = fallbackCost
            self.minStability = minStability
            self.bootstrapRounds = bootstrapRounds
            self.minGainShare = minGainShare
        }
    }
}
