import ArgumentParsing

/// Ranges shared by the options of several commands, declared once so that the daemon and the
/// import accept the same values.
enum Limits {
    /// The largest request body `serve` accepts (and reserves, buffers, inflates).
    static let maxBodyBytes = 256 << 20
    /// Retention: at least a day, at most a hundred years (imports of old data use long ones; the
    /// policy's microsecond arithmetic stays far from overflow).
    static let retention = ValueRange.durations(.seconds(86_400)...(.seconds(36_500 * 86_400)))
    /// Distinct element types, commands or contexts per app.
    static let dictionarySize = ValueRange.ints(1...10_000_000)
    /// Groups of a menu.
    static let maxGroups = ValueRange.ints(1...100)
    /// Items of a group.
    static let maxGroupSize = 100
    /// Confidence of intervals and tests: a probability strictly between 0.5 and 1.
    static let confidence = ValueRange.numbers(0.5...0.9999)
    /// A ranking window: one day to ten years.
    static let window = ValueRange.durations(.seconds(86_400)...(.seconds(3650 * 86_400)))
}
