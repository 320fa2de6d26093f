import ArgumentParsing
import MenurankCommands
import Testing
import TestSupport

/// Every numeric option of every menurank command, fed random text, extreme numbers and values
/// at and beyond its range, on the command line and through its environment variables: parsing
/// never traps, a value it accepts always lies in the declared range, in-range values round-trip,
/// and out-of-range values are usage errors that name the range.
@Suite("option ranges (property tests)")
struct RangePropertyTests {
    /// A numeric option together with a command line that reaches it (required options and
    /// arguments filled in).
    struct Probe: CustomStringConvertible {
        let path: [String]
        let prefix: [String]
        let option: OptionSpec
        let range: ValueRange

        var description: String { (path + ["--" + option.name]).joined(separator: " ") }

        func arguments(_ value: String) -> [String] { prefix + ["--\(option.name)=\(value)"] }

        func parse(_ value: String) -> ParseOutcome {
            CommandParser.parse(arguments(value), root: Menurank.root)
        }

        func parse(environment value: String, variable: String) -> ParseOutcome {
            CommandParser.parse(prefix, root: Menurank.root, environment: [variable: value])
        }
    }

    static let probes: [Probe] = {
        var found: [Probe] = []
        func walk(_ command: CommandSpec, path: [String], inherited: [OptionSpec]) {
            if command.subcommands.isEmpty {
                var prefix = Array(path.dropFirst())
                for option in (inherited + command.options) where option.isRequired && option.defaultValue == nil {
                    prefix += ["--\(option.name)", sample(option.kind)]
                }
                for argument in command.arguments where argument.arity == .required || argument.arity == .oneOrMore {
                    prefix.append(sample(argument.kind))
                }
                for option in inherited + command.options {
                    switch option.kind {
                    case .int, .double, .duration:
                        guard let range = option.range else { continue }  // declarationProblems reports it
                        found.append(Probe(path: path, prefix: prefix, option: option, range: range))
                    default:
                        continue
                    }
                }
            }
            for sub in command.subcommands {
                walk(sub, path: path + [sub.name], inherited: inherited + command.options.filter(\.isInherited))
            }
        }
        walk(Menurank.root, path: ["menurank"], inherited: [])
        return found
    }()

    static func sample(_ kind: ValueKind) -> String {
        switch kind {
        case .choice(let choices): choices[0]
        case .int: "1"
        case .date: "2026-01-01"
        default: "x"
        }
    }

    /// The value of `name` in an invocation, nil for a usage error; records anything else.
    static func value(of name: String, in outcome: ParseOutcome) -> ArgumentValue?? {
        switch outcome {
        case .invocation(let invocation):
            return .some(invocation.values.all(name).first)
        case .usageError:
            return .some(nil)
        default:
            return nil
        }
    }

    static func text(_ value: ArgumentValue) -> String { value.description }

    @Test("every numeric option of every command declares a range")
    func everyNumberHasARange() {
        #expect(Menurank.root.declarationProblems() == [])
        #expect(Self.probes.count >= 30, "\(Self.probes.count) numeric options found")
        #expect(Self.probes.contains { $0.option.name == "max-body-bytes" })
        #expect(Self.probes.contains { $0.option.name == "rate-limit" })
        #expect(Self.probes.contains { $0.option.name == "retention" && $0.path.last == "serve" })
    }

    @Test("random text and extreme numbers never trap, and what is accepted is in range")
    func randomText() {
        var random = SplitMix64(seed: 0x5eed)
        let extremes = [
            "", " ", "-", "+", "0", "-0", "1e-30", "1e308", "1e309", "-1e309", "inf", "-inf", "nan", "NaN", "0x10",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "99999999999999999999999", "4.9e-324", "1e-400", "999999999999w", "99999999999d", "9223372036854775807ms",
            "1d1d", "0s", "0ms", "1.5", "٣", "１", "1_000", "1,000", " 1", "1 ", "\u{0}", "28d\u{0}",
        ]
        for probe in Self.probes {
            var inputs = extremes
            for _ in 0..<60 { inputs.append(random.text()) }
            for _ in 0..<20 { inputs.append(String(Int64(bitPattern: random.next()))) }
            for _ in 0..<20 { inputs.append(String(Double(bitPattern: random.next()))) }
            for _ in 0..<20 { inputs.append("\(random.next() % 100_000_000_000)\(["w", "d", "h", "m", "s", "ms"][Int(random.next() % 6)])") }
            for input in inputs {
                guard let parsed = Self.value(of: probe.option.name, in: probe.parse(input)) else {
                    Issue.record("\(probe) '\(input)': neither a value nor a usage error")
                    continue
                }
                if let value = parsed {
                    #expect(probe.range.contains(value), "\(probe) accepted '\(input)' as \(value), outside \(probe.range.expectation)")
                }
                for variable in probe.option.environment {
                    guard let fromEnvironment = Self.value(of: probe.option.name,
                                                           in: probe.parse(environment: input, variable: variable)) else {
                        Issue.record("\(probe) $\(variable)='\(input)': neither a value nor a usage error")
                        continue
                    }
                    if let value = fromEnvironment {
                        #expect(probe.range.contains(value), "\(probe) $\(variable)='\(input)' gave \(value)")
                    }
                }
            }
        }
    }

    @Test("in-range values round-trip; the values just outside are usage errors naming the range")
    func bounds() {
        var random = SplitMix64(seed: 42)
        for probe in Self.probes {
            let (lower, upper) = probe.range.limits
            var inside = [lower, upper]
            var outside: [ArgumentValue] = []
            switch (lower, upper) {
            case let (.int(low), .int(high)):
                for _ in 0..<50 {
                    let span = UInt64(bitPattern: Int64(high &- low))
                    let offset = span == .max ? random.next() : random.next() % (span + 1)
                    inside.append(.int(low &+ Int(Int64(bitPattern: offset))))
                }
                if low > .min { outside.append(.int(low - 1)) }
                if high < .max { outside.append(.int(high + 1)) }
            case let (.double(low), .double(high)):
                for _ in 0..<50 { inside.append(.double(low + (high - low) * Double(random.next() % 1_000_001) / 1_000_000)) }
                outside += [.double(low - max(1e-9, abs(low) * 0.01)), .double(high + max(1e-9, abs(high) * 0.01))]
            case let (.duration(low), .duration(high)):
                let lowMs = Self.milliseconds(low)
                let highMs = Self.milliseconds(high)
                for _ in 0..<50 { inside.append(.duration(.milliseconds(lowMs + Int64(random.next() % UInt64(highMs - lowMs + 1))))) }
                if lowMs > 0 { outside.append(.duration(.milliseconds(lowMs - 1))) }
                outside.append(.duration(.milliseconds(highMs + 1)))
            default:
                Issue.record("\(probe): range limits of mixed kinds")
            }
            for value in inside {
                let parsed = Self.value(of: probe.option.name, in: probe.parse(Self.text(value)))
                #expect(parsed == .some(value), "\(probe) '\(Self.text(value))' gave \(String(describing: parsed))")
            }
            for value in outside {
                let outcome = probe.parse(Self.text(value))
                guard case .usageError(let failure) = outcome else {
                    Issue.record("\(probe) accepted '\(Self.text(value))' outside \(probe.range.expectation)")
                    continue
                }
                #expect(failure.message.contains("out of range"), "\(probe): \(failure.message)")
                #expect(failure.message.contains(probe.range.expectation), "\(probe): \(failure.message)")
            }
        }
    }

    static func milliseconds(_ span: Duration) -> Int64 {
        span.components.seconds * 1000 + span.components.attoseconds / 1_000_000_000_000_000
    }
}

/// Random option text for the range properties.
extension SplitMix64 {
    /// Up to 24 characters drawn from digits, signs, units, dots, letters and a few odd ones.
    mutating func text() -> String {
        let alphabet = Array("0123456789-+.eEwdhmsxnai _,\u{0}٣é")
        let count = Int(next() % 25)
        return String((0..<count).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
    }
}
