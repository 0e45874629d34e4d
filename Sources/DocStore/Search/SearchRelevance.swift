import Foundation

/// An order by relevance to a search text: how well a field's words match it,
/// scored by SQLite FTS5's `bm25` (term frequency against how rare each term is
/// among the collection's documents, for the document's length). Best first;
/// documents that don't match the whole text come last, in key order.
///
///     DocumentQuery(.matches(FieldPath("text"), "home run"),
///                   relevance: SearchRelevance(field: FieldPath("text"), text: "home run"))
///
/// Needs a search index covering the field. For an index on several fields the
/// document's length counts all of them; the in-memory evaluator counts the
/// field's alone, which is the same for an index on one field.
public struct SearchRelevance: Hashable, Sendable {
    /// The field searched.
    public var field: FieldPath
    /// The search text (see ``Condition/matches(_:_:)`` for its meaning).
    public var text: String

    /// Relevance of `field` to `text`.
    public init(field: FieldPath, text: String) {
        self.field = field
        self.text = text
    }
}

extension SearchRelevance {
    /// bm25's parameters, as SQLite's FTS5 sets them.
    private static let k1 = 1.2
    private static let b = 0.75

    /// Each document's bm25 score (lower is better, as SQLite returns it), or nil
    /// when it doesn't match the text: the in-memory twin of the search index's
    /// ranking, over these documents as the whole collection.
    func scores(of documents: [JSONValue]) -> [Double?] {
        guard let search = try? SearchText(parsing: text) else { return documents.map { _ in nil } }
        let words = documents.map { document -> [String] in
            guard case .string(let text)? = document.value(at: field) else { return [] }
            return SearchTokenizer.words(in: text)
        }
        // Per document, how often each term occurs.
        let frequencies = words.map { words in search.terms.map { SearchText.occurrences(of: $0, in: words) } }
        let rowCount = Double(documents.count)
        let averageLength = Double(words.reduce(0) { $0 + $1.count }) / rowCount
        let inverseFrequencies = search.terms.indices.map { term in
            let hits = Double(frequencies.filter { $0[term] > 0 }.count)
            let idf = log((rowCount - hits + 0.5) / (hits + 0.5))
            return idf <= 0 ? 1e-6 : idf
        }
        return zip(words, frequencies).map { words, frequency in
            guard frequency.allSatisfy({ $0 > 0 }) else { return nil }
            let length = Double(words.count)
            var score = 0.0
            for term in search.terms.indices {
                let f = Double(frequency[term])
                // Grouped as SQLite's C code groups it, so the doubles come out identical.
                score += inverseFrequencies[term] * ((f * (Self.k1 + 1)) / (f + Self.k1 * (1 - Self.b + Self.b * length / averageLength)))
            }
            return -1 * score
        }
    }
}
