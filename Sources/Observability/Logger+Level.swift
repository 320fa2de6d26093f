extension Logger {
    /// How much a line matters, least first.
    public enum Level: String, Sendable, CaseIterable, Comparable {
        case trace, debug, info, notice, warning, error

        private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }
}
