public import Menus

extension Recommender {
    /// Day-bootstrap stability of the proposal for a window (DESIGN.md, invariant 6): the share of
    /// `options.bootstrapRounds` resamples of the window's days, drawn with replacement, whose
    /// proposal has the same top level (the same items on it, `topLevel(of:)`) as the proposal
    /// from the whole window.
    ///
    /// - Parameters:
    ///   - days: one dictionary per day of the window: that day's selections and user-days per
    ///     command; `users` is the window's reach and stays fixed across resamples (the largest value
    ///     seen for a command is used).
    ///   - menuUsers: distinct people who used the menu in the window (fixed across resamples).
    /// - Returns: a share in 0...1; 1 for a window without days.
    ///
    /// Deterministic: the resampling generator is seeded from the inputs, so the same inputs give
    /// the same stability.
    public func stability(current: ElementMenu, commands: [String: CommandInfo], days: [[String: UsageCount]],
                          menuUsers: Int, categories: [String: CategoryInfo] = [:]) -> Double
    {
        let resample = bootstrap(current: current, commands: commands, days: days, menuUsers: menuUsers,
                                 categories: categories)
        return resample.stability(votes: resample.votes(rounds: 0..<resample.rounds))
    }

    /// The day-bootstrap of `stability(current:commands:days:menuUsers:categories:)` prepared once,
    /// so that its rounds can be counted in parts (on several threads, when few element types
    /// need it): `votes(rounds:)` of ranges that cover `0..<rounds` add up to the votes of all of
    /// them, and `stability(votes:)` of that sum is `stability(...)`, bit for bit (each round
    /// draws its days from its own place in one seeded stream).
    public func bootstrap(current: ElementMenu, commands: [String: CommandInfo], days: [[String: UsageCount]],
                          menuUsers: Int, categories: [String: CategoryInfo] = [:]) -> Bootstrap
    {
        var reach: [String: Int] = [:]
        for day in days {
            for (id, count) in day { reach[id] = max(reach[id] ?? 0, count.users) }
        }
        let ids = reach.keys.sorted()
        let users = ids.map { reach[$0]! }
        // Each command's counts by day, negative ones as 0 and a day without a row as 0 (adding 0
        // to a sum of non-negative numbers leaves it as it is, bit for bit): a resample sums
        // arrays instead of hashing every command's name on every day it draws.
        let dayCount = days.count
        var daySelections = [Double](repeating: 0, count: ids.count * dayCount)
        var dayUserDays = [Double](repeating: 0, count: ids.count * dayCount)
        for (index, id) in ids.enumerated() {
            for (slot, day) in days.enumerated() {
                guard let count = day[id] else { continue }
                daySelections[index * dayCount + slot] = max(0, count.selections)
                dayUserDays[index * dayCount + slot] = max(0, count.userDays)
            }
        }
        var bootstrap = Bootstrap(recommender: self, current: current, commands: commands, categories: categories, ids: ids,
                                  users: users, daySelections: daySelections, dayUserDays: dayUserDays, dayCount: dayCount,
                                  menuUsers: menuUsers, reference: [],
                                  seed: Self.seed(current: current, days: days, ids: ids, menuUsers: menuUsers))
        // Without days there is nothing to resample (`votes` counts every round as kept).
        if dayCount > 0 { bootstrap.reference = Self.topLevel(of: bootstrap.arrangement(picks: Array(days.indices)).layout) }
        return bootstrap
    }

    /// One element type's day-bootstrap (`bootstrap(current:commands:days:menuUsers:categories:)`).
    public struct Bootstrap: Sendable {
        let recommender: Recommender
        let current: ElementMenu
        let commands: [String: CommandInfo]
        let categories: [String: CategoryInfo]
        let ids: [String]
        let users: [Int]
        let daySelections: [Double]
        let dayUserDays: [Double]
        let dayCount: Int
        let menuUsers: Int
        /// The top level of the whole window's proposal.
        var reference: [String]
        let seed: UInt64

        /// The resamples in all (`options.bootstrapRounds`).
        public var rounds: Int { recommender.options.bootstrapRounds }

        /// How many of the rounds in `range` keep the whole window's top level. Round `r` draws
        /// its `dayCount` days as the draws `r * dayCount ..< (r + 1) * dayCount` of the stream.
        public func votes(rounds range: Range<Int>) -> Int {
            guard dayCount > 0 else { return range.count }
            var generator = ResampleGenerator(seed: seed, skipping: range.lowerBound * dayCount)
            var same = 0
            var picks = [Int](repeating: 0, count: dayCount)
            for _ in range {
                for slot in 0..<dayCount { picks[slot] = Int(generator.next() % UInt64(dayCount)) }
                if Recommender.topLevel(of: arrangement(picks: picks).layout) == reference { same += 1 }
            }
            return same
        }

        /// The stability of `votes` out of all the rounds (1 for a window without days).
        public func stability(votes: Int) -> Double {
            dayCount == 0 ? 1 : Double(votes) / Double(rounds)
        }

        /// The recommender's arrangement of the days `picks` summed.
        func arrangement(picks: [Int]) -> Arrangement {
            var usage: [String: UsageCount] = [:]
            for (index, id) in ids.enumerated() {
                let base = index * dayCount
                var selections = 0.0
                var userDays = 0.0
                for day in picks {
                    selections += daySelections[base + day]
                    userDays += dayUserDays[base + day]
                }
                usage[id] = UsageCount(selections: selections, users: users[index], userDays: userDays)
            }
            return recommender.arrangement(current: current, commands: commands, usage: usage, menuUsers: menuUsers,
                                           categories: categories)
        }
    }

    /// What "the same top level" compares: the items at the top level, a command by its id and a
    /// submenu by its title (what it holds may differ), as a set. Their order is the stability
    /// gate's business (a swap happens only on evidence); what stability measures is whether the
    /// window's days agree on what is at the top level.
    static func topLevel(of layout: Layout) -> [String] {
        layout.groups.flatMap { group in
            group.map { item in
                switch item {
                case let .command(id): "c:" + id
                case let .submenu(submenu): "s:" + submenu.title
                }
            }
        }.sorted()
    }

    /// FNV-1a over the inputs, in a fixed order.
    private static func seed(current: ElementMenu, days: [[String: UsageCount]], ids: [String], menuUsers: Int) -> UInt64 {
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
        mix(UInt64(days.count))
        for day in days {
            for id in ids {
                guard let count = day[id] else { continue }
                mix(id)
                mix(count.selections.bitPattern)
                mix(count.userDays.bitPattern)
            }
        }
        return hash
    }
}

/// A small, fast, seedable generator (Steele, Lea & Flood 2014, "Fast splittable pseudorandom
/// number generators"), so that resampling is reproducible.
struct ResampleGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// The stream of `seed` with its first `skipping` draws passed over (each draw adds one step
    /// to the state, so the place is reached at once).
    init(seed: UInt64, skipping draws: Int) { state = seed &+ UInt64(draws) &* 0x9e37_79b9_7f4a_7c15 }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
