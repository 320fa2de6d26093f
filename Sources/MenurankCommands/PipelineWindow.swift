import ArgumentParsing
import CivilTime
import Postgres
import Ranking
import Storage

/// The ranking window options shared by rank, recommend, lint and report: `--window` (whole
/// days), `--as-of` (default today, UTC) and `--half-life`.
enum PipelineWindow {
    static let length: Option<Duration> = .duration(
        "window", default: .seconds(RankingWindow.defaultLength * 86_400), range: Limits.window,
        help: "Length of the ranking window, in whole days.")
    static let asOf: Option<CivilDate?> = .date("as-of", valueName: "date",
                                           help: "Last day of the window (YYYY-MM-DD, UTC); default today.")
    static let options: [OptionSpec] = [length.spec, asOf.spec]

    static let halfLife: Option<Duration?> = .duration(
        "half-life", valueName: "duration", range: .durations(.seconds(1)...(.seconds(3650 * 86_400))),
        help: "Weigh recent days more: a day this old counts half (for example 7d); default no decay.")
    static let halfLifeOption = halfLife.spec

    /// The window the options ask for.
    /// - Throws: `CLIError.usage` for a window or half-life that is not whole days or not positive.
    static func window(_ values: ParsedValues, withHalfLife: Bool) throws -> RankingWindow {
        let length = try days(values[Self.length], option: "window")
        let asOf = values[Self.asOf] ?? WallClock.system.now().day
        var halfLife: Double?
        if withHalfLife, let span = values[Self.halfLife] {
            let seconds = Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18
            guard seconds > 0 else { throw CLIError.usage("--half-life must be positive") }
            halfLife = seconds / 86_400
        }
        return RankingWindow(asOf: asOf, length: length, halfLife: halfLife)
    }

    private static func days(_ span: Duration, option: String) throws -> Int {
        let (seconds, attoseconds) = span.components
        guard attoseconds == 0, seconds > 0, seconds % 86_400 == 0 else {
            throw CLIError.usage("--\(option) must be a whole number of days, such as 28d")
        }
        return Int(seconds / 86_400)
    }
}
