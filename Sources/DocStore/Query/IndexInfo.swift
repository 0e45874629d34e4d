/// An index on one or several document fields, as the catalog records it.
public struct IndexInfo: Hashable, Sendable {
    /// The SQLite index's name (generated: `docstore_ix_<n>`).
    public var name: String
    /// The collection indexed.
    public var collection: String
    /// The indexed fields, in order.
    public var fields: [FieldPath]
    /// Whether two documents may not share the same values of all the fields.
    /// Documents missing a field (or holding null there) never conflict.
    public var isUnique: Bool

    public init(name: String, collection: String, fields: [FieldPath], isUnique: Bool) {
        self.name = name
        self.collection = collection
        self.fields = fields
        self.isUnique = isUnique
    }
}

extension IndexInfo: CustomStringConvertible {
    /// `unique index docstore_ix_1 on players (teamId, number)`.
    public var description: String {
        "\(isUnique ? "unique " : "")index \(name) on \(DocumentKey.quoted(collection)) (\(fields.map(\.description).joined(separator: ", ")))"
    }
}
