/// Field columns of a collection, as the catalog records them: a table beside the
/// collection's that holds, per document, each chosen field's JSON type and value
/// as plain SQL columns, kept in step with the documents by triggers.
///
/// Queries read a field from its column instead of parsing every document's JSON
/// text, which is most of the time a scan takes on SQLite 3.40 (a filtered count
/// of Lahman's 108 789 Batting rows: about 60 ms reading the JSON, 4 ms the column).
/// Each field costs about what an index on it costs on every write.
public struct FieldColumnsInfo: Hashable, Sendable {
    /// The table holding the columns (generated: `docstore_columns_<n>`).
    public var name: String
    /// The collection whose fields it holds.
    public var collection: String
    /// The fields, in column order.
    public var fields: [FieldPath]

    public init(name: String, collection: String, fields: [FieldPath]) {
        self.name = name
        self.collection = collection
        self.fields = fields
    }

    /// The column position of `field`, if it has a column.
    func position(of field: FieldPath) -> Int? {
        fields.firstIndex(of: field)
    }
}

extension FieldColumnsInfo: CustomStringConvertible {
    /// `field columns docstore_columns_1 on batting (HR, playerID)`.
    public var description: String {
        "field columns \(name) on \(DocumentKey.quoted(collection)) (\(fields.map(\.description).joined(separator: ", ")))"
    }
}
