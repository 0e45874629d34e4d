import DocStore

/// What the parser and the completer know about the store: its collections and
/// the fields seen in a sample of each one's documents. The parser uses it to
/// suggest names for typos and to tell an array's `contains` from a string's.
public protocol SchemaProvider {
    /// The collections in the store.
    func collectionNames() -> [String]
    /// The field paths seen in sampled documents of `collection`, with the JSON
    /// types seen at each (`JSONValue.typeName`, `true`/`false` as `boolean`).
    func fieldTypes(in collection: String) -> [FieldPath: Set<String>]
}

/// A fixed schema: for tests, and for parsing without a store.
public struct StaticSchema: SchemaProvider, Sendable {
    public var collections: [String: [FieldPath: Set<String>]]

    public init(_ collections: [String: [FieldPath: Set<String>]] = [:]) {
        self.collections = collections
    }

    public func collectionNames() -> [String] { collections.keys.sorted() }
    public func fieldTypes(in collection: String) -> [FieldPath: Set<String>] { collections[collection] ?? [:] }
}

/// Closest-name suggestions for typos, by edit distance.
enum NameSuggestion {
    /// The candidate closest to `name`, if it is close enough to be a likely typo
    /// (at most a third of the name's length in edits, and at least one).
    static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
        let limit = max(1, name.count / 3)
        var best: (String, Int)?
        for candidate in candidates where candidate != name {
            // Case-only differences are the likeliest typo of all.
            let distance = candidate.lowercased() == name.lowercased() ? 0 : editDistance(name, candidate, limit: limit)
            if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Edit distance counting a swap of neighbours as one edit (optimal string
    /// alignment: `cuont` is one edit from `count`), giving up (returning
    /// `limit + 1`) once it exceeds `limit`, so a 10 kB name costs little.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a), b = Array(b)
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
