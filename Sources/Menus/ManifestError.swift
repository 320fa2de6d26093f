public import JSON

/// Why a manifest (or a stored layout) could not be loaded: every problem found, each with its path.
///
/// A document that is not JSON at all has kind `.syntax`, a single issue at the root and the
/// parser's error (with line and column) in `syntax`. A JSON document that breaks the manifest format
/// has kind `.invalid` and one issue per problem, in document order.
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable { case syntax, invalid }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The text is not valid JSON.
        public static let syntax = Kind(.syntax)
        /// The JSON does not describe a valid manifest or layout.
        public static let invalid = Kind(.invalid)

        public var description: String {
            switch value {
            case .syntax: return "syntax"
            case .invalid: return "invalid"
            }
        }
    }

    public let kind: Kind
    public let issues: [ManifestIssue]
    /// The JSON syntax error, for kind `.syntax`.
    public let syntax: JSONParseError?

    public init(issues: [ManifestIssue]) {
        self.kind = .invalid
        self.issues = issues
        self.syntax = nil
    }

    public init(syntax: JSONParseError) {
        self.kind = .syntax
        self.issues = [ManifestIssue(path: .root, message: "invalid JSON: \(syntax)")]
        self.syntax = syntax
    }

    /// 1-based line of a syntax error.
    public var line: Int? { syntax?.line }
    /// 1-based column (in bytes) of a syntax error.
    public var column: Int? { syntax?.column }

    /// One line per issue: `path: message`.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}
