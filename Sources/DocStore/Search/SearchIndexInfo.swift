/// A full-text search index on some string fields of a collection, as the catalog
/// records it: an SQLite FTS5 table kept in sync with the collection by triggers.
public struct SearchIndexInfo: Hashable, Sendable {
    /// The FTS5 table's name (generated: `docstore_search_<n>`).
    public var name: String
    /// The collection indexed.
    public var collection: String
    /// The fields searched, in order. Only string values are indexed; other
    /// values (numbers, arrays, objects) and missing fields are not searchable.
    public var fields: [FieldPath]

    public init(name: String, collection: String, fields: [FieldPath]) {
        self.name = name
        self.collection = collection
        self.fields = fields
    }

    /// The FTS5 column holding `field`, if the index covers it: `c0`, `c1`…
    func column(of field: FieldPath) -> String? {
        fields.firstIndex(of: field).map { "c\($0)" }
    }
}

extension SearchIndexInfo: CustomStringConvertible {
    /// `search index docstore_search_1 on notes (text, title)`.
    public var description: String {
        "search index \(name) on \(DocumentKey.quoted(collection)) (\(fields.map(\.description).joined(separator: ", ")))"
    }
}
