/// The known name a misspelt one most likely meant, for "did you mean ...?" in manifest errors
/// (`destrutive` -> `destructive`, `preveiw` -> `preview`, `selectall` -> `select_all`).
///
/// Distance is the optimal string alignment distance between the lowercased names, counted in
/// characters: an insertion, a deletion, a substitution or a swap of two neighbours each cost 1, so a
/// dropped letter and two swapped letters are one edit. A name is close when it is at most 1 edit away
/// from a known name of up to 4 characters (`keep`, `role`), at most 2 from a longer one, and fewer
/// edits away than that name is long (nothing is suggested for `x`). Of several close names the
/// nearest wins, then the first in `candidates`' order.
enum NearestName {
    static func nearest(to name: String, among candidates: [String]) -> String? {
        let target = Array(name.lowercased())
        var best: (name: String, distance: Int)? = nil
        for candidate in candidates {
            let known = Array(candidate.lowercased())
            let allowed = min(known.count <= 4 ? 1 : 2, known.count - 1)
            let d = distance(target, known)
            guard d <= allowed else { continue }
            if best == nil || d < best!.distance { best = (candidate, d) }
        }
        return best?.name
    }

    /// Optimal string alignment distance (Levenshtein plus adjacent swaps).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Three rows: the one before the previous (for swaps), the previous, the current.
        var older = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, older[j - 2] + 1)
                }
                current[j] = value
            }
            (older, previous, current) = (previous, current, older)
        }
        return previous[b.count]
    }
}
