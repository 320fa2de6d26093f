/// The values a numeric option or argument accepts, declared with it: `.ints(1...1024)`,
/// `.numbers(0...1)`, `.durations(.seconds(1)...(.seconds(3600)))`.
///
/// Parsing checks every value (from the command line, an environment variable or the default)
/// against its range before any command runs, so an out-of-range value is a usage error (exit 64)
/// and never reaches code that could overflow on it.
public struct ValueRange: Sendable, Equatable {
    enum Bounds: Sendable, Equatable {
        case ints(ClosedRange<Int>)
        case numbers(ClosedRange<Double>)
        case durations(ClosedRange<Duration>)
    }

    let bounds: Bounds

    /// Whole numbers from `range.lowerBound` to `range.upperBound`, both included.
    public static func ints(_ range: ClosedRange<Int>) -> ValueRange { ValueRange(bounds: .ints(range)) }

    /// Decimal numbers from `range.lowerBound` to `range.upperBound`, both included (finite bounds).
    public static func numbers(_ range: ClosedRange<Double>) -> ValueRange {
        precondition(range.lowerBound.isFinite && range.upperBound.isFinite, "a number range needs finite bounds")
        return ValueRange(bounds: .numbers(range))
    }

    /// Spans of time from `range.lowerBound` to `range.upperBound`, both included.
    public static func durations(_ range: ClosedRange<Duration>) -> ValueRange { ValueRange(bounds: .durations(range)) }

    /// The smallest and the largest value accepted.
    public var limits: (lower: ArgumentValue, upper: ArgumentValue) {
        switch bounds {
        case let .ints(range): (.int(range.lowerBound), .int(range.upperBound))
        case let .numbers(range): (.double(range.lowerBound), .double(range.upperBound))
        case let .durations(range): (.duration(range.lowerBound), .duration(range.upperBound))
        }
    }

    /// Whether this range applies to values of `kind`.
    func fits(_ kind: ValueKind) -> Bool {
        switch (bounds, kind) {
        case (.ints, .int), (.numbers, .double), (.durations, .duration): true
        default: false
        }
    }

    /// Whether `value` (of the range's kind) lies within it; values of another kind never do.
    public func contains(_ value: ArgumentValue) -> Bool {
        switch (bounds, value) {
        case let (.ints(range), .int(number)): range.contains(number)
        case let (.numbers(range), .double(number)): range.contains(number)
        case let (.durations(range), .duration(span)): range.contains(span)
        default: false
        }
    }

    /// How help and errors state the range: `1 to 1024`, `0 to 1`, `1s to 1h`.
    public var expectation: String {
        switch bounds {
        case let .ints(range): "\(range.lowerBound) to \(range.upperBound)"
        case let .numbers(range): "\(Self.number(range.lowerBound)) to \(Self.number(range.upperBound))"
        case let .durations(range):
            "\(DurationText.format(range.lowerBound)) to \(DurationText.format(range.upperBound))"
        }
    }

    /// How a number reads in help: whole numbers without a decimal point (`0`, `100`), others as
    /// Swift prints them (`0.95`).
    static func text(of value: Double) -> String { number(value) }

    private static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
