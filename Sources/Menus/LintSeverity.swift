/// How much a finding matters. Errors fail `menurank lint`; warnings fail it only with `--strict`;
/// infos are advice. Ordered from most to least severe.
public enum LintSeverity: String, CaseIterable, Hashable, Sendable, Comparable, CustomStringConvertible {
    case error
    case warning
    case info

    public var description: String { rawValue }

    public static func < (lhs: LintSeverity, rhs: LintSeverity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
