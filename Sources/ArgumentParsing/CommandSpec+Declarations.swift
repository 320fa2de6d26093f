extension CommandSpec {
    /// Mistakes in the declarations of this command tree: clashing or reserved names, defaults that
    /// do not parse, misplaced variadic arguments, commands with nothing to do. Empty for a sound
    /// tree; a test asserts it so a new subcommand cannot break parsing unnoticed.
    public func declarationProblems() -> [String] {
        problems(ancestors: [])
    }

    private func problems(ancestors: [CommandSpec]) -> [String] {
        let path = (ancestors + [self]).map(\.name).joined(separator: " ")
        var found: [String] = []
        func note(_ text: String) { found.append("\(path): \(text)") }

        if name.isEmpty || name.hasPrefix("-") || name.contains(" ") { note("invalid command name '\(name)'") }
        if abstract.isEmpty { note("missing abstract") }
        if version != nil, !ancestors.isEmpty { note("only the root has a version") }
        if subcommands.isEmpty, run == nil { note("neither subcommands nor run") }
        if !subcommands.isEmpty, !arguments.isEmpty { note("a command with subcommands takes no arguments") }

        var subcommandNames: Set<String> = []
        for sub in subcommands where !subcommandNames.insert(sub.name).inserted {
            note("subcommand '\(sub.name)' declared twice")
        }
        if ancestors.isEmpty, subcommandNames.contains("help") { note("'help' is reserved on the root") }

        var names: Set<String> = ["help"]
        if ancestors.isEmpty || ancestors[0].version != nil { names.insert("version") }
        for option in ancestors.flatMap(\.options) { names.insert(option.name) }
        var shorts: Set<Character> = ["h"]
        for option in ancestors.flatMap({ $0.options.filter(\.isInherited) }) {
            if let short = option.short { shorts.insert(short) }
        }
        for option in options {
            if option.name.isEmpty || option.name.hasPrefix("-") || option.name.contains(where: { $0 == " " || $0 == "=" }) {
                note("invalid option name '\(option.name)'")
            }
            if !names.insert(option.name).inserted { note("option '--\(option.name)' clashes with another name") }
            if let short = option.short, !shorts.insert(short).inserted || short == "-" || short.isNumber {
                note("short option '-\(short)' clashes or is invalid")
            }
            if option.isFlag, option.defaultValue != nil || option.isRequired || option.isRepeatable {
                note("flag '--\(option.name)' cannot have a default, be required or repeat")
            }
            if option.isRequired, option.defaultValue != nil {
                note("option '--\(option.name)' is required and has a default")
            }
            found += kindProblems(option.kind, defaultValue: option.defaultValue, range: option.range,
                                  subject: "--\(option.name)", path: path)
        }
        for (index, argument) in arguments.enumerated() {
            if !names.insert(argument.name).inserted { note("argument '\(argument.name)' clashes with another name") }
            if argument.kind == .flag { note("argument '\(argument.name)' cannot be a flag") }
            if argument.isVariadic, index != arguments.count - 1 { note("only the last argument may be variadic") }
            if argument.arity == .required || argument.arity == .oneOrMore,
               arguments[..<index].contains(where: { $0.arity == .optional || $0.isVariadic }) {
                note("required argument '\(argument.name)' follows an optional one")
            }
            if argument.defaultValue != nil, argument.arity != .optional {
                note("only an optional argument has a default ('\(argument.name)')")
            }
            found += kindProblems(argument.kind, defaultValue: argument.defaultValue, range: argument.range,
                                  subject: "<\(argument.name)>", path: path)
        }
        for sub in subcommands {
            found += sub.problems(ancestors: ancestors + [self])
        }
        return found
    }

    private func kindProblems(_ kind: ValueKind, defaultValue: String?, range: ValueRange?, subject: String,
                              path: String) -> [String] {
        var found: [String] = []
        if case .choice(let choices) = kind, choices.isEmpty { found.append("\(path): \(subject) has no choices") }
        if let defaultValue, kind != .flag, kind.parse(defaultValue) == nil {
            found.append("\(path): default '\(defaultValue)' of \(subject) is not \(kind.expectation)")
        }
        switch kind {
        case .int, .double, .duration:
            // Every number has a range, so no value typed or set in the environment can overflow.
            if range == nil { found.append("\(path): \(subject) is a number without a range") }
        default:
            break
        }
        if let range {
            if !range.fits(kind) {
                found.append("\(path): the range of \(subject) is not of its kind")
            } else if let defaultValue, let value = kind.parse(defaultValue), !range.contains(value) {
                found.append("\(path): default '\(defaultValue)' of \(subject) is outside \(range.expectation)")
            }
        }
        return found
    }
}
