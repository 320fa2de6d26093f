public import CivilTime

/// A value after parsing, typed by the `ValueKind` it was declared with.
public enum ArgumentValue: Sendable, Equatable {
    case flag(Bool)
    case string(String)
    case int(Int)
    case double(Double)
    case duration(Duration)
    case date(CivilDate)
    /// The values of a repeated option or a variadic argument, in command-line order.
    case list([ArgumentValue])
}

extension ArgumentValue: CustomStringConvertible {
    /// A compact rendering used by `ParsedValues.description`: durations as `1h30m`, dates as
    /// `YYYY-MM-DD`, lists as `[a, b]`.
    public var description: String {
        switch self {
        case .flag(let on): on ? "true" : "false"
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .duration(let span): DurationText.format(span)
        case .date(let day): day.description
        case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        }
    }
}
