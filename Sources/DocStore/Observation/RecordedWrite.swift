/// What one write did to one document, as the write path that made it records it
/// for change observation (see ``ChangeTracker``).
struct RecordedWrite: Sendable {
    enum Kind: Sendable {
        case insert, update, delete
    }

    /// A document's stored JSON on one side of the write.
    enum Body: Equatable, Sendable {
        /// There was (or is) no document.
        case absent
        /// The stored JSON text.
        case stored([UInt8])
        /// The write path doesn't know (an update by query doesn't read the old
        /// documents).
        case unknown
    }

    var collection: String
    var kind: Kind
    var key: DocumentKey
    var old: Body
    var new: Body
    /// The fields an update by query changed, when that is all it changed: the
    /// rest of each document is as it was.
    var changedPaths: [FieldPath]?

    static func inserted(_ key: DocumentKey, _ body: [UInt8], in collection: String) -> RecordedWrite {
        RecordedWrite(collection: collection, kind: .insert, key: key, old: .absent, new: .stored(body))
    }

    static func deleted(_ key: DocumentKey, _ body: Body, in collection: String) -> RecordedWrite {
        RecordedWrite(collection: collection, kind: .delete, key: key, old: body, new: .absent)
    }
}

/// The writes of one committed transaction, in the order they were made.
struct CommittedWrites: Sendable {
    var writes: [RecordedWrite]
    /// Set when any document of the store may have changed without being recorded:
    /// another process committed (seen by polling), or an observer began inside
    /// the transaction, after some of its writes.
    var mayHaveChangedAnything = false

    /// Whether anything at all may have happened to `collection`.
    func touches(_ collection: String) -> Bool {
        mayHaveChangedAnything || writes.contains { $0.collection == collection }
    }
}
