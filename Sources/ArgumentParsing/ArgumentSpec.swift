/// The declaration of one positional argument of a command.
public struct ArgumentSpec: Sendable {
    /// How many values the argument takes.
    public enum Arity: Sendable, Equatable {
        case required
        case optional
        /// Any number of values, including none; only the last argument may be variadic.
        case zeroOrMore
        /// At least one value; only the last argument may be variadic.
        case oneOrMore
    }

    /// The key for `ParsedValues` getters; help shows it as `<name>`.
    public var name: String
    public var kind: ValueKind
    public var arity: Arity
    /// The value of an absent optional argument, as text in the argument's kind; shown in help.
    public var defaultValue: String?
    /// The values accepted, for a numeric kind (required for `.int`, `.double` and `.duration`).
    public var range: ValueRange?
    public var help: String

    public init(name: String, kind: ValueKind = .string, arity: Arity = .required, defaultValue: String? = nil,
                range: ValueRange? = nil, help: String) {
        self.name = name
        self.kind = kind
        self.arity = arity
        self.defaultValue = defaultValue
        self.range = range
        self.help = help
    }

    /// A required argument: `.argument("id", help: "...")`.
    public static func argument(_ name: String, _ kind: ValueKind = .string, range: ValueRange? = nil,
                                help: String) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: kind, arity: .required, range: range, help: help)
    }

    /// An argument that may be left out: `.optionalArgument("app", default: "mail", help: "...")`.
    public static func optionalArgument(_ name: String, _ kind: ValueKind = .string, default defaultValue: String? = nil,
                                        range: ValueRange? = nil, help: String) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: kind, arity: .optional, defaultValue: defaultValue, range: range, help: help)
    }

    /// The last argument, taking every remaining value: `.variadic("files", atLeastOne: true, help: "...")`.
    public static func variadic(_ name: String, _ kind: ValueKind = .string, atLeastOne: Bool = false,
                                range: ValueRange? = nil, help: String) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: kind, arity: atLeastOne ? .oneOrMore : .zeroOrMore, range: range, help: help)
    }

    var isVariadic: Bool { arity == .zeroOrMore || arity == .oneOrMore }

    /// How the argument reads in usage lines: `<id>`, `[<id>]`, `<files> ...`, `[<files> ...]`.
    var synopsis: String {
        switch arity {
        case .required: "<\(name)>"
        case .optional: "[<\(name)>]"
        case .zeroOrMore: "[<\(name)> ...]"
        case .oneOrMore: "<\(name)> ..."
        }
    }
}
