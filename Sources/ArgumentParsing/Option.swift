public import CivilTime

/// One option of a command, declared once with its type, default, range and help, and read back
/// typed: `values[RecommendOptions.maxGroups]` is an `Int`, never a string lookup with a second
/// default written beside it.
///
/// The declaration (`spec`) goes into the command's `options`; parsing checks every value against
/// it (kind, range, choices) before any command runs, so reading one cannot fail. An option with a
/// default reads as a plain value (the default written here is the one help shows and parsing
/// applies); one without reads as an optional.
///
///     static let maxGroups: Option<Int> = .int("max-groups", valueName: "n", default: 3,
///                                              range: .ints(1...100), help: "Most groups in a proposal.")
public struct Option<Value: Sendable>: Sendable {
    /// The declaration, for the command's `options`.
    public let spec: OptionSpec
    private let read: @Sendable (ParsedValues) -> Value

    init(_ spec: OptionSpec, read: @escaping @Sendable (ParsedValues) -> Value) {
        self.spec = spec
        self.read = read
    }

    /// The long name without dashes.
    public var name: String { spec.name }

    func value(in values: ParsedValues) -> Value { read(values) }

    /// Reads a value that parsing always sets (an option with a default).
    private static func always<T>(_ name: String, _ value: T?) -> T {
        guard let value else { preconditionFailure("'\(name)' has a default and yet no value") }
        return value
    }
}

extension ParsedValues {
    /// The typed value of `option` (declared by this command or one above it).
    public subscript<Value>(_ option: Option<Value>) -> Value { option.value(in: self) }
}

extension Option where Value == Bool {
    /// An option without a value (`--dry-run`); an environment variable sets it with `1`, `true`,
    /// `yes` or `on`.
    public static func flag(_ name: String, short: Character? = nil, environment: [String] = [], inherited: Bool = false,
                            help: String) -> Option {
        Option(.flag(name, short: short, environment: environment, inherited: inherited, help: help)) { $0.flag(name) }
    }
}

extension Option where Value == Int {
    public static func int(_ name: String, short: Character? = nil, valueName: String? = nil, default value: Int,
                           environment: [String] = [], range: ValueRange, help: String) -> Option {
        Option(.option(name, .int, short: short, valueName: valueName, default: String(value), environment: environment,
                       range: range, help: help)) { always(name, $0.int(name)) }
    }
}

extension Option where Value == Int? {
    public static func int(_ name: String, short: Character? = nil, valueName: String? = nil, environment: [String] = [],
                           range: ValueRange, help: String) -> Option {
        Option(.option(name, .int, short: short, valueName: valueName, environment: environment, range: range,
                       help: help)) { $0.int(name) }
    }
}

extension Option where Value == Double {
    public static func double(_ name: String, valueName: String? = nil, default value: Double, environment: [String] = [],
                              range: ValueRange, help: String) -> Option {
        Option(.option(name, .double, valueName: valueName, default: ValueRange.text(of: value), environment: environment,
                       range: range, help: help)) { always(name, $0.double(name)) }
    }
}

extension Option where Value == Double? {
    public static func double(_ name: String, valueName: String? = nil, environment: [String] = [], range: ValueRange,
                              help: String) -> Option {
        Option(.option(name, .double, valueName: valueName, environment: environment, range: range, help: help)) {
            $0.double(name)
        }
    }
}

extension Option where Value == Duration {
    public static func duration(_ name: String, valueName: String? = nil, default value: Duration,
                                environment: [String] = [], range: ValueRange, help: String) -> Option {
        Option(.option(name, .duration, valueName: valueName, default: defaultText(value),
                       environment: environment, range: range, help: help)) { always(name, $0.duration(name)) }
    }

    /// How help shows a default span: whole seconds up to a minute as seconds (`60s`, as timeouts
    /// are written), anything else in the largest units that divide it (`28d`, `1h30m`).
    static func defaultText(_ span: Duration) -> String {
        let (seconds, attoseconds) = span.components
        if attoseconds == 0, seconds > 0, seconds <= 60 { return "\(seconds)s" }
        return DurationText.format(span)
    }
}

extension Option where Value == Duration? {
    public static func duration(_ name: String, valueName: String? = nil, environment: [String] = [], range: ValueRange,
                                help: String) -> Option {
        Option(.option(name, .duration, valueName: valueName, environment: environment, range: range, help: help)) {
            $0.duration(name)
        }
    }
}

extension Option where Value == String {
    /// Text with a default.
    public static func string(_ name: String, short: Character? = nil, valueName: String? = nil, default value: String,
                              environment: [String] = [], inherited: Bool = false, help: String) -> Option {
        Option(.option(name, short: short, valueName: valueName, default: value, environment: environment,
                       inherited: inherited, help: help)) { always(name, $0.string(name)) }
    }

    /// Text that parsing requires (a usage error when it is absent).
    public static func required(_ name: String, short: Character? = nil, valueName: String? = nil,
                                environment: [String] = [], help: String) -> Option {
        Option(.option(name, short: short, valueName: valueName, environment: environment, required: true,
                       help: help)) { always(name, $0.string(name)) }
    }

    /// One of `choices`, as text.
    public static func choice(_ name: String, _ choices: [String], valueName: String? = nil, default value: String,
                              environment: [String] = [], help: String) -> Option {
        Option(.option(name, .choice(choices), valueName: valueName, default: value, environment: environment,
                       help: help)) { always(name, $0.string(name)) }
    }
}

extension Option where Value == String? {
    /// Text, nil when absent.
    public static func string(_ name: String, short: Character? = nil, valueName: String? = nil,
                              environment: [String] = [], inherited: Bool = false, help: String) -> Option {
        Option(.option(name, short: short, valueName: valueName, environment: environment, inherited: inherited,
                       help: help)) { $0.string(name) }
    }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the cases of `Value`, by raw value; help lists them in declaration order.
    public static func choice(_ name: String, valueName: String? = nil, default value: Value, environment: [String] = [],
                              inherited: Bool = false, help: String) -> Option {
        Option(.option(name, .choice(Value.allCases.map(\.rawValue)), valueName: valueName, default: value.rawValue,
                       environment: environment, inherited: inherited, help: help)) {
            always(name, $0.choice(name, as: Value.self))
        }
    }

    /// One of the cases of `Value`, by raw value, that parsing requires (a usage error when absent).
    public static func required(_ name: String, valueName: String? = nil, environment: [String] = [],
                                help: String) -> Option {
        Option(.option(name, .choice(Value.allCases.map(\.rawValue)), valueName: valueName, environment: environment,
                       required: true, help: help)) { always(name, $0.choice(name, as: Value.self)) }
    }
}

extension Option {
    /// One of the cases of `Choice`, by raw value, nil when absent; help lists them in
    /// declaration order.
    public static func choice<Choice>(_ name: String, valueName: String? = nil, environment: [String] = [],
                                      help: String) -> Option
    where Value == Choice?, Choice: RawRepresentable & CaseIterable & Sendable, Choice.RawValue == String {
        Option(.option(name, .choice(Choice.allCases.map(\.rawValue)), valueName: valueName, environment: environment,
                       help: help)) { $0.choice(name, as: Choice.self) }
    }
}

extension Option where Value == CivilDate? {
    /// A calendar day `YYYY-MM-DD`, nil when absent.
    public static func date(_ name: String, valueName: String? = nil, environment: [String] = [], help: String) -> Option {
        Option(.option(name, .date, valueName: valueName, environment: environment, help: help)) { $0.date(name) }
    }
}
