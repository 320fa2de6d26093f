/// "Did you mean" suggestions for mistyped names.
public enum Suggestion {
    /// The candidate closest to `typed`, when it is close enough to be a likely typo: at most one edit
    /// (insertion, deletion, substitution or swap of neighbours) per three characters, at least one, or
    /// `typed` is the start of exactly one candidate and at least three characters long.
    public static func closest(to typed: String, among candidates: [String]) -> String? {
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != typed {
            let distance = editDistance(typed, candidate)
            if distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        if let best, best.distance <= max(1, best.candidate.count / 3) { return best.candidate }
        let prefixed = candidates.filter { typed.count >= 3 && $0.hasPrefix(typed) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// The optimal-string-alignment distance between `a` and `b`: insertions, deletions,
    /// substitutions and swaps of neighbouring characters each cost one.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], twoBack[j - 2] + 1)
                }
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }
}
