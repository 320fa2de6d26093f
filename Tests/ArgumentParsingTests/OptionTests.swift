import ArgumentParsing
import Testing

/// Typed options: declared once with their default, read back typed, the default being the one the
/// declaration (and so help) states.
@Suite("Typed options")
struct OptionTests {
    enum Shape: String, CaseIterable, Sendable { case round, square }

    static let count: Option<Int> = .int("count", default: 3, environment: ["TOOL_COUNT"], range: .ints(1...9), help: "How many.")
    static let limit: Option<Int?> = .int("limit", range: .ints(0...100), help: "At most this many.")
    static let share: Option<Double> = .double("share", default: 0.05, range: .numbers(0...1), help: "A share.")
    static let rate: Option<Double> = .double("rate", default: 100, range: .numbers(0...1000), help: "A rate.")
    static let timeout: Option<Duration> = .duration("timeout", default: .seconds(60),
                                                     range: .durations(.zero...(.seconds(86_400 * 365))), help: "A timeout.")
    static let window: Option<Duration> = .duration("window", default: .seconds(28 * 86_400),
                                                    range: .durations(.zero...(.seconds(86_400 * 365))), help: "A window.")
    static let halfLife: Option<Duration?> = .duration("half-life", range: .durations(.zero...(.seconds(86_400))), help: "A half-life.")
    static let shape: Option<Shape> = .choice("shape", default: .square, help: "The shape.")
    static let kind: Option<Shape> = .required("kind", help: "The kind.")
    static let name: Option<String?> = .string("name", help: "A name.")
    static let format: Option<String> = .choice("format", ["text", "json"], default: "text", help: "Output format.")
    static let dryRun: Option<Bool> = .flag("dry-run", help: "Store nothing.")

    static let command = CommandSpec(
        name: "tool", abstract: "A tool.",
        options: [count.spec, limit.spec, share.spec, rate.spec, timeout.spec, window.spec, halfLife.spec, shape.spec,
                  kind.spec, name.spec, format.spec, dryRun.spec],
        run: { _ in })

    static func values(_ arguments: [String], environment: [String: String] = [:]) throws -> ParsedValues {
        guard case .invocation(let invocation) = CommandParser.parse(arguments, root: command, environment: environment) else {
            throw ParseFailed()
        }
        return invocation.values
    }

    struct ParseFailed: Error {}

    @Test("Every declaration is sound (defaults parse and lie in their ranges)")
    func declarations() {
        #expect(Self.command.declarationProblems() == [])
    }

    @Test("Absent options read as their declared defaults, or nil without one")
    func defaults() throws {
        let values = try Self.values(["--kind", "round"])
        #expect(values[Self.count] == 3)
        #expect(values[Self.limit] == nil)
        #expect(values[Self.share] == 0.05)
        #expect(values[Self.rate] == 100)
        #expect(values[Self.timeout] == .seconds(60))
        #expect(values[Self.window] == .seconds(28 * 86_400))
        #expect(values[Self.halfLife] == nil)
        #expect(values[Self.shape] == .square)
        #expect(values[Self.kind] == .round)
        #expect(values[Self.name] == nil)
        #expect(values[Self.format] == "text")
        #expect(values[Self.dryRun] == false)
    }

    @Test("Given options, and the environment, read typed")
    func given() throws {
        let values = try Self.values(["--kind", "square", "--limit", "7", "--share", "0.5", "--timeout", "90m",
                                      "--half-life", "12h", "--shape", "round", "--name", "x", "--format", "json",
                                      "--dry-run"],
                                     environment: ["TOOL_COUNT": "8"])
        #expect(values[Self.count] == 8)
        #expect(values[Self.limit] == 7)
        #expect(values[Self.share] == 0.5)
        #expect(values[Self.timeout] == .seconds(5400))
        #expect(values[Self.halfLife] == .seconds(12 * 3600))
        #expect(values[Self.shape] == .round)
        #expect(values[Self.kind] == .square)
        #expect(values[Self.name] == "x")
        #expect(values[Self.format] == "json")
        #expect(values[Self.dryRun])
    }

    @Test("Help states each default as the declaration's value, choices in declaration order")
    func help() {
        #expect(Self.count.spec.defaultValue == "3")
        #expect(Self.share.spec.defaultValue == "0.05")
        #expect(Self.rate.spec.defaultValue == "100")
        #expect(Self.timeout.spec.defaultValue == "60s")
        #expect(Self.window.spec.defaultValue == "28d")
        #expect(Self.shape.spec.defaultValue == "square")
        #expect(Self.shape.spec.kind == .choice(["round", "square"]))
        #expect(Self.kind.spec.isRequired)
        #expect(Self.limit.spec.defaultValue == nil)
    }

    @Test("A required option that is absent is a usage error")
    func required() {
        guard case .usageError = CommandParser.parse([], root: Self.command) else {
            Issue.record("expected a usage error")
            return
        }
    }

    static let tags: Option<[String]> = .repeating("tag", valueName: "tag", help: "A tag; give it again for more.")
    static let file: Argument<String> = .required("file", help: "The file.")
    static let withArgument = CommandSpec(name: "open", abstract: "Opens a file.", options: [tags.spec],
                                          arguments: [file.spec], run: { _ in })

    @Test("A repeated option reads as its values in order, empty when absent; an argument reads typed")
    func repeatedAndArguments() throws {
        func parse(_ arguments: [String]) -> ParsedValues? {
            guard case .invocation(let invocation) = CommandParser.parse(arguments, root: Self.withArgument) else { return nil }
            return invocation.values
        }
        #expect(Self.withArgument.declarationProblems() == [])
        let some = try #require(parse(["--tag", "b", "a.json", "--tag", "a"]))
        #expect(some[Self.tags] == ["b", "a"])
        #expect(some[Self.file] == "a.json")
        let none = try #require(parse(["-"]))
        #expect(none[Self.tags] == [])
        #expect(none[Self.file] == "-")
        // The argument is required: without it, parsing stops with a usage error.
        guard case .usageError = CommandParser.parse(["--tag", "x"], root: Self.withArgument) else {
            Issue.record("expected a usage error for the missing <file>")
            return
        }
    }
}
