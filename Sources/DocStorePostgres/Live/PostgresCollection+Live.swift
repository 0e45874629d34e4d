@_spi(Backends) import DocStore

extension PostgresCollection {
    /// The documents `query` selects, now and after every commit that may
    /// change them, from this process or any other: triggers on the
    /// collection's table send `NOTIFY`, and the store's one listening
    /// connection hears it (no polling).
    ///
    /// Yields the current result at once, then a new result after each committed
    /// transaction that wrote the collection (or one its subqueries read) and
    /// changed the result: never for a rolled-back one, never twice for one
    /// commit, nothing when the result stayed the same, and only the newest when
    /// the consumer is slower than the commits. Each result is what
    /// ``fetch(_:)`` would return at that moment.
    ///
    /// - Throws (from iteration): the errors ``fetch(_:)`` throws, and
    ///   ``PostgresStoreError/closed`` when the store closes; the first one ends
    ///   the sequence.
    public func values(_ query: DocumentQuery) -> LiveSequence<[Model]> {
        let collection = outsideTransaction
        let collections = PostgresCompiler.subqueryCollections(of: query.condition).union([name])
        return collection.live(collections, fetch: { try await collection.storedDocuments(query) }) { stored in
            try zip(stored.keys, stored.bodies).map { key, body in
                try BackendSupport.decode(Model.self, from: Array(body.utf8), collection: collection.name, key: key)
            }
        }
    }

    /// The document stored under `key` (nil when there is none), now and after
    /// every commit that writes it.
    public func values(forKey key: some DocumentKeyRepresentable) -> LiveSequence<Model?> {
        let collection = outsideTransaction
        let key = key.documentKey
        return collection.live([name], document: (name, key), fetch: { try await collection.storedBody(key) }) { body in
            try body.map { try BackendSupport.decode(Model.self, from: Array($0.utf8), collection: collection.name, key: key) }
        }
    }

    /// Any value read from the documents `query` selects (a count, an
    /// aggregate, a selection of fields), now and after every commit that may
    /// change it; yielded when it differs from the last one.
    ///
    ///     for try await count in players.observe(query, { players, query in try await players.count(query) }) { … }
    ///
    /// `read` runs again after each commit that wrote the collection (or one the
    /// query's subqueries read). It should read only what `query` selects:
    /// writes elsewhere aren't listened for.
    public func observe<Value: Equatable & Sendable>(
        _ query: DocumentQuery, _ read: @escaping @Sendable (PostgresCollection, DocumentQuery) async throws -> Value
    ) -> LiveSequence<Value> {
        let collection = outsideTransaction
        let collections = PostgresCompiler.subqueryCollections(of: query.condition).union([name])
        return collection.live(collections, fetch: { try await read(collection, query) }, decode: { $0 })
    }

    /// The changes each committed transaction makes to the collection, one
    /// change set per transaction, in commit order, from the moment this
    /// returns (it returns once the store listens):
    ///
    ///     for try await change in try await players.changes() {
    ///         for key in change.deleted { cache.removeValue(forKey: key) }
    ///         for key in change.inserted + change.updated { cache[key] = try await players.get(key) }
    ///     }
    ///
    /// Changes are net, per transaction, as on SQLite. Rolled-back transactions
    /// yield nothing, and neither do transactions that wrote no document of the
    /// collection. A statement that wrote more than 10 000 documents, a key
    /// longer than 1 000 bytes, `TRUNCATE`, dropping the collection, and a lost
    /// connection give a change set whose ``DocStore/CollectionChanges/isComplete``
    /// is false and whose key lists are empty: any document may have changed.
    /// Every change set is kept until it is read; the observation ends when the
    /// iterating task stops.
    ///
    /// - Throws: the connection's error when the store can't listen.
    public func changes() async throws -> AsyncThrowingStream<CollectionChanges<Model>, any Error> {
        let (stream, continuation) = AsyncThrowingStream<CollectionChanges<Model>, any Error>.makeStream()
        let observer = PostgresChangesObserver<Model>(collection: name, continuation: continuation)
        let hub = store.changeHub
        continuation.onTermination = { _ in hub.remove(observer) }
        do {
            try await hub.add(observer)
        } catch {
            hub.remove(observer)
            throw error
        }
        return stream
    }

    // MARK: Internals

    /// The same collection on the store's pool: an observation outlives any transaction.
    var outsideTransaction: PostgresCollection {
        PostgresCollection(name: name, store: store, transaction: nil, keyOf: keyOf)
    }

    /// A live sequence over `collections`, fetching with `fetch`.
    func live<Raw: Equatable & Sendable, Value: Sendable>(
        _ collections: Set<String>, document: (collection: String, key: DocumentKey)? = nil,
        fetch: @escaping @Sendable () async throws -> Raw, decode: @escaping @Sendable (Raw) throws -> Value
    ) -> LiveSequence<Value> {
        let hub = store.changeHub
        return LiveSequence(keepingNewestOnly: true) { continuation in
            PostgresLiveObserver(hub: hub, collections: collections, document: document, continuation: continuation,
                                 fetch: fetch, decode: decode).start()
        }
    }

    /// The keys and JSON texts of the documents `query` selects.
    func storedDocuments(_ query: DocumentQuery) async throws -> StoredDocuments {
        var stored = StoredDocuments()
        guard let compiler = try await compiler(for: query.condition) else { return stored }
        let kind = keyKind()
        for row in try await session.rows(try compiler.documents(query), collection: name) {
            let cells = row.makeRandomAccess()
            stored.keys.append(try decodeKey(cells[0], kind: kind))
            stored.bodies.append(try cells[1].decode(String.self))
        }
        return stored
    }

    /// The JSON text of the document under `key`, nil when there is none.
    func storedBody(_ key: DocumentKey) async throws -> String? {
        guard let kind = try await existingKeyKind() else { return nil }
        let key = try checkedKey(key, kind: kind)
        return try await session.rows(PostgresStoreSQL.get(name), [key.binding], collection: name, key: key).first?.decode(String.self)
    }
}

/// Documents as stored: what a live query compares to tell whether its result
/// changed, before decoding anything (jsonb's text is canonical: equal
/// documents, equal texts).
struct StoredDocuments: Equatable, Sendable {
    var keys: [DocumentKey] = []
    var bodies: [String] = []
}

extension PostgresCollectionQuery {
    /// The documents the query selects, now and after every commit that may
    /// change them (see ``PostgresCollection/values(_:)``); with joins, also
    /// after commits to the joined collections:
    ///
    ///     for try await roster in players.filter { $0.teamId == 1 }.sorted { $0.number }.values() {
    ///         show(roster)
    ///     }
    public func values() -> LiveSequence<[Model]> {
        let collection = collection.outsideTransaction
        do {
            guard !stages.isEmpty else { return collection.values(try documentQuery()) }
            let pipeline = try queryPipeline()
            let name = collection.name
            return collection.live(PostgresCompiler.collections(of: pipeline).union([name]),
                                   fetch: { try await collection.rows(pipeline) }) { rows in
                try rows.map { try BackendSupport.decode(Model.self, from: $0, collection: name, at: "") }
            }
        } catch {
            return LiveSequence(keepingNewestOnly: true) { $0.finish(throwing: error) }
        }
    }

    /// Any value read from the query (a count, an aggregate, its first document
    /// when that is `Equatable`), now and after every commit that may change it;
    /// yielded when it changed:
    ///
    ///     for try await count in players.filter { $0.teamId == 1 }.observe({ try await $0.count() }) { … }
    public func observe<Value: Equatable & Sendable>(
        _ read: @escaping @Sendable (PostgresCollectionQuery) async throws -> Value
    ) -> LiveSequence<Value> {
        let query = onPool
        let collections: Set<String>
        do {
            collections = PostgresCompiler.collections(of: try queryPipeline()).union([collection.name])
        } catch {
            return LiveSequence(keepingNewestOnly: true) { $0.finish(throwing: error) }
        }
        return query.collection.live(collections, fetch: { [query] in try await read(query) }, decode: { $0 })
    }

    /// The same query on the store's pool: an observation outlives any transaction.
    private var onPool: PostgresCollectionQuery {
        var copy = PostgresCollectionQuery(collection: collection.outsideTransaction)
        copy.query = query
        copy.stages = stages
        copy.invalid = invalid
        return copy
    }
}
