import Foundation
import GRDB

extension DocumentCollection {
    /// Inserts a document and returns its key: the model's `id`, or a generated
    /// integer key when the model has none (or its optional `id` is nil; the
    /// stored document then holds the key as its `id`: use `insert(&model)`
    /// or `inserted(_:)` to get it back in the model too).
    ///
    /// - Throws: ``DocStoreError/duplicateKey(collection:key:)`` when the key is
    ///   taken (use ``save(_:)`` to replace), ``DocStoreError/encodingFailed(collection:key:codingPath:reason:)``
    ///   when the model can't be stored as JSON,
    ///   ``DocStoreError/nestingTooDeep(collection:key:limit:)`` when it nests
    ///   deeper than ``DocumentStore/maximumNestingDepth``. Nothing is written then.
    @discardableResult
    public func insert(_ model: Model) throws -> DocumentKey {
        try access {
            try store.writeAccess { db in try insertOne(model, in: db).key }
        }
    }

    /// Inserts documents in one transaction: all of them, or none if one fails.
    /// Returns their keys in order.
    @discardableResult
    public func insert<Models: Sequence>(contentsOf models: Models) throws -> [DocumentKey] where Models.Element == Model {
        try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) {
                    var keys: [DocumentKey] = []
                    keys.reserveCapacity(models.underestimatedCount)
                    // A bulk load into an empty collection makes its field columns after it.
                    if models.underestimatedCount >= Self.bulkLoadSize {
                        try loadingWithFieldColumnsAfter(in: db) { try insertBatch(models, in: db) { key, _ in keys.append(key) } }
                    } else {
                        try insertBatch(models, in: db) { key, _ in keys.append(key) }
                    }
                    return keys
                }
            }
        }
    }

    /// Saves documents (each inserted, or replacing the one stored under its
    /// key) in one transaction: all of them, or none if one fails; a later
    /// document of the same key wins.
    public func save<Models: Sequence>(contentsOf models: Models) throws where Models.Element == Model {
        try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) {
                    for model in models { try save(model) }
                }
            }
        }
    }

    /// Inserts the document, or replaces the one stored under the same key.
    ///
    /// - Throws: ``DocStoreError/missingKey(collection:reason:)`` for models without
    ///   an `id` (change those with ``update(_:_:)``), and for models whose optional
    ///   `id` is nil (`save(&model)` inserts those and sets their `id`).
    public func save(_ model: Model) throws {
        try access {
            guard let key = keyOf?(model) else {
                throw DocStoreError.missingKey(collection: name, reason: keyOf == nil
                    ? "the model has no id, so save can't tell which document to replace; use update(key) { … }"
                    : Model.self == JSONValue.self
                    ? "the document has no usable \"id\" member (an integer or a string)"
                    : "the model's id is nil, so save can't tell which document to replace; use save(&model) or insert(&model), which generate the key and set the id")
            }
            try store.writeAccess { db in
                try ensuringCollection(keyKind: key.kind, in: db) { info in
                    let key = adapt(key, to: info.keyKind)
                    try check(key, against: info)
                    // Observers are told whether a save inserted or replaced, and what.
                    let old = store.changeTracker.isObserved(name) ? try storedBody(key, in: db) : nil
                    let statement = try RawStatement(db, sql: sql.upsert)
                    defer { statement.finish() }
                    statement.bind(key, at: 1)
                    try ModelCoding.withEncoded(model, collection: name, key: key) {
                        statement.bindStatic($0, at: 2)
                        try step(statement, key: key, in: db)
                        if let old {
                            store.changeTracker.record(RecordedWrite(
                                collection: name, kind: old == .absent ? .insert : .update, key: key,
                                old: old, new: .stored(Array($0))), in: db)
                        }
                    }
                }
            }
        }
    }

    /// Reads the document stored under `key`, lets `mutate` change it, and writes it
    /// back, atomically: no other write can slip in between. Returns the new value.
    ///
    ///     try teams.update(1) { $0.nickName = "Sox" }
    ///
    /// - Throws: ``DocStoreError/documentNotFound(collection:key:)`` when there is no
    ///   such document; whatever `mutate` throws, leaving the document unchanged.
    @discardableResult
    public func update(_ key: some DocumentKeyRepresentable, _ mutate: (inout Model) throws -> Void) throws -> Model {
        let key = key.documentKey
        return try access {
            try store.writeAccess { db in
                // Inside a transaction already, no savepoint is needed: the only write
                // is the final UPDATE, one statement, atomic on its own.
                try store.withinTransaction(db, unlessInsideOne: true) {
                    guard let info = try store.knownCollection(named: name, in: db) else {
                        throw DocStoreError.documentNotFound(collection: name, key: key)
                    }
                    try check(key, against: info)
                    let select = try RawStatement(db, sql: sql.selectBody)
                    select.bind(key, at: 1)
                    guard try select.step() else {
                        select.finish()
                        throw DocStoreError.documentNotFound(collection: name, key: key)
                    }
                    var model = try ModelCoding.decode(Model.self, from: select.bytes(at: 0), collection: name, key: key)
                    let old = store.changeTracker.isObserved(name) ? Array(select.bytes(at: 0)) : nil
                    select.finish()
                    try mutate(&model)
                    if let newKey = keyOf?(model).map({ adapt($0, to: info.keyKind) }), newKey != key {
                        throw DocStoreError.keyChanged(collection: name, from: key, to: newKey)
                    }
                    if assignKey != nil, Model.self != JSONValue.self, keyOf?(model) == nil {
                        throw DocStoreError.missingKey(collection: name, reason: "the update closure set the id of document \(key) to nil; a document's key never changes")
                    }
                    let statement = try RawStatement(db, sql: sql.replaceBody)
                    defer { statement.finish() }
                    statement.bind(key, at: 2)
                    try ModelCoding.withEncoded(model, collection: name, key: key) {
                        statement.bindStatic($0, at: 1)
                        try step(statement, key: key, in: db)
                        if let old {
                            store.changeTracker.record(RecordedWrite(
                                collection: name, kind: .update, key: key, old: .stored(old), new: .stored(Array($0))), in: db)
                        }
                    }
                    return model
                }
            }
        }
    }

    /// Deletes the document stored under `key`. Returns whether there was one.
    @discardableResult
    public func delete(_ key: some DocumentKeyRepresentable) throws -> Bool {
        let key = key.documentKey
        return try access {
            try store.writeAccess { db in
                guard let info = try store.knownCollection(named: name, in: db) else { return false }
                try check(key, against: info)
                guard store.changeTracker.isObserved(name) else {
                    let statement = try RawStatement(db, sql: sql.delete)
                    defer { statement.finish() }
                    statement.bind(key, at: 1)
                    try statement.step()
                    return db.changesCount > 0
                }
                let statement = try RawStatement(db, sql: sql.deleteReturningBody)
                defer { statement.finish() }
                statement.bind(key, at: 1)
                guard try statement.step() else { return false }
                let old = Array(statement.bytes(at: 0))
                while try statement.step() {}
                store.changeTracker.record(.deleted(key, .stored(old), in: name), in: db)
                return true
            }
        }
    }

    /// Deletes every document (the collection and its indexes remain). Returns how
    /// many were deleted.
    @discardableResult
    public func deleteAll() throws -> Int {
        try access {
            try store.writeAccess { db in
                guard try store.knownCollection(named: name, in: db) != nil else { return 0 }
                if store.changeTracker.isObserved(name) {
                    return try store.withinTransaction(db) { try recordDeletionOfAll(in: db, deleting: true) }
                }
                let statement = try RawStatement(db, sql: sql.deleteAll)
                defer { statement.finish() }
                try statement.step()
                return db.changesCount
            }
        }
    }

    // MARK: Internals

    /// Inserts one model; the collection is created on the first insert. Returns
    /// its key and the model as stored (with a generated key written in).
    func insertOne(_ model: Model, in db: Database) throws -> (key: DocumentKey, model: Model) {
        let givenKey = keyOf?(model)
        return try ensuringCollection(keyKind: givenKey?.kind ?? .integer, in: db, forceTransaction: assignKey != nil && givenKey == nil) { info in
            var statements = InsertStatements(recordsChanges: store.changeTracker.isObserved(name))
            defer { statements.recordInserts(in: db, to: store.changeTracker) }
            var inserted: (key: DocumentKey, model: Model)?
            try insert(model, givenKey: givenKey, into: info, in: db, statements: &statements) { inserted = ($0, $1) }
            guard let inserted else { throw DocStoreError.missingKey(collection: name, reason: "the document was not inserted") }
            return inserted
        }
    }

    /// Inserts many models in the caller's transaction, looking the collection and
    /// its statements up once rather than once a document.
    func insertBatch<Models: Sequence>(_ models: Models, in db: Database) throws -> [(key: DocumentKey, model: Model)] where Models.Element == Model {
        var inserted: [(key: DocumentKey, model: Model)] = []
        inserted.reserveCapacity(models.underestimatedCount)
        try insertBatch(models, in: db) { key, model in inserted.append((key, model)) }
        return inserted
    }

    /// The same, handing each key and model as stored to `inserted` (a caller
    /// that keeps only the keys copies no model: W1 spent a few hundred
    /// instructions a document copying them).
    func insertBatch<Models: Sequence>(
        _ models: Models, in db: Database, _ inserted: (DocumentKey, Model) -> Void
    ) throws where Models.Element == Model {
        var info: CollectionInfo?
        var statements = InsertStatements(recordsChanges: store.changeTracker.isObserved(name))
        defer { statements.recordInserts(in: db, to: store.changeTracker) }
        // Walked as an array, by index: a generic sequence's iterator is called
        // through its protocol for every document (an array, the usual batch,
        // isn't copied).
        let array = models as? [Model] ?? Array(models)
        for index in array.indices {
            if let info {
                try insert(array[index], givenKey: keyOf?(array[index]), into: info, in: db, statements: &statements, inserted)
            } else {
                // The first document may create the collection.
                let (key, stored) = try insertOne(array[index], in: db)
                inserted(key, stored)
                info = try store.knownCollection(named: name, in: db)
            }
        }
    }

    /// The insert statements of one call, prepared on first use, and the encoder
    /// its documents share.
    struct InsertStatements {
        var withKey: RawStatement?
        var generated: RawStatement?
        let encoder = StreamEncoder()
        /// How the models are encoded, found once for the call.
        let encoding = DocumentEncoding<Model>()
        /// The largest integer key, once read: keys generated in one call follow it.
        var largestKey: Int64?
        /// Whether the inserts are recorded for observers; decided once a call
        /// (observers are added between transactions).
        let recordsChanges: Bool
        /// The inserts made and not yet handed to the change tracker: the call
        /// hands them over at its end, also when it throws (those before the
        /// failure were made), in one lock rather than one a document.
        var inserts: [RecordedWrite] = []

        /// Notes an insert made, when inserts are recorded.
        mutating func noteInsert(_ key: DocumentKey, _ text: UnsafeRawBufferPointer, in collection: String) {
            if recordsChanges { inserts.append(.inserted(key, Array(text), in: collection)) }
        }

        /// Notes an insert made from text the caller already holds as an array.
        mutating func noteInsert(_ key: DocumentKey, _ text: [UInt8], in collection: String) {
            if recordsChanges { inserts.append(.inserted(key, text, in: collection)) }
        }

        /// Hands the inserts noted so far to `tracker`.
        mutating func recordInserts(in db: Database, to tracker: ChangeTracker) {
            guard !inserts.isEmpty else { return }
            let handed = inserts
            inserts = []
            tracker.record(batch: consume handed, in: db)
        }
    }

    /// Inserts one model and hands `inserted` its key and the model as stored
    /// (with a generated key written in). A callback rather than a returned
    /// `(key, Model?)`: the optional model and the tuple cost a copy of the
    /// model and a generic metadata lookup for every document (W1).
    private func insert(
        _ model: Model, givenKey: DocumentKey?, into info: CollectionInfo, in db: Database, statements: inout InsertStatements,
        _ inserted: (DocumentKey, Model) -> Void
    ) throws {
        let key = givenKey.map { adapt($0, to: info.keyKind) }
        if let key { try check(key, against: info) }
        let encoder = statements.encoder, encoding = statements.encoding
        if key == nil, assignKey != nil {
            // An untyped document without a usable "id", or a model whose optional
            // id is nil: generate a key and write it in.
            return try insertWithGeneratedKey(model, into: info, in: db, statements: &statements, inserted)
        }
        if let key {
            try insert(nil, key: key, into: info, in: db, statements: &statements) {
                try ModelCoding.withEncoded(model, encoder: encoder, encoding: encoding, collection: name, key: key, $0)
            }
            inserted(key, model)
            return
        }
        // SQLite would pick a random free rowid past Int64.max: refuse instead.
        _ = try nextKey(in: db, statements: &statements)
        let statement = try statements.generated ?? RawStatement(db, sql: sql.insertGenerated)
        statements.generated = statement
        defer { statement.finish() }
        try ModelCoding.withEncoded(model, encoder: statements.encoder, encoding: statements.encoding, collection: name, key: nil) {
            statement.bindStatic($0, at: 1)
            try step(statement, key: nil, in: db)
            statements.noteInsert(.integer(db.lastInsertedRowID), $0, in: name)
        }
        statements.largestKey = db.lastInsertedRowID
        inserted(.integer(db.lastInsertedRowID), model)
    }

    /// Inserts a model under a generated key written into it. Apart, so that the
    /// common path never makes the generated tuple's type (a runtime metadata
    /// lookup for every document).
    private func insertWithGeneratedKey(
        _ model: Model, into info: CollectionInfo, in db: Database, statements: inout InsertStatements,
        _ inserted: (DocumentKey, Model) -> Void
    ) throws {
        let encoder = statements.encoder, encoding = statements.encoding
        let generated = try nextGeneratedKey(for: model, info: info, in: db, statements: &statements)
        try insert(generated.json, key: generated.key, into: info, in: db, statements: &statements) {
            try ModelCoding.withEncoded(generated.document, encoder: encoder, encoding: encoding, collection: name, key: generated.key, $0)
        }
        inserted(generated.key, generated.document)
    }

    /// Inserts a document under `key`: its JSON text `json` when the caller has
    /// it, or what `encode` hands its closure.
    private func insert(
        _ json: [UInt8]?, key: DocumentKey, into info: CollectionInfo, in db: Database, statements: inout InsertStatements,
        encode: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        let statement = try statements.withKey ?? RawStatement(db, sql: sql.insert)
        statements.withKey = statement
        defer { statement.finish() }
        statement.bind(key, at: 1)
        // A local function capturing what it uses, not a closure value
        // capturing `self`: that boxed a copy of the collection for every
        // document.
        let name = name, path = store.path
        func write(_ bytes: UnsafeRawBufferPointer) throws {
            statement.bindStatic(bytes, at: 2)
            try Self.step(statement, key: key, in: db, collection: name, path: path)
            statements.noteInsert(key, bytes, in: name)
        }
        if let json {
            try json.withUnsafeBytes(write)
        } else {
            try encode(write)
        }
        if case .integer(let given) = key, let largest = statements.largestKey, given > largest {
            statements.largestKey = given  // generated keys of this call go past it
        }
    }

    /// Runs `body` with the collection's catalog entry, creating the collection first
    /// if needed, in a transaction (creation is two statements and must be atomic).
    /// An existing collection outside a transaction runs `body` directly, so a
    /// single-statement write costs no BEGIN/COMMIT.
    func ensuringCollection<R>(
        keyKind: KeyKind, in db: Database, forceTransaction: Bool = false, _ body: (CollectionInfo) throws -> R
    ) throws -> R {
        if !forceTransaction, let info = try store.knownCollection(named: name, in: db) {
            return try body(info)
        }
        return try store.withinTransaction(db) {
            try body(try store.ensureCollection(named: name, keyKind: keyKind, in: db))
        }
    }

    /// The next generated key: one more than the largest, which must not be
    /// `Int64.max` (keys never wrap).
    func nextKey(in db: Database, statements: inout InsertStatements) throws -> Int64 {
        let largest: Int64
        if let known = statements.largestKey {
            largest = known
        } else {
            let statement = try RawStatement(db, sql: sql.maxKey)
            defer { statement.finish() }
            try statement.step()
            largest = statement.int64(at: 0)
        }
        guard largest < Int64.max else {
            throw DocStoreError.numericOverflow(
                collection: name, field: nil, key: .integer(largest),
                reason: "the collection's largest key is \(Int64.max), so no larger key can be generated; give new documents their own keys")
        }
        return largest + 1
    }

    private func nextGeneratedKey(
        for document: Model, info: CollectionInfo, in db: Database, statements: inout InsertStatements
    ) throws -> (key: DocumentKey, document: Model, json: [UInt8]?) {
        guard let assignKey else {
            throw DocStoreError.missingKey(collection: name, reason: "the document has no key")
        }
        if let json = document as? JSONValue {
            guard case .object(let members) = json else {
                throw DocStoreError.missingKey(collection: name, reason: "a document must be a JSON object")
            }
            if let id = members["id"] {
                throw DocStoreError.missingKey(collection: name, reason: BackendSupport.unusableIdReason(id))
            }
        }
        guard info.keyKind == .integer else {
            throw DocStoreError.missingKey(collection: name, reason: Model.self == JSONValue.self
                ? "the collection has \(info.keyKind) keys, which can't be generated: give the document an \"id\""
                : "the model's id is nil and the collection has \(info.keyKind) keys, which can't be generated: give the model an id")
        }
        let next = try nextKey(in: db, statements: &statements)
        let key = DocumentKey.integer(next)
        let stored = try assignKey(document, key)
        statements.largestKey = next
        return (key, stored.model, stored.json)
    }

    /// In a UUID collection a key given as a string (an untyped document's "id") is a UUID.
    func adapt(_ key: DocumentKey, to kind: KeyKind) -> DocumentKey {
        if case .string(let text) = key, kind == .uuid, let uuid = UUID(uuidString: text) {
            return .uuid(uuid)
        }
        return key
    }

    /// Steps a write statement, naming the collection and key in constraint errors.
    func step(_ statement: RawStatement, key: DocumentKey?, in db: Database) throws {
        try Self.step(statement, key: key, in: db, collection: name, path: store.path)
    }

    /// ``step(_:key:in:)`` for the collection `collection` of the store at `path`,
    /// for closures that shouldn't capture the collection.
    static func step(_ statement: RawStatement, key: DocumentKey?, in db: Database, collection: String, path: String?) throws {
        do {
            try statement.step()
        } catch let failure {
            if failure.isPrimaryKeyViolation, let key {
                throw DocStoreError.duplicateKey(collection: collection, key: key)
            }
            if failure.isUniqueViolation {
                throw uniqueViolation(failure, key: key, in: db, collection: collection)
            }
            throw DocStoreError(sqliteCode: failure.code, message: failure.message, collection: collection, path: path)
        }
    }

    /// The error for a unique index violation, naming the index's fields as the
    /// catalog records them. SQLite names the index in its message:
    /// `UNIQUE constraint failed: index 'docstore_ix_3'`.
    func uniqueViolation(_ failure: SQLiteFailure, key: DocumentKey?, in db: Database) -> DocStoreError {
        Self.uniqueViolation(failure, key: key, in: db, collection: name)
    }

    static func uniqueViolation(_ failure: SQLiteFailure, key: DocumentKey?, in db: Database, collection: String) -> DocStoreError {
        let parts = failure.message.split(separator: "'", omittingEmptySubsequences: false)
        if parts.count >= 2, let index = try? Catalog.index(named: String(parts[1]), in: db) {
            return .uniqueConstraint(collection: collection, fields: index.fields.map(\.description), key: key)
        }
        return .uniqueConstraint(collection: collection, fields: [failure.message], key: key)
    }

    /// The stored body under `key`, as recorded for observers.
    func storedBody(_ key: DocumentKey, in db: Database) throws -> RecordedWrite.Body {
        let select = try RawStatement(db, sql: sql.selectBody)
        defer { select.finish() }
        select.bind(key, at: 1)
        return try select.step() ? .stored(Array(select.bytes(at: 0))) : .absent
    }

    /// Records the deletion of every document (the collection is being emptied or
    /// dropped), deleting them too when `deleting`. Returns how many there were.
    @discardableResult
    func recordDeletionOfAll(in db: Database, deleting: Bool = false) throws -> Int {
        guard let info = try store.knownCollection(named: name, in: db) else { return 0 }
        let statement = try RawStatement(db, sql: deleting ? sql.deleteAllReturning : sql.selectAll, cached: false)
        defer { statement.finish() }
        var count = 0
        while try statement.step() {
            let key = statement.key(at: 0, kind: info.keyKind)
            store.changeTracker.record(.deleted(key, .stored(Array(statement.bytes(at: 1))), in: name), in: db)
            count += 1
        }
        return count
    }
}
