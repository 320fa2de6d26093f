import Foundation
import MenurankClient

/// Generates synthetic telemetry, batch by batch. Pure and deterministic: batch `i` depends only on
/// the profile, the configuration and `i`, so batches can be made on any thread in any order.
///
/// The model: people (a few heavy users, many light ones, Zipf-like) open menus in sessions of a few
/// picks each; a session starts on one of the past `days` (weekends quieter) at an hour drawn from a
/// daily curve (busy afternoons, quiet nights). Each element type has its own Zipf popularity over
/// its commands, roughly but not exactly following the menu's order (so a better order exists), a
/// dismissal rate of a few percent, and a latency that grows with the picked item's position.
public struct SimulationGenerator: Sendable {
    public let profile: SimulationProfile
    public let configuration: SimulationConfiguration

    private let elementChoice: SimulationWeightedChoice
    private let itemChoices: [SimulationWeightedChoice]
    /// For each element type, the popularity rank (0 = most used) of each menu item.
    public let popularityRanks: [[Int]]
    public let dismissalRates: [Double]
    /// For each element type in a rollout, whether each user is in its new arm (the device rule,
    /// `RolloutArm`, over the user's name), computed once.
    private let rolloutArms: [[Bool]?]
    private let userChoice: SimulationWeightedChoice
    private let dayChoice: SimulationWeightedChoice
    private let hourChoice: SimulationWeightedChoice
    private let contextChoice: SimulationWeightedChoice
    private let today: Int64
    /// Seeds the event stream: the seed, the clock and everything else that shapes the events, so
    /// the same command line at the same `--now` repeats itself, while another run (a later clock,
    /// another manifest, more users) makes new events with new ids. Popularity and user names
    /// depend on the seed alone, so they stay the same from run to run.
    public let streamSeed: UInt64

    /// Mean picks per session and mean pause between two picks of a session.
    public static let meanSessionLength = 6.0
    public static let meanPauseMillis = 45_000.0

    public init(profile: SimulationProfile, configuration: SimulationConfiguration) {
        precondition(!profile.elementTypes.isEmpty && configuration.users > 0 && configuration.days > 0
                     && configuration.batchSize > 0)
        self.profile = profile
        self.configuration = configuration
        var random = SimulationRandom(seed: configuration.seed, stream: 0xF0F0_F0F0)
        var shape = SimulationGenerator.fingerprint(profile)
        for value in [UInt64(bitPattern: configuration.nowMillis), UInt64(configuration.users), UInt64(configuration.days),
                      UInt64(configuration.batchSize), configuration.zipfExponent.bitPattern] {
            shape = SimulationRandom.mix(shape ^ value)
        }
        streamSeed = SimulationRandom.mix(configuration.seed ^ shape)

        elementChoice = SimulationWeightedChoice(weights: (0..<profile.elementTypes.count).map { 1 / pow(Double($0 + 1), 0.8) })
        var ranks: [[Int]] = []
        var choices: [SimulationWeightedChoice] = []
        var rates: [Double] = []
        for element in profile.elementTypes {
            // Noisy keys around the menu order: the shown order is a decent but imperfect guess.
            let spread = max(1.0, Double(element.items.count) * 0.35)
            let keys = element.items.indices.map { Double($0) + spread * random.nextGaussian() }
            let byPopularity = element.items.indices.sorted { keys[$0] < keys[$1] }
            var rank = [Int](repeating: 0, count: element.items.count)
            for (r, item) in byPopularity.enumerated() { rank[item] = r }
            ranks.append(rank)
            choices.append(SimulationWeightedChoice(weights: rank.map { 1 / pow(Double($0 + 1), configuration.zipfExponent) }))
            rates.append(0.015 + 0.035 * random.nextUnit())
        }
        popularityRanks = ranks
        itemChoices = choices
        dismissalRates = rates
        userChoice = SimulationWeightedChoice.zipf(count: configuration.users, exponent: 0.7)
        let names = profile.elementTypes.contains { $0.rollout != nil }
            ? (0..<configuration.users).map { SimulationGenerator.userName($0, seed: configuration.seed) } : []
        rolloutArms = profile.elementTypes.map { element in
            element.rollout.map { rollout in names.map { RolloutArm.showsRollout(salt: rollout.salt, user: $0, share: rollout.share) } }
        }

        let today = SimulationTimestamp.day(ofMillis: configuration.nowMillis)
        self.today = today
        let elapsedToday = Double(configuration.nowMillis - today * SimulationTimestamp.millisPerDay)
            / Double(SimulationTimestamp.millisPerDay)
        dayChoice = SimulationWeightedChoice(weights: (0..<configuration.days).map { back in
            let weekday = SimulationTimestamp.weekday(ofDay: today - Int64(back))
            let weekly = weekday >= 5 ? 0.55 : 1.0
            return back == 0 ? weekly * max(elapsedToday, 0.01) : weekly
        })
        hourChoice = SimulationWeightedChoice(weights: (0..<24).map { hour in
            let d = Double(hour) - 14
            return 0.08 + exp(-d * d / 32)
        })
        contextChoice = SimulationWeightedChoice(weights: SimulationContext.weights)
    }

    public var batchCount: Int { configuration.batchCount }

    /// FNV-1a over the profile's names, in order.
    public static func fingerprint(_ profile: SimulationProfile) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func add(_ text: String) {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            hash = (hash ^ 0xFF) &* 0x0000_0100_0000_01B3
        }
        add(profile.app)
        add(profile.menuVersion)
        for element in profile.elementTypes {
            add(element.name)
            for item in element.items { add(item.command) }
            // A layout shown instead of the manifest's (`showing(_:)`) makes other events.
            if let version = element.menuVersion {
                add(version)
                for item in element.items { add("\(item.position) \(item.inSubmenu) \(item.shown)") }
            }
            if let rollout = element.rollout {
                add("\(rollout.salt) \(rollout.share) \(rollout.menuVersion)")
                for item in rollout.items { add("\(item.position) \(item.inSubmenu) \(item.shown)") }
            }
        }
        return hash
    }

    /// A stable 16-hex-digit user id for user index `user`.
    public func userName(_ user: Int) -> String {
        Self.userName(user, seed: configuration.seed)
    }

    static func userName(_ user: Int, seed: UInt64) -> String {
        hex(SimulationRandom.mix(seed &+ 0x5EED_0000_0000 &+ UInt64(user)), digits: 16)
    }

    /// `s-` and 12 hex digits.
    public static func sessionName(_ session: UInt64) -> String {
        "s-" + hex(session, digits: 12)
    }

    public static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        let padded = String(repeating: "0", count: max(0, 16 - text.count)) + text
        return String(padded.suffix(digits))
    }

    public func batch(_ index: Int) -> SimulationBatch {
        var random = SimulationRandom(seed: streamSeed, stream: UInt64(index) &+ 1)
        let count = configuration.eventCount(ofBatch: index)
        let context = contextChoice.pick(&random)
        let touch = SimulationContext.all[context].isTouch
        var events: [SimulationEvent] = []
        events.reserveCapacity(count)
        var sessionNumber: UInt64 = 0
        while events.count < count {
            sessionNumber += 1
            let session = SimulationRandom.mix(streamSeed ^ (UInt64(index) << 20) ^ sessionNumber)
            let user = userChoice.pick(&random)
            let trigger = touch ? 1 : (random.chance(0.1) ? 2 : 0)
            var time = sessionStart(&random)
            let length = min(random.nextGeometric(mean: SimulationGenerator.meanSessionLength), 40)
            for _ in 0..<length where events.count < count && time <= configuration.nowMillis {
                events.append(event(at: time, user: user, session: session, trigger: trigger, random: &random))
                let pause = -SimulationGenerator.meanPauseMillis * log(max(random.nextUnit(), 1e-12))
                time += Int64(1000 + pause)
            }
        }
        return SimulationBatch(index: index, context: context, events: events)
    }

    /// Batch `index` as live traffic for the raw sender: the same events (people, sessions,
    /// commands, latencies), each stamped as sent at `nowMillis` with a new UUIDv7 id, as an app
    /// recording them now would. The ids' random bits come from the batch, the seed and the clock,
    /// so every batch of every run has ids of its own, in time order across batches.
    public func liveBatch(_ index: Int, nowMillis: Int64) -> SimulationBatch {
        var batch = self.batch(index)
        let clock = SimulationRandom.mix(UInt64(bitPattern: nowMillis) ^ 0x6C69_7665)
        var random = SimulationRandom(seed: streamSeed ^ clock, stream: UInt64(index) &+ 1)
        for position in batch.events.indices {
            batch.events[position].timeMillis = nowMillis
            batch.events[position].id = SimulationUUID(millis: nowMillis, random: &random)
        }
        return batch
    }

    private func sessionStart(_ random: inout SimulationRandom) -> Int64 {
        for _ in 0..<16 {
            let back = Int64(dayChoice.pick(&random))
            let hour = Int64(hourChoice.pick(&random))
            let withinHour = Int64(random.nextInt(below: 3_600_000))
            let time = (today - back) * SimulationTimestamp.millisPerDay + hour * 3_600_000 + withinHour
            if time <= configuration.nowMillis { return time }
        }
        return configuration.nowMillis - Int64(random.nextInt(below: 3_600_000))
    }

    private func event(at time: Int64, user: Int, session: UInt64, trigger: Int,
                       random: inout SimulationRandom) -> SimulationEvent {
        let element = elementChoice.pick(&random)
        let id = SimulationUUID(millis: time, random: &random)
        let noise = exp(0.35 * random.nextGaussian())
        let inRollout = rolloutArms[element]?[user] ?? false
        let items = inRollout ? profile.elementTypes[element].rollout!.items : profile.elementTypes[element].items
        if random.chance(dismissalRates[element]) {
            let latency = (1500 + 2500 * random.nextUnit()) * noise
            return SimulationEvent(id: id, timeMillis: time, elementType: element, item: nil,
                                   latencyMs: SimulationGenerator.clampLatency(latency), user: user,
                                   session: session, trigger: trigger, inRollout: inRollout)
        }
        let item = itemChoices[element].pick(&random)
        let shown = items[item]
        let model = configuration.latency
        guard shown.shown else {
            // The wanted command is not in the menu: the person scans all of it and gives up.
            let rows = items.filter(\.shown).map { $0.position + 1 }.max() ?? 1
            let latency = (model.baseMillis + model.perItemMillis * Double(rows)) * noise
            return SimulationEvent(id: id, timeMillis: time, elementType: element, item: nil,
                                   latencyMs: SimulationGenerator.clampLatency(latency), user: user,
                                   session: session, trigger: trigger, inRollout: inRollout)
        }
        let latency = (model.baseMillis + model.perItemMillis * Double(shown.position)
            + (shown.inSubmenu ? model.submenuMillis : 0)) * noise
        return SimulationEvent(id: id, timeMillis: time, elementType: element, item: item,
                               latencyMs: SimulationGenerator.clampLatency(latency), user: user,
                               session: session, trigger: trigger, inRollout: inRollout)
    }

    private static func clampLatency(_ value: Double) -> Int {
        Int(min(max(value, 120), 30_000))
    }
}
