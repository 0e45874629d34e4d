import DocStore
@_spi(Backends) import DocStorePostgres

extension PostgresBackend: CopyEndpoint {
    func checkCollectionName(_ name: String) throws {
        try PostgresDocumentStore.checkCollectionName(name)
    }

    func forEachPage(_ collection: String, size: Int, _ body: ([KeyedDocument]) throws -> Void) throws {
        let store = store
        try Self.forEachPage(size: size, body) { last in
            try reading { snapshot in
                try await (snapshot?.collection(named: collection) ?? store.collection(named: collection)).page(after: last, limit: size)
            }
        }
    }

    func unrecordedTables() throws -> [String] {
        let store = store
        return try Self.wait { try await store.unrecordedTables() }
    }

    /// Holds one `REPEATABLE READ` transaction while `body` runs, in which every
    /// page is read: page by page outside it, a commit made during a copy
    /// landed half in the copy, which its checksum then verified. Within one
    /// already held, `body` reads in that one.
    func readingOneSnapshot<Result>(_ body: () throws -> Result) throws -> Result {
        if snapshot.withLock({ $0 != nil }) { return try body() }
        let store = store
        let held = HeldTransaction<PostgresTransaction> { work in
            try await store.snapshot { try await work($0) }
        }
        snapshot.withLock { $0 = held }
        defer {
            snapshot.withLock { $0 = nil }
            held.rollBack()  // it read only; nothing to keep
        }
        return try body()
    }

    /// Runs a read in the held snapshot, when there is one, or on its own.
    private func reading<Value: Sendable>(_ work: @escaping @Sendable (PostgresTransaction?) async throws -> Value) throws -> Value {
        if let held = snapshot.withLock({ $0 }) {
            do {
                return try held.run { try await work($0) }
            } catch let error as PostgresStoreError {
                throw PostgresFailure(error)
            }
        }
        return try Self.wait { try await work(nil) }
    }

    /// Reads pages in key order with `page(after:)` until one comes back short.
    static func forEachPage(size: Int, _ body: ([KeyedDocument]) throws -> Void,
                            reading page: (DocumentKey?) throws -> [(key: DocumentKey, document: JSONValue)]) throws {
        var last: DocumentKey?
        while true {
            let documents: [KeyedDocument] = try page(last)
            if !documents.isEmpty { try body(documents) }
            guard documents.count == size, let end = documents.last?.key else { return }
            last = end
        }
    }

    func storeIdentity() throws -> String {
        let store = store
        return try Self.wait { try await store.databaseIdentity() }
    }

    func appliedMigrations() throws -> [AppliedMigration] {
        let store = store
        return try reading { snapshot in
            if let snapshot { return try await snapshot.appliedMigrations() }
            return try await store.appliedMigrations()
        }
    }

    func recordAppliedMigrations(_ migrations: [AppliedMigration]) throws {
        let store = store
        try Self.wait { try await store.recordAppliedMigrations(migrations) }
    }

    func keyValueEntries() throws -> [(key: String, value: JSONValue)] {
        let store = store
        return try reading { snapshot in
            let values = snapshot?.values ?? store.values
            var entries: [Entry] = []
            for key in try await values.keys() {
                if let value = try await values.get(key, as: JSONValue.self) { entries.append(Entry(key: key, value: value)) }
            }
            return entries
        }.map { (key: $0.key, value: $0.value) }
    }

    func writeCollection(_ collection: String, _ body: (any CollectionWriter) throws -> Void) throws {
        try Self.inHeldTransaction(of: store) { held in
            try body(PostgresCollectionWriter(held: held, collection: collection))
        }
    }

    func setKeyValueEntries(_ entries: [(key: String, value: JSONValue)]) throws {
        let store = store
        let entries = entries.map { Entry(key: $0.key, value: $0.value) }
        try Self.wait {
            try await store.transaction { transaction in
                for entry in entries { try await transaction.values.set(entry.value, forKey: entry.key) }
            }
        }
    }

    private struct Entry: Sendable {
        var key: String
        var value: JSONValue
    }
}

/// A collection of a PostgreSQL database written by a copy, in the copy's
/// transaction (held open across pages).
struct PostgresCollectionWriter: CollectionWriter {
    let held: HeldTransaction<PostgresTransaction>
    let collection: String

    func create(keyKind: KeyKind) throws -> KeyKind {
        let collection = collection
        return try run { transaction in
            let target = transaction.collection(named: collection)
            let kind = try await target.createIfMissing(keyKind: keyKind)
            try await target.holdOffOtherWriters()
            return kind
        }
    }

    func deleteAll() throws -> Int {
        let collection = collection
        return try run { try await $0.collection(named: collection).delete(DocumentQuery()) }
    }

    /// One `COPY … FROM STDIN` a page: the documents' JSON text as rows,
    /// with no statement to parse and no Codable pass over each document.
    /// Submitted, not waited for: the copy reads the next page from the source
    /// while this one is written and stored (a failure stops the copy at its
    /// next call, and the collection's transaction rolls back).
    func insert(_ documents: [KeyedDocument]) throws {
        let collection = collection
        let documents = documents.map { KeyedJSON(key: $0.key, document: $0.document) }
        do {
            try held.submit { transaction in
                try await transaction.collection(named: collection).copyIn(documents.map { ($0.key, $0.document) })
            }
        } catch let error as PostgresStoreError {
            throw PostgresFailure(error)
        }
    }

    /// The same index on PostgreSQL (a btree on the compiler's expressions, or
    /// GIN on the documents for an index on the root), in the copy's transaction.
    func createIndex(_ index: IndexInfo) throws -> Bool {
        let collection = collection
        _ = try run { try await $0.collection(named: collection).createIndex(on: index.fields, unique: index.isUnique) }
        return true
    }

    /// The same search index on PostgreSQL (GIN on DocStore's words), in the copy's transaction.
    func createSearchIndex(on fields: [FieldPath]) throws {
        let collection = collection
        _ = try run { try await $0.collection(named: collection).createSearchIndex(on: fields) }
    }

    /// PostgreSQL has no field columns: it reads a jsonb field without parsing
    /// the document's text, which is what they spare SQLite.
    func createFieldColumns(on fields: [FieldPath]) throws -> Bool { false }

    func forEachPage(size: Int, _ body: ([KeyedDocument]) throws -> Void) throws {
        let collection = collection
        try PostgresBackend.forEachPage(size: size, body) { last in
            try run { try await $0.collection(named: collection).page(after: last, limit: size) }
        }
    }

    private func run<Value: Sendable>(_ work: @escaping @Sendable (PostgresTransaction) async throws -> Value) throws -> Value {
        do {
            return try held.run(work)
        } catch let error as PostgresStoreError {
            throw PostgresFailure(error)
        }
    }
}

/// A page's document, as a `Sendable` value to hand to the transaction.
private struct KeyedJSON: Sendable {
    var key: DocumentKey
    var document: JSONValue
}
