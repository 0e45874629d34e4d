extension DocumentCollection where Model: Sendable {
    /// The documents `query` selects, now and after every commit that changes them.
    ///
    /// Yields the current result at once, then a new result after each committed
    /// transaction that changed it: never for a rolled-back one, never twice for
    /// one commit, nothing for a commit that left the result as it was, and only
    /// the newest when the consumer is slower than the commits. Each result is
    /// what ``fetch(_:)`` would return at that moment.
    ///
    /// A commit is judged from what it wrote: writes to other collections, and to
    /// documents that the query selected neither before nor after, run no fetch.
    ///
    /// - Throws (from iteration): the errors ``fetch(_:)`` throws; the first one
    ///   ends the sequence.
    public func values(_ query: DocumentQuery) -> LiveSequence<[Model]> {
        let region = ObservedRegion(collection: name, condition: query.condition, judgesByResultKeys: query.offset == nil)
        return live(region, fetch: { try storedRows(query) }, resultKeys: { Set($0.keys) }, decode: { try decode($0) })
    }

    /// The document stored under `key` (nil when there is none), now and after
    /// every commit that writes it.
    public func values(forKey key: some DocumentKeyRepresentable) -> LiveSequence<Model?> {
        let key = key.documentKey
        return live(ObservedRegion(collection: name, key: key), fetch: { try storedBody(key) }) { body in
            guard let body else { return nil }
            return try body.withUnsafeBytes { try ModelCoding.decode(Model.self, from: $0, collection: name, key: key) }
        }
    }

    /// Any value read from the documents `query` selects (a count, an aggregate,
    /// a selection of fields), now and after every commit that changes it.
    ///
    ///     for try await count in players.observe(query) { players, query in try players.count(query) } { … }
    ///
    /// `read` runs again after each commit that wrote a document the query
    /// selected before or after the write; its result is yielded when it differs
    /// from the last one. It should read only what `query` selects: writes
    /// elsewhere aren't looked for.
    public func observe<Value: Equatable & Sendable>(
        _ query: DocumentQuery, _ read: @escaping @Sendable (DocumentCollection, DocumentQuery) throws -> Value
    ) -> LiveSequence<Value> {
        live(ObservedRegion(collection: name, condition: query.condition), fetch: { try read(self, query) }, decode: { $0 })
    }
}

extension DocumentCollection {
    // MARK: Internals

    /// A live sequence over `region`, fetching with `fetch`.
    func live<Raw: Equatable & Sendable, Value: Sendable>(
        _ region: ObservedRegion,
        fetch: @escaping @Sendable () throws -> Raw,
        resultKeys: @escaping @Sendable (Raw) -> Set<DocumentKey>? = { _ in nil },
        decode: @escaping @Sendable (Raw) throws -> Value
    ) -> LiveSequence<Value> {
        LiveSequence(start: { [store] continuation in
            LiveObserver(store: store, region: region, continuation: continuation,
                         fetch: fetch, resultKeys: resultKeys, decode: decode).start()
        }, bufferingPolicy: .bufferingNewest(1))
    }

    /// The keys and stored bytes of the documents `query` selects.
    func storedRows(_ query: DocumentQuery) throws -> StoredRows {
        var rows = StoredRows()
        try readRows(cached: false, { try $0.documents(query) }) { statement, info in
            rows.keys.append(statement.key(at: 0, kind: info.keyKind))
            rows.bodies.append(Array(statement.bytes(at: 1)))
        }
        return rows
    }

    /// The stored bytes of one document, nil when there is none.
    func storedBody(_ key: DocumentKey) throws -> [UInt8]? {
        try access {
            try store.readAccess { db in
                guard let info = try store.knownCollection(named: name, in: db) else { return nil }
                try check(key, against: info)
                guard case .stored(let bytes) = try storedBody(key, in: db) else { return nil }
                return bytes
            }
        }
    }

    func decode(_ rows: StoredRows) throws -> [Model] {
        try zip(rows.keys, rows.bodies).map { key, body in
            try body.withUnsafeBytes { try ModelCoding.decode(Model.self, from: $0, collection: name, key: key) }
        }
    }
}

/// Documents as stored: what a live query compares to tell whether its result
/// changed, before decoding anything.
struct StoredRows: Equatable, Sendable {
    var keys: [DocumentKey] = []
    var bodies: [[UInt8]] = []
}

extension CollectionQuery where Model: Sendable {
    /// The documents the query selects, now and after every commit that changes
    /// them (see ``DocumentCollection/values(_:)``):
    ///
    ///     for try await roster in players.filter { $0.teamId == 1 }.sorted { $0.number }.values() {
    ///         show(roster)
    ///     }
    public func values() -> LiveSequence<[Model]> {
        do {
            return collection.values(try documentQuery())
        } catch {
            return .failing(error)
        }
    }

    /// Any value read from the query (a count, an aggregate, its first document
    /// when that is `Equatable`), now and after every commit that changes it:
    ///
    ///     for try await count in players.filter { $0.teamId == 1 }.observe({ try $0.count() }) { … }
    ///     for try await best in players.query.observe({ try $0.max(\.number) }) { … }
    ///
    /// `read` runs again after each commit that wrote a document the query selected
    /// before or after the write, and its result is yielded when it changed.
    public func observe<Value: Equatable & Sendable>(
        _ read: @escaping @Sendable (CollectionQuery) throws -> Value
    ) -> LiveSequence<Value> {
        do {
            let query = try documentQuery()
            return collection.observe(query) { _, _ in try read(self) }
        } catch {
            return .failing(error)
        }
    }
}

extension LiveSequence {
    /// A sequence that throws `error` at once.
    static func failing(_ error: any Error) -> LiveSequence {
        LiveSequence(start: { $0.finish(throwing: error) }, bufferingPolicy: .unbounded)
    }
}
