public import CivilTime
public import Foundation

/// The typed values of a parsed command line: every option and argument of the invoked command and
/// of the commands above it, read by name.
///
/// A value is nil (or a flag false, a list empty) when it was not given and has no environment
/// variable or default; an option with a default is never nil. Asking for a name that was not declared,
/// or with a getter of another type, is a programming error and stops the process, so a mismatch
/// between a declaration and its use shows on the first test run.
public struct ParsedValues: Sendable, Equatable {
    private let values: [String: ArgumentValue]
    private let kinds: [String: ValueKind]
    private let repeated: Set<String>
    /// The positional arguments of the invoked command as typed, in order.
    public let positionals: [String]

    init(values: [String: ArgumentValue], kinds: [String: ValueKind], repeated: Set<String>,
         positionals: [String]) {
        self.values = values
        self.kinds = kinds
        self.repeated = repeated
        self.positionals = positionals
    }

    /// Whether an option or argument got a value from the command line, the environment or a default.
    public func hasValue(_ name: String) -> Bool {
        _ = declaredKind(name)
        return values[name] != nil
    }

    /// Whether the command declares an option or argument called `name`.
    public func declares(_ name: String) -> Bool { kinds[name] != nil }

    /// Whether the flag `name` was given (or set through its environment variable).
    public func flag(_ name: String) -> Bool {
        guard case .flag(let on)? = single(name, .flag) else { return false }
        return on
    }

    /// The text of a `.string` or `.choice` value.
    public func string(_ name: String) -> String? {
        guard case .string(let text)? = single(name, .string) else { return nil }
        return text
    }

    public func int(_ name: String) -> Int? {
        guard case .int(let number)? = single(name, .int) else { return nil }
        return number
    }

    public func double(_ name: String) -> Double? {
        guard case .double(let number)? = single(name, .double) else { return nil }
        return number
    }

    public func duration(_ name: String) -> Duration? {
        guard case .duration(let span)? = single(name, .duration) else { return nil }
        return span
    }

    /// The day of a `.date` value.
    public func date(_ name: String) -> CivilDate? {
        guard case .date(let day)? = single(name, .date) else { return nil }
        return day
    }

    /// A `.choice` value as the enum whose raw values are the choices
    /// (`values.choice("log-format", as: LogFormat.self)`).
    public func choice<Choice: RawRepresentable>(_ name: String, as type: Choice.Type) -> Choice?
    where Choice.RawValue == String {
        guard case .string(let text)? = single(name, .string) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            preconditionFailure("'\(text)' of '\(name)' is not a case of \(Choice.self)")
        }
        return choice
    }

    /// Every value of a repeated option or variadic argument (or the one value of another), in order.
    public func all(_ name: String) -> [ArgumentValue] {
        _ = declaredKind(name)
        switch values[name] {
        case .list(let items)?: return items
        case let item?: return [item]
        case nil: return []
        }
    }

    /// Every value of a repeated or variadic `.string` or `.choice` option or argument.
    public func strings(_ name: String) -> [String] {
        checkKind(name, .string)
        return all(name).compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    /// Every value of a repeated or variadic `.int` option or argument.
    public func ints(_ name: String) -> [Int] {
        checkKind(name, .int)
        return all(name).compactMap { if case .int(let number) = $0 { number } else { nil } }
    }

    /// The positional argument at `index` as typed, if there is one.
    public func positional(_ index: Int) -> String? {
        positionals.indices.contains(index) ? positionals[index] : nil
    }

    private func declaredKind(_ name: String) -> ValueKind {
        guard let kind = kinds[name] else {
            preconditionFailure("'\(name)' is not an option or argument of this command")
        }
        return kind
    }

    private func checkKind(_ name: String, _ expected: ValueKind) {
        let kind = declaredKind(name)
        let matches = switch (kind, expected) {
        case (.choice, .string): true
        default: kind == expected
        }
        precondition(matches, "'\(name)' is declared as \(kind), not read as \(expected)")
    }

    private func single(_ name: String, _ expected: ValueKind) -> ArgumentValue? {
        checkKind(name, expected)
        precondition(!repeated.contains(name), "'\(name)' is repeatable or variadic: read it with all(_:)")
        return values[name]
    }
}

extension ParsedValues: CustomStringConvertible {
    /// Every value, sorted by name, as `name=value` separated by spaces; flags only when set
    /// (`dry-run=true files=[a, b] window=28d`). Positional values appear under their argument names.
    public var description: String {
        values.keys.sorted().compactMap { name in
            guard let value = values[name] else { return nil }
            if case .flag(false) = value { return nil }
            return "\(name)=\(value)"
        }.joined(separator: " ")
    }
}
