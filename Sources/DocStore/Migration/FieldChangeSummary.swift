/// What one field change of a migration did: how many documents it rewrote, and
/// what became of the indexes on the fields it moved or removed.
public struct FieldChangeSummary: Sendable, Hashable {
    /// The collection changed.
    public var collection: String
    /// The change, in words: `rename nickName to nickname`.
    public var change: String
    /// How many documents were rewritten.
    public var documentsChanged: Int
    /// Indexes that followed a renamed field, as they are now (same name, new fields).
    public var movedIndexes: [IndexInfo] = []
    /// Indexes dropped because they were on a removed field, or because an index
    /// on the renamed field's new path existed already.
    public var droppedIndexes: [IndexInfo] = []
    /// Search indexes that followed the change (made again on the fields as
    /// they are now), and those dropped with a removed field.
    public var movedSearchIndexes: [SearchIndexInfo] = []
    public var droppedSearchIndexes: [SearchIndexInfo] = []
}

extension FieldChangeSummary: CustomStringConvertible {
    /// `players: rename nickName to nickname: 3 documents; index docstore_ix_1 now on (nickname)`.
    public var description: String {
        var text = "\(DocumentKey.quoted(collection)): \(change): \(CountText.plural(documentsChanged, "document"))"
        for index in movedIndexes {
            text += "; index \(index.name) now on (\(index.fields.map(\.description).joined(separator: ", ")))"
        }
        for index in droppedIndexes {
            text += "; dropped index \(index.name) on (\(index.fields.map(\.description).joined(separator: ", ")))"
        }
        for index in droppedSearchIndexes {
            text += "; dropped search index \(index.name) on (\(index.fields.map(\.description).joined(separator: ", ")))"
        }
        for index in movedSearchIndexes {
            text += "; search index \(index.name) now on (\(index.fields.map(\.description).joined(separator: ", ")))"
        }
        return text
    }
}
