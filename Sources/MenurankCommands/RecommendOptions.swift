import ArgumentParsing
import Menus
import Recommender

/// The recommender's options as `recommend` (and, for the shape, `report`) takes them, each
/// declared once: its default is the recommender's own (`Recommender.Options()`), its range is
/// checked by parsing, so the values reach the recommender valid and are never checked again.
enum RecommendOptions {
    private static let defaults = Recommender.Options()

    static let maxGroups: Option<Int> = .int(
        "max-groups", valueName: "n", default: defaults.maxGroups, range: Limits.maxGroups, help: "Most groups in a proposal.")
    static let maxGroupSize: Option<Int> = .int(
        "max-group-size", valueName: "n", default: defaults.maxGroupSize, range: .ints(2...Limits.maxGroupSize),
        help: "Most items per group.")
    static let pruneShare: Option<Double> = .double(
        "prune-share", valueName: "share", default: defaults.pruneShare, range: .numbers(0...1),
        help: "Flag a command only when its share's upper bound is below this...")
    static let pruneReach: Option<Double> = .double(
        "prune-reach", valueName: "share", default: defaults.pruneReach, range: .numbers(0...1),
        help: "...and its reach's upper bound (people who picked it / people who used the menu) too.")
    static let weight: Option<UsageWeight> = .choice(
        "weight", default: defaults.weight, help: "What orders commands: user-days (distinct people a day) or raw selections.")
    static let fallbackCost: Option<Double?> = .double(
        "fallback-cost", valueName: "items", range: .numbers(0...1_000_000),
        help: "Scan cost of a pruned command in the evidence (default: current items + 1).")
    static let minStability: Option<Double> = .double(
        "min-stability", valueName: "share", default: defaults.minStability, range: .numbers(0...1),
        help: "Below this stability (resamples of people) a proposal is tentative: reported, not filed.")
    static let minGainShare: Option<Double> = .double(
        "min-gain-share", valueName: "share", default: defaults.minGainShare, range: .numbers(0...1),
        help: "File the smallest step of the ladder with at least this share of the best step's gain.")
    static let grouping: Option<Recommender.Grouping> = .choice(
        "grouping", default: defaults.grouping,
        help: "semantic: keep related commands together; usage: cut the use-ordered list.")
    static let confidence: Option<Double> = .double(
        "confidence", default: defaults.confidence, range: Limits.confidence,
        help: "Confidence of the intervals and the stability test.")

    /// The options that shape a proposal, as `report` takes them.
    static let shape = [maxGroups.spec, maxGroupSize.spec]

    /// The recommender's options from parsed values: those given, the recommender's defaults for the rest.
    static func recommender(_ values: ParsedValues) -> Recommender.Options {
        Recommender.Options(
            maxGroups: values[maxGroups], maxGroupSize: values[maxGroupSize], pruneShare: values[pruneShare],
            pruneReach: values[pruneReach], grouping: values[grouping], weight: values[weight],
            confidence: values[confidence], fallbackCost: values[fallbackCost], minStability: values[minStability],
            minGainShare: values[minGainShare])
    }

    /// Only the shape (`report`): the recommender's defaults for everything else.
    static func shapeOnly(_ values: ParsedValues) -> Recommender.Options {
        Recommender.Options(maxGroups: values[maxGroups], maxGroupSize: values[maxGroupSize])
    }
}
