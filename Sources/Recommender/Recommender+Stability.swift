import Foundation
public import Menus
import Ranking

extension Recommender {
    /// Stability of each step of the ladder (DESIGN.md, invariant 6): the share of
    /// `options.bootstrapRounds` resamples of **people** whose same step has the same top-level
    /// commands (`topLevel(of:)`) as the step from the data as observed.
    ///
    /// A resample draws every person bucket (`PersonBucket`: independent random groups of people)
    /// a Poisson(1) number of times (the Poisson bootstrap of Chamandy, Muralidharan, Najmi & Naidu,
    /// "Estimating uncertainty for massive data streams", Google, 2012): a command's counts become
    /// the sum of its buckets' counts times their draws, and the stability gate of that resample
    /// weighs each bucket by its draw too. A person weighs the same on every day they used the
    /// menu, so a habit counts as one observation. Reach and the menu's people stay as observed.
    ///
    /// Commands whose use has no split by person (rows rolled up before buckets existed) are
    /// resampled as independent counts instead: each count is drawn from a Poisson of its size.
    ///
    /// Deterministic: the draws come from a generator seeded by the inputs, so the same inputs give
    /// the same stability.
    public func stability(current: ElementMenu, commands: [String: CommandInfo], usage: [String: UsageCount],
                          menuUsers: Int, categories: [String: CategoryInfo] = [:],
                          together: [[String]] = []) -> [LadderStep.Kind: Double]
    {
        let resample = bootstrap(current: current, commands: commands, usage: usage, menuUsers: menuUsers,
                                 categories: categories, together: together)
        return resample.stability(votes: resample.votes(rounds: 0..<resample.rounds))
    }

    /// The bootstrap of `stability(...)` prepared once, so that its rounds can be counted in parts
    /// (on several threads): `votes(rounds:)` of ranges that cover `0..<rounds` add up to the votes
    /// of all of them, bit for bit (each round draws from its own place in one seeded stream).
    public func bootstrap(current: ElementMenu, commands: [String: CommandInfo], usage: [String: UsageCount],
                          menuUsers: Int, categories: [String: CategoryInfo] = [:],
                          together: [[String]] = []) -> Bootstrap
    {
        var bootstrap = Bootstrap(recommender: self, current: current, commands: commands, categories: categories,
                                  together: together, usage: usage, ids: usage.keys.sorted(), menuUsers: menuUsers,
                                  reference: [:], seed: 0)
        bootstrap.seed = bootstrap.inputSeed()
        let observed = stepLayouts(current: current, commands: commands, usage: usage, menuUsers: menuUsers,
                                   categories: categories, together: together,
                                   gate: UsageGate(confidence: options.confidence))
        for kind in LadderStep.Kind.allCases {
            if let layout = observed.layout(kind) { bootstrap.reference[kind] = Self.topLevel(of: layout) }
        }
        return bootstrap
    }

    /// One element type's bootstrap of people (`bootstrap(current:commands:usage:...)`).
    public struct Bootstrap: Sendable {
        let recommender: Recommender
        let current: ElementMenu
        let commands: [String: CommandInfo]
        let categories: [String: CategoryInfo]
        let together: [[String]]
        let usage: [String: UsageCount]
        let ids: [String]
        let menuUsers: Int
        /// The top-level commands of each offered step from the data as observed.
        var reference: [LadderStep.Kind: [String]]
        var seed: UInt64

        /// The resamples in all (`options.bootstrapRounds`).
        public var rounds: Int { recommender.options.bootstrapRounds }

        /// Per step (in `LadderStep.Kind.allCases` order), how many of the rounds in `range` keep
        /// the step's top-level commands.
        public func votes(rounds range: Range<Int>) -> [Int] {
            var same = [Int](repeating: 0, count: LadderStep.Kind.allCases.count)
            for round in range {
                let (resampled, gate) = resample(round: round)
                let layouts = recommender.stepLayouts(current: current, commands: commands, usage: resampled,
                                                      menuUsers: menuUsers, categories: categories,
                                                      together: together, gate: gate, steps: built)
                // The reorder step only reorders inside the promote step's containers and the groups
                // around its section, so its top-level commands are promote's (checked on generated
                // menus and their resamples by `StabilityPropertyTests`).
                let promoted = Recommender.topLevel(of: layouts.promote)
                for (index, kind) in LadderStep.Kind.allCases.enumerated() {
                    guard let reference = reference[kind] else { continue }
                    let topLevel: [String]
                    switch kind {
                    case .promote, .reorder: topLevel = promoted
                    case .regroup:
                        guard let layout = layouts.regroup.layout else { continue }
                        topLevel = Recommender.topLevel(of: layout)
                    }
                    if topLevel == reference { same[index] += 1 }
                }
            }
            return same
        }

        /// Round `round`'s resampled usage and the gate that weighs each person bucket by its draw.
        /// Round r's draws: buckets first, then one per command without a split; a stream of its
        /// own (a Poisson draw by inversion takes a varying number of steps).
        func resample(round: Int) -> (usage: [String: UsageCount], gate: UsageGate) {
            let buckets = PersonBucket.count
            var generator = ResampleGenerator(seed: seed &+ UInt64(round + 1) &* 0xd1b5_4a32_d192_ed03)
            let draws = (0..<buckets).map { _ in Double(Self.poisson(&generator, mean: 1)) }
            var resampled: [String: UsageCount] = [:]
            for id in ids {
                let count = usage[id]!
                if count.people.isKnown {
                    var selections = 0.0
                    var userDays = 0.0
                    for k in 0..<buckets {
                        selections += draws[k] * count.people.selections[k]
                        userDays += draws[k] * count.people.userDays[k]
                    }
                    resampled[id] = UsageCount(selections: selections, users: count.users, userDays: userDays,
                                               people: count.people)
                } else {
                    let drawn = Double(Self.poisson(&generator, mean: max(0, count.selections)))
                    let ratio = count.selections > 0 ? drawn / count.selections : 0
                    resampled[id] = UsageCount(selections: drawn, users: count.users,
                                               userDays: max(0, count.userDays) * ratio)
                }
            }
            return (resampled, UsageGate(confidence: recommender.options.confidence, multiplicity: draws))
        }

        /// The steps a resample builds besides promote (`Recommender.stepLayouts(..., steps:)`):
        /// regroup only when the data as observed offers it (a resample's regroup step counts only
        /// against the observed one), never reorder (its top level is promote's).
        var built: Set<LadderStep.Kind> { reference[.regroup] == nil ? [] : [.regroup] }

        /// Each offered step's stability from `votes` out of all the rounds.
        public func stability(votes: [Int]) -> [LadderStep.Kind: Double] {
            var out: [LadderStep.Kind: Double] = [:]
            for (index, kind) in LadderStep.Kind.allCases.enumerated() where reference[kind] != nil {
                out[kind] = Double(votes[index]) / Double(rounds)
            }
            return out
        }

        /// A Poisson draw by inversion (small means) or the normal approximation (large ones, where
        /// it is within a fraction of a count).
        static func poisson(_ generator: inout ResampleGenerator, mean: Double) -> Int {
            guard mean > 0 else { return 0 }
            if mean > 60 {
                let u1 = max(Double(generator.next() >> 11) / Double(1 << 53), .leastNonzeroMagnitude)
                let u2 = Double(generator.next() >> 11) / Double(1 << 53)
                let normal = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
                return max(0, Int((mean + normal * mean.squareRoot()).rounded()))
            }
            let limit = exp(-mean)
            var product = 1.0
            var count = -1
            repeat {
                count += 1
                product *= Double(generator.next() >> 11) / Double(1 << 53)
            } while product > limit
            return count
        }

        /// FNV-1a over the inputs, in a fixed order.
        func inputSeed() -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            func mix(_ value: UInt64) {
                for shift in stride(from: 0, to: 64, by: 8) {
                    hash ^= (value >> UInt64(shift)) & 0xff
                    hash = hash &* 0x0000_0100_0000_01b3
                }
            }
            func mix(_ text: String) {
                for byte in text.utf8 { mix(UInt64(byte)) }
                mix(UInt64(0xff))
            }
            current.layout.commandsInOrder.forEach(mix)
            mix(UInt64(bitPattern: Int64(menuUsers)))
            for id in ids {
                let count = usage[id]!
                mix(id)
                mix(count.selections.bitPattern)
                mix(count.userDays.bitPattern)
                for value in count.people.userDays { mix(value.bitPattern) }
            }
            return hash
        }
    }

    /// What "the same top level" compares: the commands at the top level, as a set (sorted).
    /// Their order is the gate's business (a swap happens only on evidence), and submenus are
    /// left out (their titles and contents follow from the commands that are not on top); what
    /// stability measures is whether other people would put the same commands on top.
    static func topLevel(of layout: Layout) -> [String] {
        layout.groups.flatMap { group in
            group.compactMap { item in if case let .command(id) = item { id } else { nil } }
        }.sorted()
    }
}

/// A small, fast, seedable generator (Steele, Lea & Flood 2014, "Fast splittable pseudorandom
/// number generators"), so that resampling is reproducible.
struct ResampleGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
