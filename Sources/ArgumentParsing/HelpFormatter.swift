/// Renders help pages and usage lines for a command tree.
public enum HelpFormatter {
    /// The widest a line of help is made.
    public static let width = 80
    private static let indent = 2
    private static let maxLabelWidth = 26
    fileprivate static let keepTogether: Character = "\u{1}"

    /// The help page of the last command of `commands` (the path from the root): overview,
    /// discussion, usage, arguments, options, options inherited from parents, subcommands.
    public static func help(for commands: [CommandSpec]) -> String {
        let command = commands[commands.count - 1]
        let isRoot = commands.count == 1
        var sections: [String] = []
        sections.append(TextWrapping.wrap("OVERVIEW: " + command.abstract, width: width).joined(separator: "\n"))
        if !command.discussion.isEmpty {
            sections.append(TextWrapping.wrap(command.discussion, width: width).joined(separator: "\n"))
        }
        sections.append("USAGE: " + usage(for: commands))

        let arguments = command.arguments.map { argument in
            (label: "<\(argument.name)>" + (argument.isVariadic ? " ..." : ""), text: describe(argument.help, kind: argument.kind,
                                                      range: argument.range, defaultValue: argument.defaultValue,
                                                      environment: []))
        }
        var options = command.options.map(row)
        options.append((label: "-h, --help", text: "Show help information."))
        if isRoot, command.version != nil {
            options.append((label: "--version", text: "Show the version."))
        }
        let inherited = commands.dropLast().flatMap { $0.options.filter(\.isInherited) }.map(row)
        var subcommands = command.subcommands.map { (label: $0.name, text: $0.abstract) }
        if isRoot, !subcommands.isEmpty, command.subcommand(named: "help") == nil {
            subcommands.append((label: "help", text: "Show help for a command."))
        }

        let labelWidth = min(maxLabelWidth, (arguments + options + inherited + subcommands).map(\.label.count).max() ?? 0)
        func table(_ title: String, _ rows: [(label: String, text: String)]) {
            guard !rows.isEmpty else { return }
            sections.append(([title] + rows.map { render($0, labelWidth: labelWidth) }).joined(separator: "\n"))
        }
        table("ARGUMENTS:", arguments)
        table("OPTIONS:", options)
        table("GLOBAL OPTIONS:", inherited)
        table("SUBCOMMANDS:", subcommands)
        if !subcommands.isEmpty {
            let path = commands.map(\.name).joined(separator: " ")
            sections.append(isRoot
                ? "  See '\(path) help <subcommand>' for detailed help."
                : "  See '\(path) <subcommand> --help' for detailed help.")
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The usage line of the last command of `commands`, without a prefix: the command path, its
    /// options (required ones bare, others in brackets; all optional ones as `[<options>]` when the
    /// line would pass the width), its arguments, and `<subcommand>` for a group.
    public static func usage(for commands: [CommandSpec]) -> String {
        let command = commands[commands.count - 1]
        let path = commands.map(\.name).joined(separator: " ")
        let required = command.options.filter { $0.isRequired && $0.defaultValue == nil }
        let optional = command.options.filter { !($0.isRequired && $0.defaultValue == nil) }
        var tail = command.arguments.map(\.synopsis)
        if !command.subcommands.isEmpty {
            tail.append(command.run == nil ? "<subcommand>" : "[<subcommand>]")
        }
        let requiredWords = required.map { $0.synopsis + ($0.isRepeatable ? " ..." : "") }
        let optionalWords = optional.map { "[" + $0.synopsis + ($0.isRepeatable ? " ..." : "") + "]" }
        let full = ([path] + requiredWords + optionalWords + tail).joined(separator: " ")
        if full.count + "USAGE: ".count <= width || optional.isEmpty { return full }
        return ([path] + requiredWords + ["[<options>]"] + tail).joined(separator: " ")
    }

    private static func row(_ option: OptionSpec) -> (label: String, text: String) {
        var label = option.isFlag ? "--\(option.name)" : "--\(option.name) <\(option.valueName)>"
        if option.isRepeatable { label += " ..." }
        if let short = option.short { label = "-\(short), " + label }
        return (label, describe(option.help, kind: option.kind, range: option.range, defaultValue: option.defaultValue,
                                environment: option.environment))
    }

    /// Help text, then on a line of its own its possible values, default and environment variables:
    /// `(values: logfmt, json; default: logfmt; env: MENURANK_LOG_FORMAT)`.
    private static func describe(_ help: String, kind: ValueKind, range: ValueRange? = nil, defaultValue: String?,
                                 environment: [String]) -> String {
        var notes: [String] = []
        // A note's key stays on the line of its first value: `keepTogether` is a space that wrapping
        // does not break, turned back into a space when the row is rendered.
        if case .choice(let choices) = kind { notes.append("values:\(keepTogether)" + choices.joined(separator: ", ")) }
        if let range { notes.append("range:\(keepTogether)" + range.expectation) }
        if let defaultValue { notes.append("default:\(keepTogether)" + defaultValue) }
        if !environment.isEmpty { notes.append("env:\(keepTogether)" + environment.joined(separator: ", ")) }
        guard !notes.isEmpty else { return help }
        return help + (help.isEmpty ? "" : "\n") + "(" + notes.joined(separator: "; ") + ")"
    }

    private static func render(_ row: (label: String, text: String), labelWidth: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        let column = indent + labelWidth + 2
        let lines = TextWrapping.wrap(row.text, width: width - column)
        let hanging = String(repeating: " ", count: column)
        var output: [String]
        if row.label.count <= labelWidth {
            let first = pad + row.label + String(repeating: " ", count: labelWidth - row.label.count + 2) + lines[0]
            output = [first] + lines.dropFirst().map { hanging + $0 }
        } else {
            output = [pad + row.label] + lines.map { hanging + $0 }
        }
        return output.map { $0.trailingSpacesRemoved.replacingKeepTogether }.joined(separator: "\n")
    }
}

extension String {
    fileprivate var trailingSpacesRemoved: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

    fileprivate var replacingKeepTogether: String {
        String(map { $0 == HelpFormatter.keepTogether ? " " : $0 })
    }
}
