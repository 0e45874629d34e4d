import Foundation
import GRDB
import Synchronization

/// An embedded document store: one SQLite file (in WAL mode) or an in-memory
/// database holding collections of JSON documents.
///
///     let store = try DocumentStore(path: "baseball.sqlite")
///     let teams = store.collection(Team.self)          // "teams"
///     try teams.insert(Team(id: 1, city: "Boston", nickName: "Red Sox", abbreviation: "BOS"))
///
/// A store is `Sendable`: share one instance across threads and tasks. In a file
/// store, readers run in parallel with the writer and never wait for it.
public final class DocumentStore: Sendable {
    /// How deeply a document may nest arrays and objects: 512 levels. Every entry
    /// point (Swift writes, the REPL, each import format) refuses deeper values with
    /// ``DocStoreError/nestingTooDeep(collection:key:limit:)``, so that everything
    /// stored can be read back and queried (SQLite's JSON functions stop at 1000).
    public static let maximumNestingDepth = 512

    /// The file path, or `nil` for an in-memory store.
    public let path: String?
    /// Whether the store was opened read-only.
    public let isReadOnly: Bool

    /// The damaged write-ahead log this store was opened without, when it was
    /// opened with ``DamagedLogHandling/setAsideAndOpen`` and its log was
    /// damaged: where, how many commits the store lacks, and the copy holding
    /// them. Nil otherwise.
    public let setAsideLog: SetAsideLog?

    /// The one read-write connection. Opening it writes nothing, so opening an
    /// existing store takes no lock (GRDB's `DatabasePool` writes to a store whose
    /// write-ahead log is empty when it opens, which would).
    let writer: any DatabaseWriter
    /// Read-only connections, so reads run beside the writer (the writer itself in
    /// memory).
    let reader: any DatabaseReader
    /// Fast single-document reads of file stores (nil in memory).
    let pointReader: PointReader?
    /// Collections known to exist, by name: saves a catalog look-up on every call.
    let collectionCache = CollectionCache()
    /// The catalog that compiling a query reads, per read-only connection.
    let compileCatalogCache = CompileCatalogCache()
    /// What each transaction writes, for observers (see ``ChangeTracker``).
    let changeTracker = ChangeTracker()
    /// The threads that run async callers' SQLite work (see ``DatabaseExecutor``).
    let executor: DatabaseExecutor
    /// Field samples for warnings about unknown fields (see ``fieldWarningHandler``).
    let fieldSamples = FieldSampleCache()
    /// Polls for other processes' commits when asked (see ``otherProcessPollingInterval``).
    let otherProcessMonitor = OtherProcessMonitor()
    /// Fetches run and results yielded by live queries, and change sets yielded
    /// (see ``liveQueryFetches``).
    let liveFetchCount = Atomic<Int>(0)
    let liveYieldCount = Atomic<Int>(0)
    let changeSetCount = Atomic<Int>(0)

    /// Opens the store at `path`, creating the file if it does not exist.
    ///
    /// Opening an existing store reads it on a read-only connection first and takes
    /// no write lock, so any number of processes can open one store at once.
    ///
    /// - Parameters:
    ///   - path: The store's file.
    ///   - readOnly: Open without the right to write; the file must exist.
    ///   - busyTimeout: How long an operation waits for another connection's or
    ///     process's lock before failing with ``DocStoreError/locked(path:reason:)``
    ///     (0 to about 24.8 days, SQLite's longest; beyond waits that long).
    ///   - damagedLog: What to do when the write-ahead log is damaged before
    ///     intact commits, which SQLite would drop without a word: refuse (the
    ///     default), or keep a copy of the log and open the store as of its
    ///     last good commit.
    /// - Throws: ``DocStoreError/notAStore(path:reason:)`` when the file is not
    ///   SQLite or is a SQLite database with other tables;
    ///   ``DocStoreError/unsupportedFormatVersion(path:found:supported:)`` when a
    ///   newer DocStore wrote it; ``DocStoreError/damagedCatalog(path:table:row:value:reason:)``,
    ///   ``DocStoreError/corruptStore(path:findings:)``,
    ///   ``DocStoreError/fileNotWritable(path:reason:)``, ``DocStoreError/ioError(path:reason:)``,
    ///   ``DocStoreError/locked(path:reason:)`` and ``DocStoreError/cannotOpen(path:reason:)``
    ///   for what their names say; ``DocStoreError/damagedLog(path:offset:frame:droppedCommits:)``
    ///   when the write-ahead log beside the file is damaged before intact
    ///   commits and `damagedLog` is ``DamagedLogHandling/refuse``. In every
    ///   case the file is left untouched.
    public init(path: String, readOnly: Bool = false, busyTimeout: Duration = .seconds(5),
                damagedLog: DamagedLogHandling = .refuse) throws {
        // SQLite's name for a database in memory would give each connection a
        // database of its own: reads would not see writes.
        if path == ":memory:" {
            throw DocStoreError.cannotOpen(path: path, reason: "\":memory:\" names no file; for a store in memory use DocumentStore.inMemory()")
        }
        self.path = path
        self.isReadOnly = readOnly
        let (state, setAside) = try StoreFile.inspect(path: path, readOnly: readOnly, busyTimeout: busyTimeout,
                                                      damagedLog: damagedLog)
        setAsideLog = setAside
        if readOnly, case .new = state {
            throw DocStoreError.cannotOpen(path: path, reason: "the file holds no store yet (opened read-only, so none is created)")
        }
        // A store on a read-only file system is read as immutable (see sqliteLocation).
        let location = StoreFile.sqliteLocation(path: path, readOnly: readOnly)
        do {
            var configuration = StoreFile.configuration(readOnly: readOnly, busyTimeout: busyTimeout)
            configuration.label = "DocStore"
            let queue = try DatabaseQueue(path: location, configuration: configuration)
            if case .new = state {
                // Another process may be creating the same store: installing is
                // idempotent, and the catalog is checked again once installed.
                try queue.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA journal_mode = WAL")
                    try db.inTransaction(.immediate) {
                        try Catalog.install(in: db)
                        if let problem = try Catalog.problem(in: db, path: path) { throw problem }
                        return .commit
                    }
                }
            }
            // A first read opens the write-ahead log (and its -shm index), which
            // read-only connections can't create.
            try queue.read { db in _ = try db.tableExists(Catalog.metaTable) }
            // The file the writer opened: a reading connection opened later on
            // another file at the path (moved there since) is refused.
            let opened = FileIdentity(path: path)
            var readerConfiguration = configuration
            readerConfiguration.readonly = true
            readerConfiguration.label = "DocStore.readers"
            readerConfiguration.prepareDatabase { _ in try opened?.refuseAnother(at: path) }
            reader = try DatabasePool(path: location, configuration: readerConfiguration)
            writer = queue
            let pointReader = PointReader(path: location, busyTimeout: busyTimeout) { try opened?.refuseAnother(at: path) }
            self.pointReader = pointReader
            executor = DatabaseExecutor(pointReader: pointReader)
        } catch let error as DatabaseError {
            throw StoreFile.fileError(error, path: path)
        }
    }

    /// Set by ``close()``: every later call throws ``DocStoreError/storeClosed(path:)``.
    private let isClosed = Atomic<Bool>(false)

    deinit {
        otherProcessMonitor.stop()
        try? closeConnections()
    }

    /// Ends every connection to the store, moving the write-ahead log into the
    /// store's file (so the file alone holds everything), ends every running
    /// live query and change stream (their iteration throws), and makes every
    /// later call throw ``DocStoreError/storeClosed(path:)``. Closing twice is harmless.
    /// An in-memory store's documents are gone once it is closed.
    ///
    /// A store also closes when its last reference goes away; `close()` makes the
    /// moment certain: before a backup copies the file, or when an app leaves a
    /// document.
    ///
    /// - Throws: ``DocStoreError/database(message:collection:)`` when called inside
    ///   a `write { }` or `read { }` block (finish the block first), or when SQLite
    ///   can't close a connection another thread is still using.
    public func close() throws {
        if storeAccessDepth.current > 0 {
            throw DocStoreError.database(message: "close() was called inside a write or read block of the store; close it after the block", collection: nil)
        }
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        otherProcessMonitor.stop()
        // Running observations end with the error new ones get.
        changeTracker.closeAll(with: DocStoreError.storeClosed(path: path ?? ":memory:"))
        compileCatalogCache.removeAll()
        do {
            try closeConnections()
        } catch let error as DatabaseError {
            throw DocStoreError(sqliteCode: error.resultCode.primaryResultCode.rawValue,
                                message: error.message ?? "\(error)", collection: nil, path: path)
        }
    }

    /// The last connection to close moves the write-ahead log into the file and
    /// deletes it, and only a read-write connection can: readers close first.
    private func closeConnections() throws {
        pointReader?.close()
        try (reader as? DatabasePool)?.close()
        foldLogIfMoved()
        try (writer as? DatabaseQueue)?.close()
    }

    private init(inMemoryWith queue: DatabaseQueue) {
        path = nil
        isReadOnly = false
        setAsideLog = nil
        writer = queue
        reader = queue
        pointReader = nil
        executor = DatabaseExecutor(pointReader: nil)
    }

    /// A new, empty store in memory; gone when the last reference is released.
    public static func inMemory() throws -> DocumentStore {
        do {
            let queue = try DatabaseQueue(configuration: StoreFile.configuration(readOnly: false, busyTimeout: .seconds(5)))
            try queue.write { db in try Catalog.install(in: db) }
            return DocumentStore(inMemoryWith: queue)
        } catch let error as DatabaseError {
            throw DocStoreError.database(message: error.message ?? "\(error)", collection: nil)
        }
    }

    /// The GRDB database behind the store: the one escape hatch to SQL, for what
    /// DocStore does not offer. Writing to DocStore's tables through it bypasses
    /// every guarantee DocStore makes.
    public var databaseWriter: any DatabaseWriter { writer }

    // MARK: Collections

    /// The collection of `Model` values keyed by their `id`.
    ///
    /// - Parameter name: The collection's name; by default the type's name,
    ///   lowercased first letter, in the plural (`Team` → `"teams"`). Pass a name
    ///   for a generic type, and for a type whose default name another type
    ///   already uses in this store: the collection's operations throw
    ///   ``DocStoreError/noDefaultCollectionName(type:reason:)`` and
    ///   ``DocStoreError/collectionNameCollision(name:type:otherType:)`` then.
    public func collection<Model: Codable & Identifiable>(
        _ type: Model.Type, named name: String? = nil
    ) -> DocumentCollection<Model> where Model.ID: DocumentKeyRepresentable {
        let (name, problem) = collectionName(for: type, named: name)
        return DocumentCollection(store: self, name: name, keyOf: { $0.id.documentKey }, nameProblem: problem)
    }

    /// The collection of `Model` values whose `id` is optional, GRDB's
    /// auto-increment idiom (`var id: Int64?`): a model whose `id` is nil gets a
    /// generated integer key, written into the stored document as its `id`.
    /// `insert(&model)`, ``DocumentCollection/inserted(_:)``
    /// and `save(&model)` also write it back into your model:
    ///
    ///     var player = Player(id: nil, name: "Arthur")
    ///     try players.insert(&player)        // player.id == 1
    ///
    /// A model whose `id` is set is stored under that key.
    ///
    /// - Parameter name: The collection's name, by default derived from the type's
    ///   name as for other models.
    public func collection<Model: Codable & Identifiable>(
        _ type: Model.Type, named name: String? = nil
    ) -> DocumentCollection<Model> where Model.ID: OptionalDocumentKeyRepresentable {
        let (name, problem) = collectionName(for: type, named: name)
        return DocumentCollection(store: self, name: name, keyOf: { $0.id.optionalDocumentKey },
                                  assignKey: { model, key in
                                      let stored = try GeneratedKeys.writing(key, into: model, collection: name)
                                      return (stored.model, stored.document)
                                  },
                                  nameProblem: problem)
    }

    /// The collection of `Model` values that have no `id`: `insert` generates an
    /// integer key and returns it.
    ///
    /// - Parameter name: The collection's name, by default derived from the type's
    ///   name as for other models.
    public func collection<Model: Codable>(
        _ type: Model.Type, named name: String? = nil
    ) -> DocumentCollection<Model> {
        let (name, problem) = collectionName(for: type, named: name)
        return DocumentCollection(store: self, name: name, keyOf: nil, nameProblem: problem)
    }

    /// Default collection names given out so far, with the type each went to
    /// (its identity, and its fully qualified name for messages).
    private let defaultNameOwners = Mutex<[String: (type: ObjectIdentifier, name: String)]>([:])

    /// The name of `type`'s collection and, for a default name, why it can't be
    /// used: the type is generic, or another type got the same default name first.
    /// An explicit name is always used as given (several types may read one
    /// collection on purpose).
    private func collectionName<T>(for type: T.Type, named name: String?) -> (String, DocStoreError?) {
        if let name { return (name, nil) }
        let defaultName = CollectionName.defaultName(for: type)
        if let problem = CollectionName.defaultNameProblem(for: type) { return (defaultName, problem) }
        let me = (type: ObjectIdentifier(type), name: String(reflecting: type))
        let owner = defaultNameOwners.withLock { owners in
            if let owner = owners[defaultName] { return owner }
            owners[defaultName] = me
            return me
        }
        guard owner.type != me.type else { return (defaultName, nil) }
        return (defaultName, .collectionNameCollision(name: defaultName, type: me.name, otherType: owner.name))
    }

    /// The collection named `name`, with its documents as untyped ``JSONValue``s.
    /// A document's key is its `"id"` member; a document without one gets a
    /// generated integer key, which is also written into it as `"id"`.
    public func collection(named name: String) -> DocumentCollection<JSONValue> {
        DocumentCollection(store: self, name: name, keyOf: { document in
            document["id"].flatMap { DocumentKey(json: $0, kind: nil) }
        }, assignKey: { document, key in
            guard case .object(var members) = document else {
                throw DocStoreError.missingKey(collection: name, reason: "a document must be a JSON object")
            }
            members.updateValue(key.jsonValue, forKey: "id", insertingAt: 0)
            return (.object(members), nil)
        })
    }

    /// The collections in the store, by name.
    public func collections() throws -> [CollectionInfo] {
        try access(collection: nil) { try readAccess { db in try Catalog.collections(in: db) } }
    }

    /// Deletes a collection, its documents and its indexes. Returns whether it existed.
    @discardableResult
    public func dropCollection(named name: String) throws -> Bool {
        try access(collection: name) {
            let existed = try writeAccess { db in
                try withinTransaction(db) {
                    guard try Catalog.collection(named: name, in: db) != nil else { return false }
                    if changeTracker.isObserved(name) {
                        try collection(named: name).recordDeletionOfAll(in: db)
                    }
                    try Catalog.dropCollection(named: name, in: db)
                    collectionCache.record(name, nil, in: db)
                    return true
                }
            }
            return existed
        }
    }

    // MARK: Transactions

    /// Runs `body` in one transaction, atomic across collections: when it throws,
    /// every change it made is rolled back and the error is rethrown.
    ///
    ///     try store.write { tx in
    ///         try tx.collection(Team.self).insert(expansionTeam)
    ///         try tx.collection(Player.self).delete(7)
    ///     }
    ///
    /// Reads inside see the writes. Collections obtained outside the block work
    /// inside it too and join the transaction. Nested calls become savepoints.
    public func write<Result>(_ body: (StoreTransaction) throws -> Result) throws -> Result {
        try access(collection: nil) {
            try writeAccess { db in
                try withinTransaction(db) { try body(StoreTransaction(store: self)) }
            }
        }
    }

    /// Runs `body` on one consistent snapshot of the store: every read inside sees
    /// the same committed state, even while other threads write.
    public func read<Result>(_ body: (StoreTransaction) throws -> Result) throws -> Result {
        try access(collection: nil) {
            try readAccess { db in
                if db.isInsideTransaction { return try body(StoreTransaction(store: self)) }
                var result: Result?
                try db.inTransaction(.deferred) {
                    result = try body(StoreTransaction(store: self))
                    // On a file's read-only connection there is nothing to commit, and
                    // a rollback can't fail: a COMMIT fails with SQLITE_CORRUPT once a
                    // statement met a damaged page, even when the body caught that
                    // (a check or a salvage reading past it). An in-memory store reads
                    // on its writer, where writes nested in the read must commit.
                    return db.configuration.readonly ? .rollback : .commit
                }
                guard let result else { throw DocStoreError.database(message: "read transaction ended early", collection: nil) }
                return result
            }
        }
    }

    /// A number that changes whenever another connection or process commits to
    /// the store (SQLite's `PRAGMA data_version` on the writer's connection), so
    /// that tools caching what they read, like the REPL's schema, notice at once.
    package func changesByOthers() throws -> Int64 {
        try access(collection: nil) {
            try writer.unsafeReentrantRead { db in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        }
    }

    /// A plain key/value area for typed values under string keys (settings,
    /// counters, small state) beside the collections.
    public var values: KeyValueArea { KeyValueArea(store: self) }

    // MARK: Internal access

    func writeAccess<R>(_ body: (Database) throws -> R) throws -> R {
        if isReadOnly { throw DocStoreError.readOnly(path: path ?? ":memory:") }
        let token = CancellationToken.current
        return try writer.unsafeReentrantWrite { db in
            if openTransactionDepth.current > 0, !db.isInsideTransaction {
                // SQLite rolled back the enclosing transaction after an error (a full
                // disk, an I/O error): writing on would commit piecemeal.
                throw DocStoreError.database(
                    message: "the transaction was rolled back by SQLite after an earlier error in it; nothing of it was kept, and nothing more is written until the write block ends",
                    collection: nil)
            }
            // Once a write, not at each nested one: a stat of the path.
            if writeAccessDepth.current == 0 { try refuseWritesIfMoved(db) }
            return try writeAccessDepth.inside { try storeAccessDepth.inside { try interruptible(db, token, body) } }
        }
    }

    /// Runs `body`, interruptible by the cancellation of the async call it serves.
    private func interruptible<R>(_ db: Database, _ token: CancellationToken?, _ body: (Database) throws -> R) throws -> R {
        guard let token else { return try body(db) }
        return try token.attached(to: db.sqliteConnection) { try body(db) }
    }

    func readAccess<R>(_ body: (Database) throws -> R) throws -> R {
        // Inside a write, reads see its changes: they run on the writer's connection.
        let connections: any DatabaseReader = writeAccessDepth.current > 0 ? writer : reader
        let token = CancellationToken.current
        return try connections.unsafeReentrantRead { db in try storeAccessDepth.inside { try interruptible(db, token, body) } }
    }

    /// The point reader, when a single-document read may use it: a file store, and
    /// not inside a transaction or snapshot of this thread, whose reads must go
    /// through its own connection.
    var pointReaderOutsideTransactions: PointReader? {
        storeAccessDepth.current == 0 ? pointReader : nil
    }

    /// Runs a single-document read on the point reader, or returns nil when it
    /// can't: an in-memory store, a read inside a transaction or snapshot of this
    /// thread (which must go through its connection), a collection not cached yet,
    /// or a schema that another process may have changed since the entry was
    /// read (the cache is then forgotten): a collection dropped, or dropped and
    /// made again, perhaps with keys of another kind, which the cached entry
    /// would read wrongly (key 1 finding the document `"1"`).
    ///
    /// SQLite prepares a statement again when the schema changed, which says
    /// so for a statement prepared before; for one prepared just now (perhaps
    /// after a change), the entry's key kind is read again from the catalog, on
    /// the same connection, in the same read.
    func pointRead<R>(collection name: String, sql: String, _ read: (RawStatement, CollectionInfo) throws -> R) throws -> R? {
        guard let pointReader = pointReaderOutsideTransactions, let info = collectionCache.committed(name) else { return nil }
        do {
            let found = try pointReader.withStatement(sql) { statement, connection -> R? in
                let prepared = statement.reprepareCount
                if statement.isFirstRun, try Self.catalogKeyKind(of: name, on: connection) != info.keyKind { return nil }
                let found = try read(statement, info)
                return statement.reprepareCount == prepared ? found : nil
            }
            if found == nil { collectionCache.forgetCommitted() }
            return found
        } catch let failure as SQLiteFailure where failure.isMissingTable {
            collectionCache.forgetCommitted()
            return nil
        } catch is DocStoreError {
            // Refused by what the entry says (a key of the other kind), or a
            // document that doesn't decode: asked again on a connection that
            // checks the entry first, which throws the same error when it stands.
            collectionCache.forgetCommitted()
            return nil
        }
    }

    /// The key kind the catalog gives the collection, read on a point reader's
    /// connection; nil when it has none (or an unknown kind).
    private static func catalogKeyKind(of name: String, on connection: ReadConnection) throws -> KeyKind? {
        let statement = try connection.statement(Catalog.keyKindQuery)
        defer { statement.finish() }
        statement.bind(.text(name), at: 1)
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        return KeyKind(rawValue: statement.string(at: 0))
    }

    /// Runs `body` atomically: in a new immediate transaction, or in a savepoint when
    /// a transaction is already open (so a failed call inside a user's `write`
    /// leaves no partial change behind, whether or not the user catches the error).
    ///
    /// With `unlessInsideOne`, a call inside an open transaction runs `body` as it
    /// is, for callers whose only write is a single statement.
    func withinTransaction<R>(_ db: Database, unlessInsideOne: Bool = false, _ body: () throws -> R) throws -> R {
        var result: R?
        if db.isInsideTransaction, unlessInsideOne {
            return try body()
        } else if db.isInsideTransaction {
            let mark = collectionCache.savepointMark()
            let changesMark = changeTracker.savepointMark(in: db)
            do {
                try db.inSavepoint {
                    result = try openTransactionDepth.inside(body)
                    return .commit
                }
            } catch {
                collectionCache.rollBack(to: mark, in: db)
                changeTracker.rollBack(to: changesMark, in: db)
                throw error
            }
        } else {
            try db.inTransaction(.immediate) {
                result = try openTransactionDepth.inside(body)
                return .commit
            }
        }
        guard let result else { throw DocStoreError.database(message: "transaction ended early", collection: nil) }
        return result
    }

    /// The collection's catalog entry, or nil if it doesn't exist yet.
    func knownCollection(named name: String, in db: Database) throws -> CollectionInfo? {
        try collectionCache.refresh(for: db)
        if let cached = collectionCache.lookup(name, in: db) { return cached }
        guard let info = try Catalog.collection(named: name, in: db) else { return nil }
        // Checked when the entry is read from the catalog (the cache is
        // forgotten when another connection commits), not on every call.
        if try Catalog.isReplacedByForeignObject(name, in: db) {
            throw DocStoreError.invalidQuery(collection: name, field: nil, reason: BackendSupport.foreignTableRefusal(name, tool: "sqlite3"))
        }
        collectionCache.remember(info)
        return info
    }

    /// The collection's entry, creating the collection with keys of `kind` when it
    /// does not exist. Must be called inside a write transaction.
    func ensureCollection(named name: String, keyKind kind: KeyKind, in db: Database) throws -> CollectionInfo {
        if let info = try knownCollection(named: name, in: db) { return info }
        try CollectionName.validate(name)
        let info = CollectionInfo(name: name, keyKind: kind)
        try Catalog.createCollection(info, in: db)
        collectionCache.record(name, info, in: db)
        return info
    }
}

extension DocumentStore {
    /// Runs an operation, turning GRDB's and SQLite's errors into ``DocStoreError``s
    /// that name the collection and the file. DocStore's own errors, and errors
    /// thrown by the user's closures, pass through unchanged.
    func access<R>(collection: String?, _ body: () throws -> R) throws -> R {
        if isClosed.load(ordering: .relaxed) { throw DocStoreError.storeClosed(path: path ?? ":memory:") }
        do {
            return try body()
        } catch let error as DatabaseError {
            throw DocStoreError(sqliteCode: error.resultCode.primaryResultCode.rawValue,
                                message: error.message ?? "\(error)", collection: collection, path: path)
        } catch let error as SQLiteFailure {
            throw DocStoreError(sqliteCode: error.code, message: error.message, collection: collection, path: path)
        } catch DocStoreError.database(let message, nil) where collection != nil {
            // Mapped by an inner access that didn't know the collection (a read
            // transaction's): its own table missing is said as such.
            throw DocStoreError(sqliteCode: 1, message: message, collection: collection, path: path)
        }
    }
}

extension DocStoreError {
    /// The error for a failure SQLite reported with `code`: a full disk, a lock,
    /// an unwritable file, an I/O error and a damaged file each say so.
    /// Whether the file system holding `path` has no room left (no block free
    /// for unprivileged writers).
    static func isDiskFull(at path: String?) -> Bool {
        guard let path, path != ":memory:" else { return false }
        var info = statvfs()
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return statvfs(folder, &info) == 0 && info.f_bavail == 0
    }

    init(sqliteCode code: Int32, message: String, collection: String?, path: String?) {
        let file = path ?? ":memory:"
        switch code & 0xFF {
        case 5 /* SQLITE_BUSY */: self = .locked(path: file, reason: message)
        case 8 /* SQLITE_READONLY */: self = .fileNotWritable(path: file, reason: message)
        case 10 /* SQLITE_IOERR */:
            // Writing the -wal or -shm on a full disk is an I/O error to SQLite.
            self = Self.isDiskFull(at: path) ? .diskFull(collection: collection, reason: message) : .ioError(path: file, reason: message)
        case 11 /* SQLITE_CORRUPT */, 26 /* SQLITE_NOTADB */:
            // SQLite's integrity check reads the whole file: it runs on open and on
            // .check, not in the middle of an operation.
            self = .corruptStore(path: file, findings: [message + " (run .check, or DocumentStore.check(), for SQLite's integrity check)"])
        case 13 /* SQLITE_FULL */: self = .diskFull(collection: collection, reason: message)
        case 14 /* SQLITE_CANTOPEN */: self = .cannotOpen(path: file, reason: message)
        default:
            // The collection's own table dropped by another program (SQLITE_ERROR).
            if let collection, code & 0xFF == 1, ["no such table: \(collection)", "no such table: main.\(collection)"].contains(message) {
                self = .missingTable(collection: collection)
            } else {
                self = .database(message: message, collection: collection)
            }
        }
    }
}
