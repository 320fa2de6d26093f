/// One positional argument of a command, declared once with its help and read back typed:
/// `values[AppsCommand.name]` is the `String` parsing checked was given, never `positional(0)`
/// with a fallback written beside it.
///
/// The declaration (`spec`) goes into the command's `arguments`; parsing reports a missing
/// required argument as a usage error before any command runs, so reading one cannot fail.
///
///     static let name: Argument<String> = .required("name", help: "The app.")
public struct Argument<Value: Sendable>: Sendable {
    /// The declaration, for the command's `arguments`.
    public let spec: ArgumentSpec
    private let read: @Sendable (ParsedValues) -> Value

    init(_ spec: ArgumentSpec, read: @escaping @Sendable (ParsedValues) -> Value) {
        self.spec = spec
        self.read = read
    }

    /// The name help shows as `<name>`.
    public var name: String { spec.name }

    func value(in values: ParsedValues) -> Value { read(values) }
}

extension ParsedValues {
    /// The typed value of `argument` (declared by the invoked command).
    public subscript<Value>(_ argument: Argument<Value>) -> Value { argument.value(in: self) }
}

extension Argument where Value == String {
    /// Text that must be given.
    public static func required(_ name: String, help: String) -> Argument {
        Argument(.argument(name, help: help)) { values in
            guard let text = values.string(name) else {
                preconditionFailure("the required argument '\(name)' has no value after parsing")
            }
            return text
        }
    }
}

extension Option where Value == [String] {
    /// Text that may be given any number of times (`--platform ios --platform macos`), in order;
    /// empty when absent.
    public static func repeating(_ name: String, valueName: String? = nil, environment: [String] = [],
                                 help: String) -> Option {
        Option(.option(name, valueName: valueName, environment: environment, repeating: true, help: help)) {
            $0.strings(name)
        }
    }
}
