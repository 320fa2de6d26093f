/// The declaration of one named option of a command: `--window 28d`, `--window=28d`, `-n`.
public struct OptionSpec: Sendable {
    /// The long name without dashes (`max-groups`); also the key for `ParsedValues` getters.
    public var name: String
    /// A one-letter alias (`-n`), if any.
    public var short: Character?
    /// The type of its value; `.flag` for an option without a value.
    public var kind: ValueKind
    /// What help calls the value (`--database <url>`).
    public var valueName: String
    /// The value when the option is absent from the command line and from the environment, as text
    /// in the option's kind (`"28d"`); shown in help.
    public var defaultValue: String?
    /// Environment variables read, in order, when the option is absent from the command line.
    public var environment: [String]
    /// Parsing fails when the option is absent from the command line, the environment and defaults.
    public var isRequired: Bool
    /// The option may be given many times; its values are read with `strings(_:)`, `ints(_:)`, ...
    public var isRepeatable: Bool
    /// The option is also accepted after any subcommand of the command that declares it
    /// (`menurank serve --database URL`) and listed as a global option in their help.
    public var isInherited: Bool
    /// The values accepted, for a numeric kind (every `.int`, `.double` and `.duration` option
    /// declares one; see ``CommandSpec/declarationProblems()``). A value outside it is a usage error.
    public var range: ValueRange?
    /// One or two sentences for help.
    public var help: String

    public init(
        name: String, short: Character? = nil, kind: ValueKind, valueName: String? = nil,
        defaultValue: String? = nil, environment: [String] = [], isRequired: Bool = false,
        isRepeatable: Bool = false, isInherited: Bool = false, range: ValueRange? = nil, help: String
    ) {
        self.name = name
        self.short = short
        self.kind = kind
        self.valueName = valueName ?? name
        self.defaultValue = defaultValue
        self.environment = environment
        self.isRequired = isRequired
        self.isRepeatable = isRepeatable
        self.isInherited = isInherited
        self.range = range
        self.help = help
    }

    /// An option that takes a value: `.option("window", .duration, default: "28d", help: "...")`.
    public static func option(
        _ name: String, _ kind: ValueKind = .string, short: Character? = nil, valueName: String? = nil,
        default defaultValue: String? = nil, environment: [String] = [], required: Bool = false,
        repeating: Bool = false, inherited: Bool = false, range: ValueRange? = nil, help: String
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: short, kind: kind, valueName: valueName, defaultValue: defaultValue,
            environment: environment, isRequired: required, isRepeatable: repeating, isInherited: inherited,
            range: range, help: help)
    }

    /// An option without a value: `.flag("dry-run", short: "n", help: "...")`. An environment
    /// variable sets it with `1`, `true`, `yes` or `on`.
    public static func flag(
        _ name: String, short: Character? = nil, environment: [String] = [], inherited: Bool = false,
        help: String
    ) -> OptionSpec {
        OptionSpec(name: name, short: short, kind: .flag, environment: environment, isInherited: inherited, help: help)
    }

    var isFlag: Bool { kind == .flag }

    /// How the option reads in usage lines and errors: `--window <window>`, `--dry-run`.
    var synopsis: String {
        isFlag ? "--\(name)" : "--\(name) <\(valueName)>"
    }
}
