import Foundation

/// Picks an index with probability proportional to its weight (cumulative table, binary search).
struct SimulationWeightedChoice: Sendable {
    private let cumulative: [Double]

    init(weights: [Double]) {
        precondition(!weights.isEmpty, "a weighted choice needs at least one weight")
        var running = 0.0
        var table: [Double] = []
        table.reserveCapacity(weights.count)
        for weight in weights {
            running += max(weight, 0)
            table.append(running)
        }
        precondition(running > 0, "a weighted choice needs a positive weight")
        cumulative = table.map { $0 / running }
    }

    /// Zipf weights 1/rank^exponent for ranks 1...count.
    static func zipf(count: Int, exponent: Double) -> SimulationWeightedChoice {
        SimulationWeightedChoice(weights: (1...max(count, 1)).map { 1 / pow(Double($0), exponent) })
    }

    var count: Int { cumulative.count }

    /// The probability of index `i`.
    func probability(of i: Int) -> Double {
        cumulative[i] - (i == 0 ? 0 : cumulative[i - 1])
    }

    func pick(_ random: inout SimulationRandom) -> Int {
        let u = random.nextUnit()
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let mid = (low + high) / 2
            if cumulative[mid] > u { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
