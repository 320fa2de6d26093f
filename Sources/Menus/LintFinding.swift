public import JSON

/// One thing lint found: which rule, how much it matters, where, and a sentence saying what to do.
public struct LintFinding: Hashable, Sendable, CustomStringConvertible {
    public let rule: LintRule
    public let severity: LintSeverity
    /// The element type whose menu the finding is about; nil for the manifest as a whole.
    public let elementType: String?
    public let path: ManifestPath
    public let message: String

    public init(rule: LintRule, severity: LintSeverity, elementType: String?, path: ManifestPath, message: String) {
        self.rule = rule
        self.severity = severity
        self.elementType = elementType
        self.path = path
        self.message = message
    }

    /// `warning HIG-6 menus.mail.message.groups: ...`
    public var description: String { "\(severity) \(rule) \(path): \(message)" }

    /// `{"rule", "severity", "element_type" (null for the manifest), "path", "message"}`.
    public var jsonValue: JSONValue {
        [
            "rule": .string(rule.rawValue),
            "severity": .string(severity.rawValue),
            "element_type": elementType.map(JSONValue.string) ?? .null,
            "path": .string(path.description),
            "message": .string(message),
        ]
    }

    /// The report order: manifest-wide findings first, then by element type, path, rule, message.
    static func reportOrder(_ a: LintFinding, _ b: LintFinding) -> Bool {
        switch (a.elementType, b.elementType) {
        case (nil, .some): return true
        case (.some, nil): return false
        case let (.some(x), .some(y)) where x != y: return x < y
        default: break
        }
        if a.path != b.path { return a.path < b.path }
        if a.rule != b.rule { return a.rule < b.rule }
        if a.severity != b.severity { return a.severity < b.severity }
        return a.message < b.message
    }
}
