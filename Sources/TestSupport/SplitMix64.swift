/// The one seeded pseudo-random generator of the tests (SplitMix64, Steele, Lea & Flood 2014):
/// small, fast and the same on every run and machine, so a generated case or a fuzz input that
/// fails can be replayed from its seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// In `0..<bound` (modulo bias is irrelevant for test data).
    public mutating func next(upTo bound: UInt64) -> UInt64 { next() % bound }

    /// Uniform in the range (modulo bias is irrelevant for test data).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    public mutating func chance(_ probability: Double) -> Bool { unit() < probability }
}
