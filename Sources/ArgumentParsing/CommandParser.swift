import Suggestions

/// Parses a command line against a command tree: a pure function of the arguments and the
/// environment, so every case is tested without a process.
///
/// Accepted forms: `--name value`, `--name=value`, `-n value`, `-nvalue`, clusters of short flags
/// (`-vq`), flags, repeated options, positional arguments, `--` (everything after it is positional),
/// subcommands at any depth, `-h`/`--help` anywhere, `--version` on the root, and
/// `<root> help <command> [<subcommand> ...]` when the root has subcommands. An option absent from the
/// command line takes the first of its environment variables that is set, else its default.
public enum CommandParser {
    /// What `arguments` (without the program name) ask of the tree under `root`.
    public static func parse(_ arguments: [String], root: CommandSpec,
                             environment: [String: String] = [:]) -> ParseOutcome {
        var state = State(root: root)
        var index = 0
        while index < arguments.count {
            let token = arguments[index]
            index += 1
            if state.afterTerminator {
                state.positionals.append(token)
                continue
            }
            if token == "--" {
                state.afterTerminator = true
            } else if token == "--help" || token == "-h" {
                return .help(HelpRequest(commands: state.commands))
            } else if token == "--version", state.commands.count == 1, let version = root.version {
                return .version(version)
            } else if token.hasPrefix("--") {
                if let failure = state.readLongOption(token, arguments, &index) { return .usageError(failure) }
            } else if token.hasPrefix("-"), token.count > 1, !state.readsAsNegativeNumber(token) {
                if let failure = state.readShortOptions(token, arguments, &index) { return .usageError(failure) }
            } else if !state.leaf.subcommands.isEmpty {
                if let sub = state.leaf.subcommand(named: token) {
                    state.commands.append(sub)
                } else if token == "help", state.commands.count == 1 {
                    return helpTopic(Array(arguments[index...]), root: root)
                } else {
                    let names = state.leaf.subcommands.map(\.name) + (state.commands.count == 1 ? ["help"] : [])
                    var message = "Unknown subcommand '\(token)'."
                    if let near = Suggestion.closest(to: token, among: names) { message += " Did you mean '\(near)'?" }
                    return .usageError(UsageFailure(message, commands: state.commands))
                }
            } else {
                state.positionals.append(token)
            }
        }
        if !state.leaf.subcommands.isEmpty, state.leaf.run == nil, state.positionals.isEmpty {
            return .help(HelpRequest(commands: state.commands))
        }
        return state.resolve(environment: environment)
    }

    /// `help a b` asks for the help of the command at path `a b`.
    private static func helpTopic(_ words: [String], root: CommandSpec) -> ParseOutcome {
        var commands = [root]
        for word in words where !word.hasPrefix("-") {
            let current = commands[commands.count - 1]
            guard let sub = current.subcommand(named: word) else {
                var message = "Unknown subcommand '\(word)'."
                if let near = Suggestion.closest(to: word, among: current.subcommands.map(\.name)) {
                    message += " Did you mean '\(near)'?"
                }
                return .usageError(UsageFailure(message, commands: commands))
            }
            commands.append(sub)
        }
        return .help(HelpRequest(commands: commands))
    }
}

extension CommandParser {
    /// The parser's progress through one command line.
    /// An option's value, or why it has none.
    enum Resolved {
        case value(ArgumentValue?)
        case failure(UsageFailure)
    }

    struct State {
        var commands: [CommandSpec]
        var given: [String: [String]] = [:]
        var positionals: [String] = []
        var afterTerminator = false

        init(root: CommandSpec) { commands = [root] }

        var leaf: CommandSpec { commands[commands.count - 1] }

        /// The options accepted at this point: the leaf's own and those its parents pass down.
        var visibleOptions: [OptionSpec] {
            commands.dropLast().flatMap { $0.options.filter(\.isInherited) } + leaf.options
        }

        func failure(_ message: String) -> UsageFailure { UsageFailure(message, commands: commands) }

        func readsAsNegativeNumber(_ token: String) -> Bool {
            guard Double(token) != nil, let first = token.dropFirst().first else { return false }
            return !visibleOptions.contains { $0.short == first }
        }

        mutating func readLongOption(_ token: String, _ arguments: [String], _ index: inout Int) -> UsageFailure? {
            let body = token.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            guard let option = visibleOptions.first(where: { $0.name == name }) else {
                var names = visibleOptions.map { "--" + $0.name } + ["--help"]
                if commands.count == 1, commands[0].version != nil { names.append("--version") }
                var message = "Unknown option '--\(name)'."
                if let near = Suggestion.closest(to: "--" + name, among: names) { message += " Did you mean '\(near)'?" }
                return failure(message)
            }
            if option.isFlag {
                guard inline == nil else { return failure("Option '--\(name)' takes no value.") }
                given[option.name, default: []].append("true")
                return nil
            }
            if let inline {
                given[option.name, default: []].append(inline)
                return nil
            }
            return readValue(for: option, arguments, &index)
        }

        mutating func readShortOptions(_ token: String, _ arguments: [String], _ index: inout Int) -> UsageFailure? {
            var letters = token.dropFirst()
            while let letter = letters.first {
                letters = letters.dropFirst()
                guard let option = visibleOptions.first(where: { $0.short == letter }) else {
                    return failure("Unknown option '-\(letter)'.")
                }
                if option.isFlag {
                    given[option.name, default: []].append("true")
                    continue
                }
                if !letters.isEmpty {
                    given[option.name, default: []].append(String(letters.drop { $0 == "=" }))
                    return nil
                }
                return readValue(for: option, arguments, &index)
            }
            return nil
        }

        mutating func readValue(for option: OptionSpec, _ arguments: [String], _ index: inout Int) -> UsageFailure? {
            guard index < arguments.count, isValue(arguments[index]) else {
                return failure("Missing value for option '\(option.synopsis)'.")
            }
            given[option.name, default: []].append(arguments[index])
            index += 1
            return nil
        }

        func isValue(_ token: String) -> Bool {
            !token.hasPrefix("-") || token == "-" || (Double(token) != nil && token != "--")
        }

        /// Types every value, fills in environment variables and defaults, and checks counts.
        func resolve(environment: [String: String]) -> ParseOutcome {
            var values: [String: ArgumentValue] = [:]
            var kinds: [String: ValueKind] = [:]
            var repeated: Set<String> = []
            for option in commands.flatMap(\.options) {
                kinds[option.name] = option.kind
                if option.isRepeatable { repeated.insert(option.name) }
                switch value(of: option, environment: environment) {
                case .value(let value?): values[option.name] = value
                case .value(nil): break
                case .failure(let failure): return .usageError(failure)
                }
            }
            var remaining = positionals[...]
            for argument in leaf.arguments {
                kinds[argument.name] = argument.kind
                var texts: [String] = []
                switch argument.arity {
                case .required, .oneOrMore:
                    guard let first = remaining.popFirst() else {
                        return .usageError(failure("Missing expected argument '\(argument.synopsis)'."))
                    }
                    texts = [first]
                case .optional, .zeroOrMore:
                    if let first = remaining.popFirst() { texts = [first] }
                }
                if argument.isVariadic {
                    repeated.insert(argument.name)
                    texts += remaining
                    remaining = []
                } else if texts.isEmpty, let fallback = argument.defaultValue {
                    texts = [fallback]
                }
                var typed: [ArgumentValue] = []
                for text in texts {
                    guard let value = argument.kind.parse(text) else {
                        return .usageError(failure(invalid(text, for: "'<\(argument.name)>'", kind: argument.kind)))
                    }
                    if let range = argument.range, !range.contains(value) {
                        return .usageError(failure(outOfRange(text, for: "'<\(argument.name)>'", range: range)))
                    }
                    typed.append(value)
                }
                if argument.isVariadic {
                    values[argument.name] = .list(typed)
                } else if let value = typed.first {
                    values[argument.name] = value
                }
            }
            if let extra = remaining.first {
                return .usageError(failure("Unexpected argument '\(extra)'."))
            }
            let parsed = ParsedValues(values: values, kinds: kinds, repeated: repeated, positionals: positionals)
            return .invocation(Invocation(commands: commands, values: parsed))
        }

        /// The typed value of `option` from the command line, else the environment, else its default.
        func value(of option: OptionSpec, environment: [String: String]) -> Resolved {
            if let texts = given[option.name] {
                var typed: [ArgumentValue] = []
                for text in texts {
                    guard let value = option.kind.parse(text) else {
                        return .failure(failure(invalid(text, for: "'\(option.synopsis)'", kind: option.kind)))
                    }
                    if let range = option.range, !range.contains(value) {
                        return .failure(failure(outOfRange(text, for: "'\(option.synopsis)'", range: range)))
                    }
                    typed.append(value)
                }
                return .value(option.isRepeatable ? .list(typed) : typed.last)
            }
            for variable in option.environment {
                guard let text = environment[variable] else { continue }
                let subject = "'\(option.synopsis)' (from environment variable \(variable))"
                guard let value = option.kind.parse(text) else {
                    return .failure(failure(invalid(text, for: subject, kind: option.kind)))
                }
                if let range = option.range, !range.contains(value) {
                    return .failure(failure(outOfRange(text, for: subject, range: range)))
                }
                return .value(option.isRepeatable ? .list([value]) : value)
            }
            if let fallback = option.defaultValue, let value = option.kind.parse(fallback) {
                return .value(option.isRepeatable ? .list([value]) : value)
            }
            if option.isRequired {
                return .failure(failure("Missing expected option '\(option.synopsis)'."))
            }
            return .value(option.isFlag ? ArgumentValue.flag(false) : nil)
        }

        func outOfRange(_ text: String, for subject: String, range: ValueRange) -> String {
            "The value '\(text.prefix(100))' is out of range for \(subject): expected \(range.expectation)."
        }

        func invalid(_ text: String, for subject: String, kind: ValueKind) -> String {
            var message = "The value '\(text.prefix(100))' is invalid for \(subject): expected \(kind.expectation)."
            if case .choice(let choices) = kind, let near = Suggestion.closest(to: text, among: choices) {
                message += " Did you mean '\(near)'?"
            }
            return message
        }
    }
}
