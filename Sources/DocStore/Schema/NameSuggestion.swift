/// Closest-name suggestions for typos, by edit distance.
///
/// Linear in the names' lengths: at most ``maximumEdits`` edits are looked
/// for, and only the cells of the distance table within that many of its
/// diagonal are computed (a band), so a 70 000-character name beside a
/// 70 000-character collection name costs a few million steps, not billions.
package enum NameSuggestion {
    /// More edits than this make a different name, not a typo, however long.
    package static let maximumEdits = 8

    /// The candidate closest to `name`, if it is close enough to be a likely typo
    /// (at most a third of the name's length in edits, at least one, and at most
    /// ``maximumEdits``).
    package static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
        let limit = min(maximumEdits, max(1, name.count / 3))
        let lowercased = name.lowercased()
        let characters = Array(name)
        var best: (String, Int)?
        for candidate in candidates where candidate != name {
            // Case-only differences are the likeliest typo of all.
            let distance = candidate.lowercased() == lowercased ? 0 : editDistance(characters, Array(candidate), limit: limit)
            if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Edit distance counting a swap of neighbours as one edit (optimal string
    /// alignment: `cuont` is one edit from `count`), or `limit + 1` when it is
    /// more than `limit`.
    package static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        editDistance(Array(a), Array(b), limit: limit)
    }

    /// The banded computation: a cell further than `limit` from the diagonal
    /// (|i - j| > limit) is more than `limit` edits away, so it is never
    /// computed and counts as `limit + 1`. Rows are `2 * limit + 3` cells wide.
    package static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        let over = limit + 1
        if abs(a.count - b.count) > limit { return over }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        // Row i holds columns j in i - limit - 1 ... i + limit + 1, at offset
        // j - i + limit + 1; cells outside the table or the band hold `over`.
        let width = 2 * limit + 3
        func offset(_ i: Int, _ j: Int) -> Int { j - i + limit + 1 }
        var beforePrevious = [Int](repeating: over, count: width)
        var previous = [Int](repeating: over, count: width)
        var current = [Int](repeating: over, count: width)
        for j in 0...min(b.count, limit) { previous[offset(0, j)] = j }
        for i in 1...a.count {
            for k in 0..<width { current[k] = over }
            if i <= limit { current[offset(i, 0)] = i }
            var rowMinimum = i <= limit ? i : over
            for j in max(1, i - limit)...min(b.count, i + limit) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                // previous row: (i-1, j) is one further right in its row; (i-1, j-1) is at the same offset.
                var value = min(previous[offset(i - 1, j)] + 1, current[offset(i, j - 1)] + 1, previous[offset(i - 1, j - 1)] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, beforePrevious[offset(i - 2, j - 2)] + 1)
                }
                current[offset(i, j)] = min(value, over)
                rowMinimum = min(rowMinimum, current[offset(i, j)])
            }
            if rowMinimum > limit { return over }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return min(previous[offset(a.count, b.count)], over)
    }
}
