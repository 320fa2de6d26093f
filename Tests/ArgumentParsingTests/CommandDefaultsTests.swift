import ArgumentParsing
import Menus
import Ingest
@testable import MenurankCommands
import Recommender
import Storage
import Testing

/// The commands' defaults are the domain's own: an option's default is written once, where the
/// code that uses it is, and the command line reads it from there.
@Suite("Command defaults")
struct CommandDefaultsTests {
    static func values(_ arguments: [String]) throws -> ParsedValues {
        guard case .invocation(let invocation) = CommandParser.parse(arguments, root: Menurank.root, environment: [:]) else {
            throw Failure()
        }
        return invocation.values
    }

    struct Failure: Error {}

    @Test("recommend without options runs the recommender with its own defaults")
    func recommendDefaults() throws {
        #expect(RecommendOptions.recommender(try Self.values(["recommend"])) == Recommender.Options())
        #expect(RecommendOptions.shapeOnly(try Self.values(["report", "--app", "a", "--out", "x.html"])) == Recommender.Options())
    }

    @Test("recommend's options reach the recommender as given")
    func recommendGiven() throws {
        let values = try Self.values(["recommend", "--max-groups", "4", "--max-group-size", "5", "--prune-share", "0.02",
                                      "--prune-reach", "0.1", "--grouping", "usage", "--weight", "selections",
                                      "--confidence", "0.9", "--fallback-cost", "12", "--min-stability", "0.5"])
        #expect(RecommendOptions.recommender(values) == Recommender.Options(
            maxGroups: 4, maxGroupSize: 5, pruneShare: 0.02, pruneReach: 0.1, grouping: .usage, weight: .selections,
            confidence: 0.9, fallbackCost: 12, minStability: 0.5))
    }

    @Test("Values the recommender cannot take are usage errors, before it runs", arguments: [
        ["recommend", "--max-groups", "0"], ["recommend", "--max-group-size", "1"], ["report", "--max-group-size", "1"],
        ["recommend", "--prune-share", "1.5"], ["recommend", "--confidence", "1"], ["recommend", "--fallback-cost", "-1"],
    ])
    func outOfRange(arguments: [String]) {
        guard case .usageError = CommandParser.parse(arguments, root: Menurank.root, environment: [:]) else {
            Issue.record("\(arguments) parsed")
            return
        }
    }

    @Test("lint's shape defaults are the linter's")
    func lintDefaults() throws {
        let values = try Self.values(["lint", "menus.json"])
        #expect(LintOptions(maxGroups: values[Menurank.lintMaxGroups], maxGroupSize: values[Menurank.lintMaxGroupSize])
            == LintOptions())
    }

    @Test("serve without options runs with the daemon's own configuration")
    func serveDefaults() throws {
        let configuration = try ServeCommandSupport.configuration(try Self.values(["serve"]))
        var expected = IngestConfiguration()
        expected.database = ""
        #expect(configuration.host == expected.host && configuration.port == expected.port)
        #expect(configuration.maxBodyBytes == expected.maxBodyBytes)
        #expect(configuration.maxInFlightBodyBytes == expected.maxInFlightBodyBytes)
        #expect(configuration.connectionTimeout == expected.connectionTimeout)
        #expect(configuration.headerTimeout == expected.headerTimeout)
        #expect(configuration.bodyTimeout == expected.bodyTimeout)
        #expect(configuration.skewThreshold == expected.skewThreshold)
        #expect(configuration.retentionDays == expected.retentionDays)
        #expect(configuration.rollupRetentionDays == expected.rollupRetentionDays)
        #expect(configuration.dictionaryLimits == expected.dictionaryLimits)
        #expect(configuration.keyCacheTTL == expected.keyCacheTTL)
        #expect(configuration.ingestPoolSize == expected.ingestPoolSize && configuration.poolSize == expected.poolSize)
        #expect(configuration.rateLimit == expected.rateLimit && configuration.rateBurst == expected.rateBurst)
    }
}
