public import JSON
import Menus

extension ReportFinding {
    /// `{"rule", "severity", "path", "message"}`.
    public var jsonValue: JSONValue {
        ["rule": .string(rule.rawValue), "severity": .string(severity.rawValue), "path": .string(path),
         "message": .string(message)]
    }

    /// Reads `jsonValue`; errors name `path`.
    public init(json: JSONValue, path: String) throws(ReportError) {
        let object = try ReportJSON.Object(json, path: path)
        let ruleName = try object.string("rule")
        let severityName = try object.string("severity")
        guard let rule = LintRule(rawValue: ruleName) else {
            throw ReportError(kind: .invalidDocument, path: path + ".rule", message: "unknown lint rule \"\(ruleName)\"")
        }
        guard let severity = LintSeverity(rawValue: severityName) else {
            throw ReportError(kind: .invalidDocument, path: path + ".severity",
                              message: "unknown severity \"\(severityName)\"")
        }
        self.init(rule: rule, severity: severity, path: try object.string("path"), message: try object.string("message"))
    }
}
