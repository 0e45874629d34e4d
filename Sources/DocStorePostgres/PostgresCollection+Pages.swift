@_spi(Backends) import DocStore
import PostgresNIO

extension PostgresCollection {
    /// One page of documents in key order, for reading a whole collection in
    /// bounded memory (an export, a copy): the first `limit` documents whose
    /// key is greater than `key` (all keys when nil). An empty page ends it.
    ///
    ///     var last: DocumentKey?
    ///     while case let page = try await collection.page(after: last, limit: 1000), !page.isEmpty {
    ///         for (key, document) in page { … }
    ///         last = page.last?.key
    ///     }
    public func page(after key: DocumentKey?, limit: Int) async throws -> [(key: DocumentKey, document: Model)] {
        try await followingDrops {
            guard let kind = try await existingKeyKind() else { return [] }
            let rows = if let key {
                // A page after a key of another kind: the collection was made
                // anew by another session between two pages (an error that says so).
                try await session.rows(reusing: PostgresStoreSQL.page(after: name), [try checkedKey(key, kind: kind).binding, .integer(Int64(limit))],
                                       collection: name)
            } else {
                try await session.rows(reusing: PostgresStoreSQL.firstPage(name), [.integer(Int64(limit))], collection: name)
            }
            return try rows.map { row in
                var cells = row.makeIterator()
                guard let keyCell = cells.next() else { throw DocStoreError.corruptDocument(collection: name, key: .string(""), reason: "the server sent no key") }
                let key = try decodeKey(keyCell, kind: kind)
                return (key, try decodeDocument(cells.next(), key: key))
            }
        }
    }

    /// About `size` documents spread evenly over the collection's keys, in key
    /// order (all of them when it has no more): what the REPL samples field
    /// names from, as a file store's `sampleFields(size:)` does.
    ///
    /// - Parameter lockWait: How long to wait for another session's lock on
    ///   the collection before failing (SQLSTATE 55P03); nil waits as the
    ///   store does. A sample is a nicety: the REPL's command that wanted it
    ///   waited for the lock twice, once for the sample and once itself.
    @_spi(Backends) public func spreadSample(size: Int, lockWait: Duration? = nil) async throws -> [(key: DocumentKey, document: Model)] {
        try await followingDrops {
            guard let kind = try await existingKeyKind() else { return [] }
            let bindings: [SQLBinding] = [.integer(Int64(max(1, size)))]
            let rows: [PostgresRow]
            if let lockWait, transaction == nil {
                rows = try await store.transaction { transaction in
                    try await transaction.session.rows("SELECT set_config('lock_timeout', $1, true)",
                                                       [.text(PostgresURL.lockTimeout(lockWait))], collection: name)
                    return try await transaction.session.rows(PostgresStoreSQL.spreadSample(name), bindings, collection: name)
                }
            } else {
                rows = try await session.rows(reusing: PostgresStoreSQL.spreadSample(name), bindings, collection: name)
            }
            return try rows.map { row in
                var cells = row.makeIterator()
                guard let keyCell = cells.next() else { throw DocStoreError.corruptDocument(collection: name, key: .string(""), reason: "the server sent no key") }
                let key = try decodeKey(keyCell, kind: kind)
                return (key, try decodeDocument(cells.next(), key: key))
            }
        }
    }

    /// The largest key of a collection of integer keys, nil when it is empty or
    /// doesn't exist; the next generated key is one more.
    ///
    /// - Throws: ``DocStore/DocStoreError/keyKindMismatch(collection:expected:found:)``
    ///   when the collection's keys are not integers.
    public func largestIntegerKey() async throws -> Int64? {
        try await followingDrops {
            guard let kind = try await existingKeyKind() else { return nil }
            guard kind == .integer else { throw DocStoreError.keyKindMismatch(collection: name, expected: kind, found: .integer) }
            let rows = try await session.rows(PostgresStoreSQL.largestKey(name), [], collection: name)
            return try rows.first?.decode(Int64?.self)
        }
    }
}

extension PostgresCollection {
    /// Creates the collection, empty, with keys of `kind` when it doesn't exist;
    /// returns its key kind (the existing one's when it does). A copy of a store
    /// creates its empty collections this way, so that they keep their key kind.
    @discardableResult
    public func createIfMissing(keyKind kind: KeyKind) async throws -> KeyKind {
        try await ensureCollection(kind: kind)
    }

    /// In a transaction, holds off every other writer of the collection until
    /// it ends (readers go on): a copy into it then reads back, to verify,
    /// exactly what it wrote, not also what others wrote meanwhile (a copy
    /// into a collection other processes wrote to failed every time).
    @_spi(Backends) public func holdOffOtherWriters() async throws {
        guard let transaction else {
            throw DocStoreError.invalidQuery(collection: name, field: nil, reason: "holding off other writers needs a transaction")
        }
        try await transaction.session.rows(PostgresStoreSQL.lockForRewrite(name), [], collection: name)
    }
}
