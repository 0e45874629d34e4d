// The async forms of the collection's reads and writes. Each runs the same work as
// its synchronous namesake, on the store's own threads (see `DatabaseExecutor`),
// so that any number of tasks can await the store without blocking Swift's
// cooperative pool. Cancelling the awaiting task interrupts the statement in
// progress and throws `CancellationError`; a write that committed stays committed.

extension DocumentCollection where Model: SendableMetatype {
    // MARK: Reading

    /// The document stored under `key`, or `nil` (see ``get(_:)-(DocumentKeyRepresentable)``).
    public func get(_ key: some DocumentKeyRepresentable) async throws -> Model? {
        let key = key.documentKey
        return try await store.executor.run(.pointRead) { try self.get(key) }
    }

    /// The documents stored under `keys`, in the order of `keys`.
    public func get<Keys: Sequence>(_ keys: Keys) async throws -> [Model] where Keys.Element: DocumentKeyRepresentable {
        let keys = keys.map(\.documentKey)
        return try await store.executor.run(.read) { try self.get(keys) }
    }

    /// Whether a document is stored under `key`.
    public func exists(_ key: some DocumentKeyRepresentable) async throws -> Bool {
        let key = key.documentKey
        return try await store.executor.run(.pointRead) { try self.exists(key) }
    }

    /// The number of documents in the collection.
    public func count() async throws -> Int {
        try await store.executor.run(.read) { try self.count() }
    }

    /// The keys of all documents, in key order.
    public func keys() async throws -> [DocumentKey] {
        try await store.executor.run(.read) { try self.keys() }
    }

    /// All documents, in key order.
    public func all() async throws -> [Model] {
        try await store.executor.run(.read) { try self.all() }
    }

    /// Every document that can't be read as `Model`, with the reason.
    public func damagedDocuments() async throws -> [DocStoreError] {
        try await store.executor.run(.read) { try self.damagedDocuments() }
    }

    /// The documents the query selects, in its order.
    public func fetch(_ query: DocumentQuery) async throws -> [Model] {
        try await store.executor.run(.read) { try self.fetch(query) }
    }

    /// The first document the query selects, or `nil`.
    public func first(_ query: DocumentQuery) async throws -> Model? {
        try await store.executor.run(.read) { try self.first(query) }
    }

    /// The number of documents the query selects.
    public func count(_ query: DocumentQuery) async throws -> Int {
        try await store.executor.run(.read) { try self.count(query) }
    }

    /// Whether the query selects any document.
    public func exists(_ query: DocumentQuery) async throws -> Bool {
        try await store.executor.run(.read) { try self.exists(query) }
    }

    /// The keys of the documents the query selects, in its order.
    public func keys(_ query: DocumentQuery) async throws -> [DocumentKey] {
        try await store.executor.run(.read) { try self.keys(query) }
    }

    /// The values of some fields of each selected document.
    public func select(_ query: DocumentQuery, fields: [FieldPath]) async throws -> [[JSONValue]] {
        try await store.executor.run(.read) { try self.select(query, fields: fields) }
    }

    /// A summary of the documents the query selects.
    public func aggregate(_ query: DocumentQuery, _ aggregate: Aggregate) async throws -> JSONValue {
        try await store.executor.run(.read) { try self.aggregate(query, aggregate) }
    }

    /// The collection's indexes.
    public func indexes() async throws -> [IndexInfo] {
        try await store.executor.run(.read) { try self.indexes() }
    }

    // MARK: Writing

    /// Inserts a document and returns its key (see ``insert(_:)-(Model)``).
    @discardableResult
    public func insert(_ model: sending Model) async throws -> DocumentKey {
        let model = Unchecked(model)
        return try await store.executor.run(.write) { try self.insert(model.value) }
    }

    /// Inserts documents in one transaction: all of them, or none.
    @discardableResult
    public func insert<Models: Sequence>(contentsOf models: sending Models) async throws -> [DocumentKey] where Models.Element == Model {
        let models = Unchecked(Array(models))
        return try await store.executor.run(.write) { try self.insert(contentsOf: models.value) }
    }

    /// Inserts the document, or replaces the one stored under the same key.
    public func save(_ model: sending Model) async throws {
        let model = Unchecked(model)
        try await store.executor.run(.write) { try self.save(model.value) }
    }

    /// Saves documents in one transaction: all of them, or none.
    public func save<Models: Sequence>(contentsOf models: sending Models) async throws where Models.Element == Model {
        let models = Unchecked(Array(models))
        try await store.executor.run(.write) { try self.save(contentsOf: models.value) }
    }

    /// Reads, changes and writes back one document atomically; returns the new value.
    @discardableResult
    public func update(
        _ key: some DocumentKeyRepresentable, _ mutate: @escaping @Sendable (inout Model) throws -> Void
    ) async throws -> Model {
        let key = key.documentKey
        return try await store.executor.run(.write) { try self.update(key, mutate) }
    }

    /// Deletes the document stored under `key`. Returns whether there was one.
    @discardableResult
    public func delete(_ key: some DocumentKeyRepresentable) async throws -> Bool {
        let key = key.documentKey
        return try await store.executor.run(.write) { try self.delete(key) }
    }

    /// Deletes every document. Returns how many were deleted.
    @discardableResult
    public func deleteAll() async throws -> Int {
        try await store.executor.run(.write) { try self.deleteAll() }
    }

    /// Deletes the documents the query selects. Returns how many.
    @discardableResult
    public func delete(_ query: DocumentQuery) async throws -> Int {
        try await store.executor.run(.write) { try self.delete(query) }
    }

    /// Changes the documents the query selects, in one statement. Returns how many.
    @discardableResult
    public func update(_ query: DocumentQuery, _ updates: [FieldUpdate]) async throws -> Int {
        try await store.executor.run(.write) { try self.update(query, updates) }
    }

    /// Creates an index on fields of the documents.
    @discardableResult
    public func createIndex(on fields: [FieldPath], unique: Bool = false) async throws -> IndexInfo {
        try await store.executor.run(.write) { try self.createIndex(on: fields, unique: unique) }
    }

    /// Drops the index on exactly these fields. Returns whether there was one.
    @discardableResult
    public func dropIndex(on fields: [FieldPath]) async throws -> Bool {
        try await store.executor.run(.write) { try self.dropIndex(on: fields) }
    }

    /// Keeps these fields in field columns, read by queries instead of the
    /// documents' JSON (see the synchronous ``createFieldColumns(on:)``).
    @discardableResult
    public func createFieldColumns(on fields: [FieldPath]) async throws -> FieldColumnsInfo {
        try await store.executor.run(.write) { try self.createFieldColumns(on: fields) }
    }

    /// Stops keeping these fields in columns. Returns whether any had one.
    @discardableResult
    public func dropFieldColumns(on fields: [FieldPath]) async throws -> Bool {
        try await store.executor.run(.write) { try self.dropFieldColumns(on: fields) }
    }

    /// The collection's field columns, or nil when it has none.
    public func fieldColumns() async throws -> FieldColumnsInfo? {
        try await store.executor.run(.read) { try self.fieldColumns() }
    }
}

/// A value handed to the store's thread by a caller that gave it up (`sending`):
/// no one else holds it, so moving it across is safe although its type isn't
/// `Sendable`.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: sending Value) { self.value = value }
    /// For an `inout sending` argument: its caller gave it up too, but it is
    /// still read (and replaced) after the call.
    init(copying value: Value) { self.value = value }
}

extension DocumentCollection where Model: Identifiable & SendableMetatype, Model.ID: OptionalDocumentKeyRepresentable {
    /// Inserts a model and sets its nil `id` to the generated key (see ``insert(_:)-(inout Model)``).
    @discardableResult
    public func insert(_ model: inout sending Model) async throws -> DocumentKey {
        let given = Unchecked(copying: model)
        let stored = try await store.executor.run(.write) {
            var model = given.value
            let key = try self.insert(&model)
            return Unchecked((key, model))
        }
        model = stored.value.1
        return stored.value.0
    }

    /// Inserts a model and returns it as stored, with its generated key as `id`.
    public func inserted(_ model: sending Model) async throws -> Model {
        let model = Unchecked(model)
        return try await store.executor.run(.write) { try self.inserted(model.value) }
    }

    /// Inserts models in one transaction and returns them as stored.
    public func inserted(contentsOf models: sending [Model]) async throws -> [Model] {
        let models = Unchecked(models)
        return try await store.executor.run(.write) { try self.inserted(contentsOf: models.value) }
    }

    /// Replaces or inserts the model, setting a nil `id` to the generated key.
    public func save(_ model: inout sending Model) async throws {
        let given = Unchecked(copying: model)
        let stored = try await store.executor.run(.write) {
            var model = given.value
            try self.save(&model)
            return Unchecked(model)
        }
        model = stored.value
    }
}
