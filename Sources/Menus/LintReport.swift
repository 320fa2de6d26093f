public import JSON

/// All findings of one lint run, in a deterministic order (manifest-wide findings first, then by
/// element type, then by path).
public struct LintReport: Hashable, Sendable, CustomStringConvertible {
    public let findings: [LintFinding]

    /// Sorts `findings` into report order.
    public init(findings: [LintFinding]) {
        self.findings = findings.sorted(by: LintFinding.reportOrder)
    }

    public var hasErrors: Bool { findings.contains { $0.severity == .error } }
    public var hasWarnings: Bool { findings.contains { $0.severity == .warning } }

    public func count(_ severity: LintSeverity) -> Int { findings.filter { $0.severity == severity }.count }

    /// The exit status of `menurank lint`: 1 with errors, 1 with warnings under `strict`, else 0.
    public func exitStatus(strict: Bool) -> Int32 {
        if hasErrors || (strict && hasWarnings) { return 1 }
        return 0
    }

    /// One line per finding.
    public var description: String { findings.map { $0.description + "\n" }.joined() }

    /// `{"findings": [...], "errors": n, "warnings": n, "infos": n}`.
    public var jsonValue: JSONValue {
        [
            "findings": .array(findings.map(\.jsonValue)),
            "errors": .number(JSONNumber(count(.error))),
            "warnings": .number(JSONNumber(count(.warning))),
            "infos": .number(JSONNumber(count(.info))),
        ]
    }
}
