import OrderedCollections
import Synchronization

/// What one committed transaction did to a collection: the keys of the documents
/// it inserted, updated and deleted, as ``DocumentCollection/changes(includingDocuments:)``
/// yields them.
///
/// Changes are net, per transaction: a document inserted then updated is
/// inserted; inserted then deleted, not there at all; deleted then inserted
/// again, updated.
public struct CollectionChanges<Model: Sendable>: Sendable {
    /// Keys of documents that didn't exist before the transaction and do now, in
    /// the order they were first written.
    public var inserted: [DocumentKey] = []
    /// Keys of documents that existed before and still do, written by the transaction.
    public var updated: [DocumentKey] = []
    /// Keys of documents that existed before and don't any more.
    public var deleted: [DocumentKey] = []
    /// The inserted and updated documents as committed, by key, when asked for.
    public var documents: [DocumentKey: Model] = [:]
    /// False when DocStore can't list what changed: another process committed
    /// (seen by ``DocumentStore/otherProcessPollingInterval`` polling); the key
    /// lists are then empty and any document may have changed.
    public var isComplete = true

    /// Whether the change set lists no change.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && isComplete }
}

extension CollectionChanges {
    /// A change set of another backend's commit.
    @_spi(Backends)
    public init(inserted: [DocumentKey], updated: [DocumentKey], deleted: [DocumentKey], isComplete: Bool) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.isComplete = isComplete
    }
}

extension DocumentCollection where Model: Sendable {
    /// The changes each committed transaction makes to the collection, one change
    /// set per transaction, in commit order, from the moment this is called:
    ///
    ///     let changes = players.changes(includingDocuments: true)
    ///     for try await change in changes {
    ///         for key in change.deleted { cache.removeValue(forKey: key) }
    ///         for (key, player) in change.documents { cache[key] = player }
    ///     }
    ///
    /// Rolled-back transactions yield nothing, and neither do transactions that
    /// wrote no document of the collection. Every change set is kept until it is
    /// read. Iterate the stream once; the observation ends when the iterating
    /// task stops.
    ///
    /// - Parameter includingDocuments: Also decode the inserted and updated
    ///   documents into ``CollectionChanges/documents``.
    /// - Throws (from iteration): ``DocStoreError/storeClosed(path:)``, or the
    ///   decoding error of a written document that isn't a `Model`.
    public func changes(includingDocuments: Bool = false) -> AsyncThrowingStream<CollectionChanges<Model>, any Error> {
        let (stream, continuation) = AsyncThrowingStream<CollectionChanges<Model>, any Error>.makeStream()
        let observer = ChangesObserver(collection: self, includingDocuments: includingDocuments, continuation: continuation)
        continuation.onTermination = { [store] _ in store.removeObserver(observer) }
        do {
            // Registered before returning, so that every commit after this call is seen.
            try access {
                store.writer.unsafeReentrantWrite { db in store.changeTracker.add(observer, in: db) }
            }
        } catch {
            continuation.finish(throwing: error)
        }
        return stream
    }
}

/// Feeds one ``DocumentCollection/changes(includingDocuments:)`` stream.
final class ChangesObserver<Model: Codable & Sendable>: StoreObserver {
    let collection: DocumentCollection<Model>
    let includingDocuments: Bool
    let continuation: AsyncThrowingStream<CollectionChanges<Model>, any Error>.Continuation
    var observedCollections: Set<String> { [collection.name] }
    private let isFinished = Atomic(false)

    init(collection: DocumentCollection<Model>, includingDocuments: Bool,
         continuation: AsyncThrowingStream<CollectionChanges<Model>, any Error>.Continuation) {
        self.collection = collection
        self.includingDocuments = includingDocuments
        self.continuation = continuation
    }

    func storeDidCommit(_ committed: CommittedWrites) {
        guard !isFinished.load(ordering: .acquiring), committed.touches(collection.name) else { return }
        do {
            let changes = try netChanges(committed)
            if !changes.isEmpty {
                collection.store.changeSetCount.add(1, ordering: .relaxed)
                continuation.yield(changes)
            }
        } catch {
            isFinished.store(true, ordering: .releasing)
            collection.store.removeObserver(self)
            continuation.finish(throwing: error)
        }
    }

    func storeDidClose(_ error: any Error) {
        guard !isFinished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        continuation.finish(throwing: error)
    }

    private func netChanges(_ committed: CommittedWrites) throws -> CollectionChanges<Model> {
        var changes = CollectionChanges<Model>()
        if committed.mayHaveChangedAnything { changes.isComplete = false }
        // Per key: whether it existed before the transaction, and its last body.
        var net: OrderedDictionary<DocumentKey, (existedBefore: Bool, body: [UInt8]?)> = [:]
        for write in committed.writes where write.collection == collection.name {
            let body: [UInt8]? = if case .stored(let bytes) = write.new { bytes } else { nil }
            if let known = net[write.key] {
                net[write.key] = (known.existedBefore, write.kind == .delete ? nil : body)
            } else {
                net[write.key] = (write.kind != .insert, write.kind == .delete ? nil : body)
            }
        }
        for (key, entry) in net {
            let existsAfter = entry.body != nil
            switch (entry.existedBefore, existsAfter) {
            case (false, true): changes.inserted.append(key)
            case (true, true): changes.updated.append(key)
            case (true, false): changes.deleted.append(key)
            case (false, false): continue
            }
            if includingDocuments, let body = entry.body {
                changes.documents[key] = try body.withUnsafeBytes {
                    try ModelCoding.decode(Model.self, from: $0, collection: collection.name, key: key)
                }
            }
        }
        return changes
    }
}
