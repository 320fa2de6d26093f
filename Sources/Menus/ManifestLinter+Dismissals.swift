extension ManifestLinter {
    /// A menu whose dismissal rate is high: people open it and close it without a pick, a sign that
    /// what they looked for is missing or hidden (HIG-1: the menu is offered where it is not
    /// useful; HIG-2: it holds the wrong commands). Flagged only when the lower bound of the rate's
    /// 95% Wilson interval is above `threshold`, so thin data never flags a menu.
    public static let dismissalRateThreshold = 0.25

    /// The HIG-2 finding for a high dismissal rate, if the usage shows one.
    static func highDismissalRate(elementType: String, usage: ElementUsage, path: ManifestPath,
                                  threshold: Double = dismissalRateThreshold) -> LintFinding?
    {
        let opens = usage.effectiveOpens
        let dismissals = opens - usage.totalSelections
        guard opens > 0, dismissals > 0 else { return nil }
        let (rate, low, high) = wilson(Double(dismissals), of: Double(opens))
        guard low > threshold else { return nil }
        func percent(_ x: Double) -> String { String(Double((x * 1000).rounded()) / 10) + "%" }
        return LintFinding(
            rule: .hig2, severity: .warning, elementType: elementType, path: path,
            message: "\(dismissals) of \(opens) opens of the menu of \(elementType) ended without a pick "
                + "(\(percent(rate)), 95% interval \(percent(low))-\(percent(high)), above \(percent(threshold))): "
                + "people open it and do not find what they want; look for missing commands (menurank "
                + "recommend lists commands seen only in telemetry) or commands hidden in submenus")
    }

    /// The 95% Wilson score interval of k of n (z = 1.96).
    static func wilson(_ k: Double, of n: Double) -> (estimate: Double, lower: Double, upper: Double) {
        let z = 1.959_963_984_540_054, z2 = z * z
        let p = k / n
        let denominator = 1 + z2 / n
        let centre = (p + z2 / (2 * n)) / denominator
        let half = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / denominator
        return (p, max(0, centre - half), min(1, centre + half))
    }
}
