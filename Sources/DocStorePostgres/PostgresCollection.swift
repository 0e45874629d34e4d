@_spi(Backends) import DocStore
import Foundation
import PostgresNIO

/// A collection of a ``PostgresDocumentStore``: one table, `key` and `body jsonb`.
/// Its methods mirror ``DocStore/DocumentCollection``'s, as async calls. The
/// table is created on the first write, with the first key's kind.
public struct PostgresCollection<Model: Codable & Sendable>: Sendable {
    /// The collection's name (its table's name).
    public let name: String
    let store: PostgresDocumentStore
    let transaction: PostgresTransaction?
    let keyOf: @Sendable (Model) -> DocumentKey?
    /// Where a document without a key of its own gets one.
    var keySource: KeySource<Model> = .given

    var session: PostgresSession { transaction?.session ?? .pool(store.client) }

    /// Whether a single-row write is the only statement of its transaction:
    /// outside a transaction each statement is one (see `PostgresStoreSQL.aloneMark`).
    var writesAlone: Bool { transaction == nil }

    // MARK: Writing

    /// Inserts a document and returns its key: the model's `id`, or a generated
    /// integer key when the model has none (or its optional `id` is nil; the
    /// stored document then holds the key as its `id`: `insert(&model)` and
    /// `inserted(_:)` give it back in the model too), as on SQLite.
    ///
    /// - Throws: ``DocStore/DocStoreError/duplicateKey(collection:key:)`` when the
    ///   key is taken; ``DocStore/DocStoreError/encodingFailed(collection:key:codingPath:reason:)``
    ///   naming the path when a string or member name holds NUL (jsonb can't store it).
    @discardableResult
    public func insert(_ model: Model) async throws -> DocumentKey {
        try await followingDrops { try await insertOne(model).key }
    }

    /// Inserts documents in one transaction: all of them, or none when one fails.
    @discardableResult
    public func insert(contentsOf models: [Model]) async throws -> [DocumentKey] {
        try await followingDrops { try await insertAll(models).keys }
    }

    /// Documents per statement when many are inserted: one round trip per
    /// batch rather than per document.
    public static var insertBatchSize: Int { 1_000 }

    /// Inserts in batches of ``insertBatchSize`` (see ``insertKeyed(_:keys:in:)``
    /// and ``insertBatches(_:in:)``); the error of a refused batch names the
    /// document (a taken key, a unique index). Returns the keys and the models
    /// as stored (`models` itself when no key was generated).
    func insertEach(_ models: [Model]) async throws -> (keys: [DocumentKey], stored: [Model]) {
        guard models.count > 1, let transaction else {
            var keys: [DocumentKey] = [], stored: [Model] = []
            for model in models {
                let (key, model) = try await insertOne(model)
                keys.append(key)
                stored.append(model)
            }
            return (keys, stored)
        }
        if models.allSatisfy({ keyOf($0) != nil }) {
            // Every model has its own key (the usual batch): one catalog check
            // for all, the models as given.
            guard let first = keyOf(models[0]) else { return ([], []) }
            let kind = try await ensureCollection(kind: first.kind)
            let keys = try models.map { model in
                guard let given = keyOf(model) else { throw DocStoreError.missingKey(collection: name, reason: missingKeyReason) }
                return try checkedKey(given, kind: kind)
            }
            try await insertKeyed(models, keys: keys, in: transaction)
            return (keys, models)
        }
        var documents = PreparedBatch()
        documents.reserveCapacity(models.count)
        var stored = models
        var keys = KeyAllocation()
        for (index, model) in models.enumerated() {
            let prepared = try await preparedInsert(model, keys: &keys)
            documents.append(key: prepared.key, storable: prepared.json)
            stored[index] = prepared.model
        }
        try await insertBatches(documents, in: transaction)
        return (documents.keys, stored)
    }

    /// Models with their own keys, in batches of ``insertBatchSize``, each one
    /// `COPY`, all in one savepoint: a batch is encoded while the one before it
    /// is sent, so the client's encoding and the server's work overlap (a
    /// savepoint a batch cost two round trips each). When the server refuses a
    /// batch, the savepoint undoes them all and they go again a savepoint a
    /// batch, the refused one document by document, to name the document.
    private func insertKeyed(_ models: [Model], keys: [DocumentKey], in transaction: PostgresTransaction) async throws {
        let batches = stride(from: 0, to: models.count, by: Self.insertBatchSize).map { $0..<Swift.min($0 + Self.insertBatchSize, models.count) }
        var refused = false
        func send(_ rows: CopyTextRows) async throws {
            do { try await copy(rows, in: transaction) } catch { refused = true; throw error }
        }
        do {
            try await transaction.savepoint {
                var rows = try copyRows(models, keys: keys, batches[0])
                for index in batches.indices {
                    guard index + 1 < batches.count else { return try await send(rows) }
                    async let following = copyRows(models, keys: keys, batches[index + 1])
                    try await send(rows)
                    rows = try await following
                }
            }
        } catch {
            guard refused else { throw error }
            var documents = PreparedBatch()
            documents.reserveCapacity(models.count)
            let encoder = BackendSupport.ReusableEncoder<Model>()
            for (model, key) in zip(models, keys) {
                documents.append(key: key, json: try BackendSupport.withEncoded(model, reusing: encoder, collection: name, key: key) {
                    Array($0)
                })
            }
            try await insertBatches(documents, in: transaction)
        }
    }

    /// `COPY` rows of the models in `range`, checked for what jsonb can't hold.
    private func copyRows(_ models: [Model], keys: [DocumentKey], _ range: Range<Int>) throws -> CopyTextRows {
        let encoder = BackendSupport.ReusableEncoder<Model>()
        var rows = CopyTextRows()
        rows.reserveCapacity(range.count * 256)
        for index in range {
            try BackendSupport.withEncoded(models[index], reusing: encoder, collection: name, key: keys[index]) { text in
                try refuseNUL(in: text, key: keys[index])
                rows.append(key: keys[index], json: text)
            }
        }
        return rows
    }

    /// Documents in batches, each in a savepoint; a batch that fails is undone
    /// and inserted document by document, so that the error names the document
    /// (a taken key, a unique index).
    private func insertBatches(_ documents: PreparedBatch, in transaction: PostgresTransaction) async throws {
        for start in stride(from: 0, to: documents.keys.count, by: Self.insertBatchSize) {
            let batch = start..<min(start + Self.insertBatchSize, documents.keys.count)
            do {
                try await transaction.savepoint { try await insertBatch(documents, batch, in: transaction) }
            } catch {
                for index in batch {
                    let key = documents.keys[index]
                    try await mappingUniqueViolation {
                        try await session.rows(reusing: PostgresStoreSQL.insert(name), [key.binding, .text(documents.jsons[index])],
                                               collection: name, key: key)
                    }
                }
            }
        }
    }

    /// One batch as one `COPY … FROM STDIN` (keys checked of the collection's
    /// kind already): no statement to parse, no arrays to build and unnest.
    private func insertBatch(_ documents: PreparedBatch, _ batch: Range<Int>, in transaction: PostgresTransaction) async throws {
        var rows = CopyTextRows()
        rows.reserveCapacity(batch.reduce(0) { $0 + documents.jsons[$1].utf8.count + 24 })
        for index in batch { rows.append(key: documents.keys[index], storable: documents.jsons[index].utf8) }
        try await copy(rows, in: transaction)
    }

    /// Inserts the document, or replaces the one stored under its key.
    @discardableResult
    public func save(_ model: Model) async throws -> DocumentKey {
        try await followingDrops {
            let (key, json) = try await prepared(model)
            try await mappingUniqueViolation {
                try await session.rows(reusing: PostgresStoreSQL.save(name, alone: writesAlone), [key.binding, .text(json)], collection: name, key: key)
            }
            return key
        }
    }

    /// Saves documents in one transaction: all of them, or none when one fails.
    /// They are written in key order, so two batches that share documents
    /// (saved from two connections in opposite orders, say) wait for each
    /// other instead of deadlocking; a later document of the same key wins.
    public func save(contentsOf models: [Model]) async throws {
        guard transaction == nil else { return try await saveEach(models) }
        try await followingDrops { try await store.ownTransaction { try await within($0).saveEach(models) } }
    }

    private func saveEach(_ models: [Model]) async throws {
        var documents: [(key: DocumentKey, json: String)] = []
        documents.reserveCapacity(models.count)
        for model in models { documents.append(try await prepared(model)) }
        // Any one order serves, as long as every batch takes it; a key given
        // twice is written in the order given (ties by position).
        let order = documents.indices.sorted { first, second in
            let (a, b) = (documents[first].key, documents[second].key)
            return a == b ? first < second : Self.lockOrder(a, b)
        }
        for index in order {
            let (key, json) = documents[index]
            try await mappingUniqueViolation {
                try await session.rows(reusing: PostgresStoreSQL.save(name, alone: false), [key.binding, .text(json)], collection: name, key: key)
            }
        }
    }

    /// Whether `a` is written before `b` by a batch: integers by value, others by their text.
    private static func lockOrder(_ a: DocumentKey, _ b: DocumentKey) -> Bool {
        switch (a, b) {
        case let (.integer(x), .integer(y)): x < y
        case (.integer, _): true
        case (_, .integer): false
        default: a.description.utf8.lexicographicallyPrecedes(b.description.utf8)
        }
    }

    /// Replaces the document stored under the model's key.
    ///
    /// - Throws: ``DocStore/DocStoreError/documentNotFound(collection:key:)`` when there is none.
    public func update(_ model: Model) async throws {
        try await followingDrops {
            let (key, json) = try await prepared(model)
            let rows = try await mappingUniqueViolation {
                try await session.rows(reusing: PostgresStoreSQL.replace(name, alone: writesAlone), [.text(json), key.binding], collection: name, key: key)
            }
            if rows.isEmpty { throw DocStoreError.documentNotFound(collection: name, key: key) }
        }
    }

    /// Deletes the document stored under `key`; false when there was none.
    @discardableResult
    public func delete(_ key: some DocumentKeyRepresentable) async throws -> Bool {
        try await followingDrops {
            guard let kind = try await existingKeyKind() else { return false }
            let key = try checkedKey(key.documentKey, kind: kind)
            return try await !session.rows(reusing: PostgresStoreSQL.delete(name, alone: writesAlone), [key.binding], collection: name, key: key).isEmpty
        }
    }

    // MARK: Reading

    /// The document stored under `key`, or nil.
    ///
    /// - Throws: ``DocStore/DocStoreError/corruptDocument(collection:key:reason:)``
    ///   for a document another tool wrote so that it can't be handed out: a
    ///   body that is not an object, or an `"id"` that is not its key (a save
    ///   of it would write over the document it names), as on SQLite.
    public func get(_ key: some DocumentKeyRepresentable) async throws -> Model? {
        try await followingDrops {
            guard let kind = try await existingKeyKind() else { return nil }
            let key = try checkedKey(key.documentKey, kind: kind)
            let rows = try await session.rows(reusing: PostgresStoreSQL.get(name), [key.binding], collection: name, key: key)
            guard let row = rows.first else { return nil }
            var cells = row.makeIterator()
            let model = try decodeDocument(cells.next(), key: key)
            let own = keyOf(model).map { (try? checkedKey($0, kind: kind)) ?? $0 }
            if let reason = BackendSupport.readByKeyProblem(model, ownKey: own, storedUnder: key) {
                throw DocStoreError.corruptDocument(collection: name, key: key, reason: reason)
            }
            return model
        }
    }

    /// Every document, in key order.
    public func all() async throws -> [Model] {
        try await fetch(DocumentQuery())
    }

    /// The number of documents.
    public func count() async throws -> Int {
        try await count(DocumentQuery())
    }

    // MARK: Queries (the AST, as the DSL and the REPL build it)

    /// The documents a query selects, in its order.
    public func fetch(_ query: DocumentQuery) async throws -> [Model] {
        try await followingDrops(reading: PostgresCompiler.subqueryCollections(of: query.condition)) {
            var models: [Model] = []
            try await forEach(query) { models.append($0) }
            return models
        }
    }

    /// The keys of the documents a query selects, in its order.
    public func keys(_ query: DocumentQuery) async throws -> [DocumentKey] {
        try await followingDrops(reading: PostgresCompiler.subqueryCollections(of: query.condition)) {
            guard let compiler = try await compiler(for: query.condition, relevance: query.relevance != nil) else { return [] }
            let kind = keyKind()
            return try await session.rows(try compiler.keys(query), collection: name).map {
                try decodeKey($0.makeRandomAccess()[0], kind: kind)
            }
        }
    }

    /// The number of documents a query selects.
    public func count(_ query: DocumentQuery) async throws -> Int {
        try await followingDrops(reading: PostgresCompiler.subqueryCollections(of: query.condition)) {
            guard let compiler = try await compiler(for: query.condition, relevance: query.relevance != nil) else { return 0 }
            let rows = try await session.rows(try compiler.count(query), collection: name)
            return Int(try rows.first?.decode(Int64.self) ?? 0)
        }
    }

    /// Deletes the documents a query selects; returns how many.
    ///
    /// - Throws: ``DocStore/DocStoreError/invalidQuery(collection:field:reason:)``,
    ///   deleting nothing, when the condition compares with a string holding
    ///   NUL: queries compare it only up to the NUL, so the delete would take
    ///   documents it doesn't mean; ``DocStore/DocStoreError/damagedDocuments(collection:keys:)``,
    ///   deleting nothing, naming a selected document whose body is not a JSON
    ///   object (another tool wrote it: `check` and `repair` deal with it).
    @discardableResult
    public func delete(_ query: DocumentQuery) async throws -> Int {
        try BackendSupport.refuseCutStrings(query, collection: name, verb: "delete")
        return try await followingDrops(reading: PostgresCompiler.subqueryCollections(of: query.condition)) {
            guard let compiler = try await compiler(for: query.condition, relevance: query.relevance != nil) else { return 0 }
            let statement = try compiler.delete(query)
            let kind = keyKind()
            let run = { (session: PostgresSession) async throws -> Int in
                try await session.rows(PostgresStoreSQL.lockCollectionUpdates, [.text(name)], collection: name)
                // A body that is not an object has every field missing, so
                // `$0.y == nil` selected it, and deleted it for good (helper-60).
                if let row = try await session.rows(compiler.firstNonObject(query), collection: name).first {
                    throw DocStoreError.damagedDocuments(collection: name, keys: [try decodeKey(row.makeRandomAccess()[0], kind: kind)])
                }
                return try await session.rows(statement, collection: name).count
            }
            if let transaction { return try await run(transaction.session) }
            return try await store.ownTransaction { try await run($0.session) }
        }
    }

    /// A summary of the documents a query selects (after its limit and
    /// offset), as ``DocStore/DocumentCollection/aggregate(_:_:)`` computes it
    /// on SQLite: `count`; `min`/`max` in DocStore's sort order (`null` when
    /// none); `sum` (an integer when every number is one, overflow an error) and
    /// `average` (`null` when none); `distinct` and `countBy` in sort order.
    public func aggregate(_ query: DocumentQuery, _ aggregate: Aggregate) async throws -> JSONValue {
        if case .count = aggregate { return .integer(Int64(try await count(query))) }
        return try await followingDrops(reading: PostgresCompiler.subqueryCollections(of: query.condition)) {
            try await aggregateOnce(query, aggregate)
        }
    }

    private func aggregateOnce(_ query: DocumentQuery, _ aggregate: Aggregate) async throws -> JSONValue {
        guard let compiler = try await compiler(for: query.condition, relevance: query.relevance != nil) else {
            switch aggregate {
            case .sum: return .integer(0)
            case .distinct, .countBy: return .array([])
            default: return .null
            }
        }
        let statement = try compiler.aggregate(aggregate, query)
        let rows: [PostgresRow]
        do {
            rows = try await session.rows(statement, collection: name)
        } catch PostgresStoreError.server(let state, let message, _, _, _) where state == "22003"
                    && PostgresCompiler.overflow(inMessage: message).sum {
            throw BackendSupport.sumOverflow(aggregate, collection: name)
        }
        switch aggregate {
        case .count, .min, .max:
            guard let row = rows.first else { return .null }
            let (_, text) = try row.decode((Int32, String).self)
            return try BackendSupport.parse(Array(text.utf8), collection: name, key: nil)
        case .sum, .average:
            guard let text = try rows.first?.decode(String?.self) else { return .null }
            return try BackendSupport.parse(Array(text.utf8), collection: name, key: nil)
        case .distinct, .countBy:
            return .array(try rows.map { row in
                let (_, text, count) = try row.decode((Int32, String?, Int64).self)
                let value = try text.map { try BackendSupport.parse(Array($0.utf8), collection: name, key: nil) } ?? .null
                if case .distinct = aggregate { return value }
                return ["value": value, "count": .integer(count)]
            })
        }
    }

    // MARK: Internals

    /// The key kind the collection has, as this session sees it; nil when it doesn't exist.
    func keyKind() -> KeyKind? {
        if let changed = transaction?.keyKind(of: name) { return changed }
        return store.catalog.withLock { $0[ExactText(name)] }
    }

    /// A compiler for a condition, knowing the key kinds of the collections its
    /// subqueries read; nil when this collection doesn't exist (nothing to select).
    ///
    /// - Parameter relevance: whether the query sorts by relevance (a `matches`
    ///   in the condition is seen without being told).
    func compiler(for condition: Condition, relevance: Bool = false) async throws -> PostgresCompiler? {
        try await compiler(reading: PostgresCompiler.subqueryCollections(of: condition),
                           searching: relevance || PostgresCompiler.searches(condition))
    }

    /// A compiler knowing the key kinds of this collection and of `others`
    /// (those that exist); nil when this collection doesn't exist.
    /// With `searching`, the compiler also knows the collection's search
    /// indexes, read from the catalog (so one another process made counts).
    func compiler(reading others: Set<String>, searching: Bool = false) async throws -> PostgresCompiler? {
        let needed = others.union([name])
        let kindOf = { (other: String) in
            PostgresCollection<JSONValue>(name: other, store: store, transaction: transaction, keyOf: { _ in nil }).keyKind()
        }
        if needed.contains(where: { kindOf($0) == nil }) {
            try await store.reloadCatalog()  // another process may have created it
        }
        var kinds: [String: KeyKind] = [:]
        for other in needed {
            if let kind = kindOf(other) { kinds[other] = kind }
        }
        guard kinds[name] != nil else { return nil }
        return PostgresCompiler(collection: name, keyKinds: kinds,
                                hasContainmentIndex: store.containmentIndexed.withLock { $0.contains(name) },
                                searchIndexes: searching ? try await searchIndexes(in: session) : [],
                                indexedPaths: store.indexedPaths.withLock { $0[name] ?? [] })
    }

    /// The model's key and JSON text, the collection created for its key's kind
    /// when missing. Refuses what jsonb can't store, naming the path.
    func prepared(_ model: Model) async throws -> (DocumentKey, String) {
        guard let given = keyOf(model) else {
            throw DocStoreError.missingKey(collection: name, reason: missingKeyReason)
        }
        let json = try BackendSupport.encode(model, collection: name, key: given)
        try refuseNUL(in: json, key: given)
        let kind = try await ensureCollection(kind: given.kind)
        let key = try checkedKey(given, kind: kind)
        return (key, String(decoding: JSONBNumberSpelling.storable(json), as: UTF8.self))
    }

    /// Refuses JSON text that jsonb can't store, naming the path of the NUL.
    func refuseNUL(in json: [UInt8], key: DocumentKey) throws {
        try json.withUnsafeBytes { try refuseNUL(in: $0, key: key) }
    }

    /// ``refuseNUL(in:key:)`` of JSON text in memory.
    func refuseNUL(in json: UnsafeRawBufferPointer, key: DocumentKey) throws {
        if let path = try BackendSupport.pathOfNUL(in: json) {
            throw DocStoreError.encodingFailed(collection: name, key: key, codingPath: path.description,
                                               reason: "PostgreSQL's jsonb can't store a string or member name containing NUL (\\u0000)")
        }
    }

    /// The collection's key kind, reading the catalog again when this process
    /// doesn't know the collection (another may have created it); nil when it
    /// doesn't exist.
    func existingKeyKind() async throws -> KeyKind? {
        if let kind = keyKind() { return kind }
        try await store.reloadCatalog()
        return keyKind()
    }

    /// The key adapted to the collection's kind (a UUID collection takes UUID
    /// strings), or an error when it is of another kind.
    func checkedKey(_ key: DocumentKey, kind: KeyKind) throws -> DocumentKey {
        switch (key, kind) {
        case (.integer, .integer), (.string, .string), (.uuid, .uuid): return key
        case (.string(let s), .uuid):
            if let uuid = UUID(uuidString: s) { return .uuid(uuid) }
        case (.uuid(let u), .string): return .string(u.uuidString)
        default: break
        }
        throw DocStoreError.keyKindMismatch(collection: name, expected: kind, found: key.kind)
    }

    /// The collection's key kind, creating its table and catalog row first when
    /// it doesn't exist (in the caller's transaction, or in one of its own).
    func ensureCollection(kind: KeyKind) async throws -> KeyKind {
        if let existing = keyKind() { return existing }
        if transaction == nil {
            try await store.reloadCatalog()
            if let existing = keyKind() { return existing }
        }
        try PostgresCollectionName.validate(name)
        guard let transaction else {
            return try await store.ownTransaction { transaction in
                try await within(transaction).ensureCollection(kind: kind)
            }
        }
        let session = transaction.session
        // Another process may be creating the same collection: wait for it, then
        // find its table (CREATE TABLE IF NOT EXISTS alone fails in that race).
        try await session.rows(PostgresStoreSQL.lockCollectionSchema, [.text(name)], collection: name)
        if let recorded = try await recordedKeyKind(in: session) {
            // Created by another process since this one read the catalog. Its
            // table and triggers are in place: touching them here would lock the
            // table against that process's writes while this transaction waits
            // for a lock it holds (a deadlock, seen with two shells inserting).
            transaction.created(name, kind: recorded)
            return recorded
        }
        // A table of that name the catalog doesn't record (its row deleted, or
        // another program's table): writing into it would mix documents into
        // someone else's rows, and a key kind guessed from the first document
        // could be the wrong one for its key column (the store then refused to open).
        try await refuseOtherForm(in: session)
        if try await session.rows(PostgresStoreSQL.tableExists, [.text(name)], collection: name).first?.decode(Bool.self) == true {
            throw DocStoreError.invalidQuery(
                collection: name, field: nil,
                reason: "the database has a table named \(DocumentKey.quotedForMessages(name)) that the catalog does not record (another program's table, or a collection whose \(PostgresStoreSQL.catalogTable) row was deleted: .check names it); choose another collection name, or restore its catalog row with psql")
        }
        try await session.rows(PostgresStoreSQL.createTable(name, keyKind: kind), [], collection: name)
        try await session.rows(PostgresStoreSQL.recordCollection, [.text(name), .text(kind.rawValue)], collection: name)
        for statement in PostgresStoreSQL.createLiveTriggers(name) { try await session.rows(statement, [], collection: name) }
        // Indexes created before the first document are built with the table.
        for index in try await indexes(in: session) {
            for statement in try BackendSupport.postgresCreateIndex(index) { try await session.rows(statement, [], collection: name) }
        }
        for index in try await searchIndexes(in: session) {
            for statement in try PostgresSearchSQL.create(index) { try await session.rows(statement, [], collection: name) }
        }
        let recorded = try await recordedKeyKind(in: session) ?? kind
        transaction.created(name, kind: recorded)
        return recorded
    }

    /// Whether the collection has its table, as the catalog says now (not this
    /// store's cached copy): read under the collection's schema lock, by a
    /// change that builds on the table. Another process's first insert may
    /// have made it since the cache was read; that insert built the indexes
    /// recorded then, so an index recorded now must be built here, or never is.
    func hasTable(in session: PostgresSession) async throws -> Bool {
        guard try await recordedKeyKind(in: session) != nil else { return false }
        if keyKind() == nil { try await store.reloadCatalog() }
        return true
    }

    /// The key kind the catalog records for the collection, nil when it has none.
    func recordedKeyKind(in session: PostgresSession) async throws -> KeyKind? {
        let rows = try await session.rows("SELECT key_kind FROM \(PostgresStoreSQL.catalogTable) WHERE name = $1", [.text(name)],
                                          collection: name)
        return try rows.first.flatMap { KeyKind(rawValue: try $0.decode(String.self)) }
    }

    /// The model in a `body::text` cell, decoded from the row's bytes where
    /// they lie (text comes as its UTF-8 bytes): no `String`, no copy.
    func decodeDocument(_ cell: PostgresCell?, key: DocumentKey) throws -> Model {
        guard let bytes = cell?.bytes else {
            throw DocStoreError.corruptDocument(collection: name, key: key, reason: "the server sent no document")
        }
        return try bytes.withUnsafeReadableBytes { json in
            try BackendSupport.decode(Model.self, from: json, collection: name, key: key)
        }
    }

    /// A `bigint` key where this store knows text keys: postgres-nio would read
    /// its eight bytes as a string (`"\u{0}…\u{1}"`), so the collection was made
    /// anew by another session with integer keys.
    private func refuseIntegerKey(_ cell: PostgresCell) throws {
        if cell.dataType == .int8 { throw CollectionMadeAnewElsewhere(collection: name) }
    }

    func decodeKey(_ cell: PostgresCell, kind: KeyKind?) throws -> DocumentKey {
        switch kind {
        case .integer?, nil:
            return .integer(try cell.decode(Int64.self))
        case .string?:
            try refuseIntegerKey(cell)
            return .string(try cell.decode(String.self))
        case .uuid?:
            try refuseIntegerKey(cell)
            let text = try cell.decode(String.self)
            guard let uuid = UUID(uuidString: text) else {
                throw DocStoreError.corruptDocument(collection: name, key: .string(text), reason: "the key is not a UUID")
            }
            return .uuid(uuid)
        }
    }
}
