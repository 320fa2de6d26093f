import Foundation
import Testing
import TestSupport

/// The values reported to crash `menurank serve` (an allocation abort on a huge body cap, a Double
/// to Int trap on a tiny rate limit, an overflow on a huge retention), as flags and as
/// environment variables, and other extremes: each is a usage error naming the option, exit 64,
/// before anything starts. Through the real binary.
@Suite struct ConfigurationRangeTests {
    let cli = CLIRunner()

    @Test(arguments: [
        (["--max-body-bytes", "9223372036854775807"], "--max-body-bytes"),
        (["--max-body-bytes", "99999999999999999999"], "--max-body-bytes"),
        (["--max-body-bytes", "0"], "--max-body-bytes"),
        (["--rate-limit", "1e-30"], "--rate-limit"),
        (["--rate-limit", "1e300"], "--rate-limit"),
        (["--rate-limit", "-1"], "--rate-limit"),
        (["--rate-burst", "1e-30"], "--rate-burst"),
        (["--retention", "99999999999d"], "--retention"),
        (["--retention", "999999999999w"], "--retention"),
        (["--connection-limit", "4294967297"], "--connection-limit"),
        (["--connection-timeout", "99999999999d"], "--connection-timeout"),
        (["--key-cache-ttl", "99999999999d"], "--key-cache-ttl"),
        (["--skew-threshold", "99999999999d"], "--skew-threshold"),
        (["--max-events-per-batch", "-5"], "--max-events-per-batch"),
        (["--pool-size", "100000"], "--pool-size"),
        (["--max-in-flight-body-bytes", "1000", "--max-body-bytes", "4096"], "--max-in-flight-body-bytes"),
    ] as [([String], String)])
    func serveFlagsOutOfRangeExit64(_ flags: [String], _ option: String) throws {
        let outcome = try cli.run(["serve", "--listen", "127.0.0.1:0"] + flags,
                                  environment: ["DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none"])
        #expect(outcome.status == 64, "\(flags): \(outcome.status) \(outcome.error)")
        #expect(outcome.error.contains(option), "\(outcome.error)")
        #expect(outcome.error.hasPrefix("Error: "), "\(outcome.error)")
    }

    @Test(arguments: [
        ("MENURANK_MAX_BODY_BYTES", "9223372036854775807"), ("MENURANK_RATE_LIMIT", "1e-30"),
        ("MENURANK_RETENTION", "99999999999d"), ("MENURANK_RATE_BURST", "nan"), ("MENURANK_CONNECTION_LIMIT", "0"),
        ("MENURANK_HEADER_TIMEOUT", "0s"), ("MENURANK_BODY_TIMEOUT", "99999999999d"),
        ("MENURANK_MAX_IN_FLIGHT_BODY_BYTES", "99999999999999999"), ("MENURANK_CONNECTION_LIMIT_PER_ADDRESS", "-1"),
    ])
    func serveEnvironmentOutOfRangeExit64(_ variable: String, _ value: String) throws {
        let outcome = try cli.run(["serve", "--listen", "127.0.0.1:0"],
                                  environment: ["DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none", variable: value])
        #expect(outcome.status == 64, "\(variable)=\(value): \(outcome.status) \(outcome.error)")
        #expect(outcome.error.contains(variable) || outcome.error.contains("--rate-limit"), "\(outcome.error)")
    }

    @Test(arguments: [
        ["import", "-", "--app", "a", "--retention", "99999999999d"], ["import", "-", "--app", "a", "--batch-size", "0"],
        ["recommend", "--confidence", "1"], ["recommend", "--prune-share", "1e308"], ["rank", "--app", "a", "--window", "99999999999d"],
        ["simulate", "--out", "-", "--rate", "1e-30"], ["simulate", "--out", "-", "--concurrency", "100000"],
        ["lint", "x.json", "--max-groups", "9223372036854775807"],
    ])
    func otherCommandsOutOfRangeExit64(_ arguments: [String]) throws {
        let outcome = try cli.run(arguments, environment: ["DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none"])
        #expect(outcome.status == 64, "\(arguments): \(outcome.status) \(outcome.error)")
        #expect(outcome.error.contains("out of range") || outcome.error.contains("is invalid"), "\(outcome.error)")
    }
}
