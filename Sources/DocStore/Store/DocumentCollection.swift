import GRDB

/// A named collection of documents in a ``DocumentStore``: typed `Codable` models,
/// or ``JSONValue`` documents for untyped use. Both kinds share the same tables.
///
///     let teams = store.collection(Team.self)
///     try teams.insert(Team(id: 1, city: "Boston", nickName: "Red Sox", abbreviation: "BOS"))
///     let bos = try teams.get(1)                 // Team?
///     try teams.update(1) { $0.nickName = "Sox" }
///
/// A collection is created on its first write; reading a collection that doesn't
/// exist yet finds nothing. All methods throw ``DocStoreError`` for store
/// failures and rethrow what your own closures throw.
public struct DocumentCollection<Model: Codable>: @unchecked Sendable {
    /// What the collection is, in one reference: a collection is copied into
    /// every closure and task that uses it, and as separate members (a dozen SQL
    /// texts among them) each copy retained and released them one by one, a
    /// tenth of an async `get`'s time.
    private let core: Core

    /// The collection's name.
    public var name: String { core.name }
    var store: DocumentStore { core.store }
    /// Extracts a model's key; nil when keys are generated. A pure function of the
    /// model; it is not `@Sendable` only because it captures `Model`'s metatype,
    /// which is why the collection is `@unchecked Sendable`: its other members are.
    var keyOf: ((Model) -> DocumentKey?)? { core.keyOf }
    /// Writes a generated key into a document whose `keyOf` is nil (an untyped
    /// document without `"id"`, a model whose optional `id` is nil) and returns
    /// the document as stored, with its JSON text when already encoded. Nil when
    /// keys are never written into documents.
    var assignKey: ((Model, DocumentKey) throws -> (model: Model, json: [UInt8]?))? { core.assignKey }
    /// Why this collection can't be used, thrown by every operation: a default
    /// name another type already uses, or a generic type's (see
    /// `DocumentStore.collection(_:named:)`).
    var nameProblem: DocStoreError? { core.nameProblem }
    var sql: CollectionSQL { core.sql }

    private final class Core: @unchecked Sendable {
        let name: String
        let store: DocumentStore
        let keyOf: ((Model) -> DocumentKey?)?
        let assignKey: ((Model, DocumentKey) throws -> (model: Model, json: [UInt8]?))?
        let nameProblem: DocStoreError?
        let sql: CollectionSQL

        init(name: String, store: DocumentStore, keyOf: ((Model) -> DocumentKey?)?,
             assignKey: ((Model, DocumentKey) throws -> (model: Model, json: [UInt8]?))?, nameProblem: DocStoreError?) {
            self.name = name
            self.store = store
            self.keyOf = keyOf
            self.assignKey = assignKey
            self.nameProblem = nameProblem
            self.sql = CollectionSQL(collection: name)
        }
    }

    init(store: DocumentStore, name: String, keyOf: ((Model) -> DocumentKey?)?,
         assignKey: ((Model, DocumentKey) throws -> (model: Model, json: [UInt8]?))? = nil, nameProblem: DocStoreError? = nil) {
        core = Core(name: name, store: store, keyOf: keyOf, assignKey: assignKey, nameProblem: nameProblem)
    }

    /// Runs one operation of this collection: throws the collection's name
    /// problem, if any, then maps SQLite's errors to ``DocStoreError``s.
    func access<R>(_ body: () throws -> R) throws -> R {
        if let nameProblem { throw nameProblem }
        return try store.access(collection: name, body)
    }

    // MARK: Reading

    /// Refuses a document whose own key (its `"id"`) is not the one it is stored
    /// under, written so by another tool: handed out, a save of it would write
    /// over the document it names.
    private func checkOwnKey(of model: Model, storedUnder key: DocumentKey, info: CollectionInfo) throws {
        let own = keyOf?(model).map { adapt($0, to: info.keyKind) }
        if let reason = BackendSupport.readByKeyProblem(model, ownKey: own, storedUnder: adapt(key, to: info.keyKind)) {
            throw DocStoreError.corruptDocument(collection: name, key: key, reason: reason)
        }
    }

    /// The document stored under `key`, or `nil` when there is none.
    public func get(_ key: some DocumentKeyRepresentable) throws -> Model? {
        let key = key.documentKey
        return try access {
            let read = { (statement: RawStatement, info: CollectionInfo) throws -> Model? in
                try check(key, against: info)
                statement.bind(key, at: 1)
                guard try statement.step() else { return nil }
                let model = try ModelCoding.decode(Model.self, from: statement.bytes(at: 0), collection: name, key: key)
                try checkOwnKey(of: model, storedUnder: key, info: info)
                return model
            }
            if let found = try store.pointRead(collection: name, sql: sql.selectBody, read) { return found }
            return try store.readAccess { db in
                guard let info = try store.knownCollection(named: name, in: db) else { return nil }
                let statement = try RawStatement(db, sql: sql.selectBody)
                defer { statement.finish() }
                return try read(statement, info)
            }
        }
    }

    /// The documents stored under `keys`, in the order of `keys`, skipping keys that
    /// have no document. Runs one statement for up to 512 keys.
    public func get<Keys: Sequence>(_ keys: Keys) throws -> [Model] where Keys.Element: DocumentKeyRepresentable {
        let keys = keys.map(\.documentKey)
        if keys.isEmpty { return [] }
        return try access {
            try store.readAccess { db in
                guard let info = try store.knownCollection(named: name, in: db) else { return [] }
                for key in keys { try check(key, against: info) }
                var found: [DocumentKey: Model] = [:]
                var start = 0
                while start < keys.count {
                    let chunk = keys[start..<min(start + CollectionSQL.maximumKeysPerStatement, keys.count)]
                    start += chunk.count
                    let placeholders = CollectionSQL.placeholderCount(for: chunk.count)
                    let statement = try RawStatement(db, sql: sql.selectBodies(placeholders: placeholders))
                    defer { statement.finish() }
                    for index in 0..<placeholders {
                        // Pad with the chunk's last key: IN ignores repeats.
                        statement.bind(chunk[chunk.startIndex + min(index, chunk.count - 1)], at: Int32(index + 1))
                    }
                    while try statement.step() {
                        let key = statement.key(at: 0, kind: info.keyKind)
                        found[key] = try ModelCoding.decode(Model.self, from: statement.bytes(at: 1), collection: name, key: key)
                    }
                }
                return keys.compactMap { found[$0] }
            }
        }
    }

    /// Whether a document is stored under `key`.
    public func exists(_ key: some DocumentKeyRepresentable) throws -> Bool {
        let key = key.documentKey
        return try access {
            let read = { (statement: RawStatement, info: CollectionInfo) throws -> Bool in
                try check(key, against: info)
                statement.bind(key, at: 1)
                return try statement.step()
            }
            if let found = try store.pointRead(collection: name, sql: sql.exists, read) { return found }
            return try store.readAccess { db in
                guard let info = try store.knownCollection(named: name, in: db) else { return false }
                let statement = try RawStatement(db, sql: sql.exists)
                defer { statement.finish() }
                return try read(statement, info)
            }
        }
    }

    /// The number of documents in the collection. Damaged documents count too:
    /// ``damagedDocuments()`` lists them.
    public func count() throws -> Int {
        try access {
            try store.readAccess { db in
                guard try store.knownCollection(named: name, in: db) != nil else { return 0 }
                let statement = try RawStatement(db, sql: sql.count)
                defer { statement.finish() }
                try statement.step()
                return Int(statement.int64(at: 0))
            }
        }
    }

    /// The keys of all documents, in key order.
    public func keys() throws -> [DocumentKey] {
        var keys: [DocumentKey] = []
        try forEachKey { keys.append($0) }
        return keys
    }

    /// Calls `body` with the key of every document, in key order, streaming (a
    /// sample of a million documents holds none of their keys).
    func forEachKey(_ body: (DocumentKey) throws -> Void) throws {
        try access {
            try store.readAccess { db in
                guard let info = try store.knownCollection(named: name, in: db) else { return }
                let statement = try RawStatement(db, sql: sql.selectKeys)
                defer { statement.finish() }
                while try statement.step() { try body(statement.key(at: 0, kind: info.keyKind)) }
            }
        }
    }

    /// Calls `body` with every document in key order, streaming: memory stays flat
    /// however large the collection. The documents come from one consistent snapshot.
    ///
    /// - Throws: a damaged or undecodable document stops the iteration with an error
    ///   naming its key; ``damagedDocuments()`` lists them all.
    public func forEach(_ body: (Model) throws -> Void) throws {
        let decoding = DocumentDecoding<Model>()
        try forEachStored { key, bytes in
            try body(try ModelCoding.decode(Model.self, from: bytes, collection: name, key: key, decoding: decoding))
        }
    }

    /// All documents, in key order. Loads them all in memory: prefer ``forEach(_:)``
    /// for large collections.
    public func all() throws -> [Model] {
        var models: [Model] = []
        try forEach { models.append($0) }
        return models
    }

    /// Every document that cannot be read as `Model`, with the reason: damaged
    /// JSON, or JSON that no longer decodes (a renamed field…). Reads the whole
    /// collection; the other documents stay readable whatever this finds.
    public func damagedDocuments() throws -> [DocStoreError] {
        var damaged: [DocStoreError] = []
        let decoding = DocumentDecoding<Model>()
        try forEachStored { key, bytes in
            do {
                _ = try ModelCoding.decode(Model.self, from: bytes, collection: name, key: key, decoding: decoding)
            } catch let error as DocStoreError {
                damaged.append(error)
            }
        }
        return damaged
    }

    /// Streams the stored key and JSON bytes of every document in one read transaction.
    func forEachStored(_ body: (DocumentKey, UnsafeRawBufferPointer) throws -> Void) throws {
        try access {
            try store.read { _ in
                try store.readAccess { db in
                    guard let info = try store.knownCollection(named: name, in: db) else { return }
                    let statement = try RawStatement(db, sql: sql.selectAll)
                    defer { statement.finish() }
                    while try statement.step() {
                        try body(statement.key(at: 0, kind: info.keyKind), statement.bytes(at: 1))
                    }
                }
            }
        }
    }

    /// Throws unless `key` is of the collection's key kind.
    func check(_ key: DocumentKey, against info: CollectionInfo) throws {
        guard key.kind == info.keyKind else {
            throw DocStoreError.keyKindMismatch(collection: name, expected: info.keyKind, found: key.kind)
        }
    }
}
