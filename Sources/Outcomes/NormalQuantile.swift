import Ranking

/// z for a two-sided confidence level, from `Ranking`'s normal quantile.
enum NormalQuantile {
    static func criticalValue(confidence: Double) -> Double {
        NormalDistribution.criticalValue(confidence: confidence)
    }
}
