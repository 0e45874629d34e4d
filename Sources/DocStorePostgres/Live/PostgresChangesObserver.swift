@_spi(Backends) import DocStore

/// Feeds one ``PostgresCollection/changes()`` stream: each commit's writes to
/// the collection, netted per key as on SQLite.
final class PostgresChangesObserver<Model: Sendable>: PostgresStoreObserver {
    let collection: String
    let continuation: AsyncThrowingStream<CollectionChanges<Model>, any Error>.Continuation

    init(collection: String, continuation: AsyncThrowingStream<CollectionChanges<Model>, any Error>.Continuation) {
        self.collection = collection
        self.continuation = continuation
    }

    func storeDidCommit(_ commit: PostgresCommit) {
        guard commit.touches(collection) else { return }
        let changes = Self.netChanges(commit, in: collection)
        if !changes.isEmpty { continuation.yield(changes) }
    }

    func storeDidClose() {
        continuation.finish(throwing: PostgresStoreError.closed)
    }

    /// The net change of a commit to `collection`: per key, whether it existed
    /// before the transaction (its first write wasn't an insert) and after (its
    /// last write wasn't a delete). A write that names no keys makes the change
    /// set incomplete, without keys.
    static func netChanges(_ commit: PostgresCommit, in collection: String) -> CollectionChanges<Model> {
        let writes = commit.writes.filter { $0.collection == collection }
        if commit.mayHaveChangedAnything || writes.contains(where: { $0.kind == .any }) {
            return CollectionChanges(inserted: [], updated: [], deleted: [], isComplete: false)
        }
        var net: [DocumentKey: (existedBefore: Bool, existsAfter: Bool)] = [:]
        var order: [DocumentKey] = []  // first written first
        for write in writes {
            for key in write.keys {
                if net[key] == nil { order.append(key) }
                let existedBefore = net[key]?.existedBefore ?? (write.kind != .insert)
                net[key] = (existedBefore, write.kind != .delete)
            }
        }
        var inserted: [DocumentKey] = [], updated: [DocumentKey] = [], deleted: [DocumentKey] = []
        for key in order {
            guard let entry = net[key] else { continue }
            switch (entry.existedBefore, entry.existsAfter) {
            case (false, true): inserted.append(key)
            case (true, true): updated.append(key)
            case (true, false): deleted.append(key)
            case (false, false): continue
            }
        }
        return CollectionChanges(inserted: inserted, updated: updated, deleted: deleted, isComplete: true)
    }
}
