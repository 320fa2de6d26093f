/// The type of value an option or a positional argument takes.
///
/// Parsing checks every value against its kind before any command runs, so a command reads typed
/// values (`values.int("max-groups")`) and never parses text itself.
public enum ValueKind: Sendable, Equatable {
    /// An option without a value: present or absent (`--dry-run`).
    case flag
    /// Any text.
    case string
    /// A whole number in decimal (`-3`, `42`).
    case int
    /// A decimal number (`0.05`, `1e-3`).
    case double
    /// A span of time as numbers with units, largest first: `28d`, `12h`, `90m`, `1h30m`, `500ms`
    /// (units `w`, `d`, `h`, `m`, `s`, `ms`).
    case duration
    /// A calendar day `YYYY-MM-DD` (a `CivilDate`).
    case date
    /// One of a fixed set of words (`logfmt`, `json`).
    case choice([String])

    /// What help and error messages call a value of this kind.
    var expectation: String {
        switch self {
        case .flag: "no value"
        case .string: "text"
        case .int: "an integer"
        case .double: "a number"
        case .duration: "a duration such as 28d, 12h, 90m or 1h30m"
        case .date: "a date as YYYY-MM-DD"
        case .choice(let choices): "one of: " + choices.joined(separator: ", ")
        }
    }
}
