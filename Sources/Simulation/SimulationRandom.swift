import Foundation

/// A small, fast, seeded pseudo-random generator (xoshiro256**, seeded through SplitMix64).
/// The simulation never uses the system generator, so one seed always yields the same telemetry.
struct SimulationRandom: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    init(seed: UInt64) {
        var sm = seed
        s0 = SimulationRandom.splitMix(&sm)
        s1 = SimulationRandom.splitMix(&sm)
        s2 = SimulationRandom.splitMix(&sm)
        s3 = SimulationRandom.splitMix(&sm)
    }

    /// A generator for one independent stream (a batch, a table) derived from a seed and an index,
    /// so streams can be produced in any order, on any thread, and still be the same.
    init(seed: UInt64, stream: UInt64) {
        var sm = seed ^ (stream &* 0xD1B5_4A32_D192_ED03)
        self.init(seed: SimulationRandom.splitMix(&sm))
    }

    static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A stateless 64-bit mix of one value (used to derive stable ids such as user names).
    static func mix(_ value: UInt64) -> UInt64 {
        var state = value
        return splitMix(&state)
    }

    mutating func next() -> UInt64 {
        let result = ((s1 &* 5) <<< 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 <<< 45
        return result
    }

    /// A uniform double in [0, 1).
    mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform integer in 0..<bound.
    mutating func nextInt(below bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next(upperBound: UInt64(bound)))
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { nextUnit() < p }

    /// A standard normal deviate (Box-Muller; one value per call keeps the stream simple).
    mutating func nextGaussian() -> Double {
        let u1 = max(nextUnit(), 0x1.0p-53)
        let u2 = nextUnit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A geometric count >= 1 with the given mean.
    mutating func nextGeometric(mean: Double) -> Int {
        let p = 1 / max(mean, 1)
        let u = max(nextUnit(), 0x1.0p-53)
        return 1 + Int(log(u) / log(1 - min(p, 0.999_999)))
    }
}

infix operator <<< : BitwiseShiftPrecedence

private func <<< (value: UInt64, amount: UInt64) -> UInt64 {
    (value << amount) | (value >> (64 - amount))
}
