public import Menus

/// A lint finding as a report carries it: rule, severity, the JSON path as text and the sentence.
public struct ReportFinding: Hashable, Sendable {
    public var rule: LintRule
    public var severity: LintSeverity
    /// The JSON path in the manifest (`menus.mail.message.groups`).
    public var path: String
    public var message: String

    public init(rule: LintRule, severity: LintSeverity, path: String, message: String) {
        self.rule = rule
        self.severity = severity
        self.path = path
        self.message = message
    }

    public init(_ finding: LintFinding) {
        self.init(rule: finding.rule, severity: finding.severity, path: finding.path.description,
                  message: finding.message)
    }
}
