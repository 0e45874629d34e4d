@_spi(Backends) import DocStore
import PostgresNIO
import Synchronization

/// A DocStore on a PostgreSQL server: the same `@Document` models, the same
/// query closures and the same semantics as ``DocStore/DocumentStore``, through
/// async calls. Documents are `jsonb`; each collection is a table whose `key`
/// is a real column.
///
///     let store = try await PostgresDocumentStore(url: "postgres://app@db.internal/app")
///     let players = store.collection(Player.self, named: "players")
///     try await players.insert(player)
///     let shortstops = try await players.filter { $0.position == .shortstop }.sorted { $0.lastName }.fetch()
///     await store.close()
///
/// Groups, joins, computed values, update-by-query, every aggregate and
/// `explain` compile from the same query AST as on SQLite, to jsonb SQL; live
/// queries hear other processes' commits through `LISTEN`/`NOTIFY`
/// (``PostgresCollection/values(_:)``).
public final class PostgresDocumentStore: Sendable {
    let client: PostgresClient
    /// How to reach the server, for a connection made outside the pool
    /// (``checkServer(timeout:)``).
    private let configuration: PostgresClient.Configuration
    /// The database's name, for messages ("the store postgres:///app …").
    let label: String
    private let runner: Task<Void, Never>
    /// Committed collections and their key kinds, as this process last read them.
    /// Names are told apart by their bytes: "é" composed and "e" with a
    /// combining accent are two tables to PostgreSQL, one `String` key.
    let catalog = Mutex<[ExactText: KeyKind]>([:])
    /// The collections with a containment index (on the document itself), as
    /// this process last read or made them: their queries add containment terms.
    let containmentIndexed = Mutex<Set<String>>([])
    /// The fields each collection's indexes are on, as this process last read
    /// or made them: equalities on other fields compile to jsonb's `=` alone
    /// (``PostgresCompiler``). Stale after another process's index change, it
    /// costs speed, never an answer: both forms select the same documents.
    let indexedPaths = Mutex<[String: Set<FieldPath>]>([:])
    /// The listening connection of live queries and change streams.
    let changeHub: PostgresChangeHub

    /// Connects to the server at `url` and installs DocStore's catalog when it
    /// is missing.
    ///
    /// - Parameters:
    ///   - url: `postgres://user[:password]@host[:port]/database`, or
    ///     `postgres://user@/database?host=/socket/directory` for a Unix socket.
    ///   - lockTimeout: How long a statement may wait for another session's
    ///     lock before it fails (PostgreSQL's `lock_timeout`, SQLSTATE 55P03),
    ///     as a file store's `busyTimeout`; nil waits as the server is
    ///     configured to (by default, without end).
    /// - Throws: ``PostgresStoreError`` when the URL can't be read, the server
    ///   can't be reached or its database doesn't store text as UTF-8.
    public init(url: String, lockTimeout: Duration? = nil) async throws {
        var configuration = try PostgresURL.configuration(url)
        if let lockTimeout {
            configuration.options.additionalStartupParameters.append(("lock_timeout", PostgresURL.lockTimeout(lockTimeout)))
        }
        if try await PostgresURL.checkConnection(configuration) {
            configuration.options.additionalStartupParameters.append(("client_connection_check_interval", "\(PostgresURL.clientCheckInterval)"))
        }
        let client = PostgresClient(configuration: configuration, backgroundLogger: PostgresSession.logger)
        self.client = client
        self.configuration = configuration
        label = "postgres:///" + (configuration.database ?? configuration.username)
        runner = Task { await client.run() }
        changeHub = PostgresChangeHub(client: client)
        changeHub.attach(self)
        do {
            let session = PostgresSession.pool(client)
            let encoding = try await session.rows("SHOW server_encoding", [], collection: nil).first?.decode(String.self)
            guard encoding == "UTF8" else { throw PostgresStoreError.unsupportedEncoding(encoding ?? "an unknown encoding") }
            try await installCatalog()
            try await installLiveTriggers()
            try await reloadCatalog()
        } catch {
            runner.cancel()
            await runner.value
            throw error
        }
    }

    /// Creates DocStore's catalog tables where they are missing, under a lock
    /// that makes another process opening the same new database wait.
    private func installCatalog() async throws {
        // Nothing to create is the common case, and needs no privilege to create
        // tables (a role that may only read opens the store too).
        let installed = try await PostgresSession.pool(client).rows(PostgresStoreSQL.catalogInstalled, [], collection: nil)
        if try installed.first?.decode(Bool.self) == true { return }
        do {
            try await transaction { transaction in
                let session = transaction.session
                try await session.rows(PostgresStoreSQL.lockSchemaCreation, [], collection: nil)
                try await session.rows(PostgresStoreSQL.createCatalog, [], collection: nil)
                try await session.rows(PostgresStoreSQL.createIndexCatalog, [], collection: nil)
                try await session.rows(PostgresSearchSQL.createCatalog, [], collection: nil)
                try await session.rows(PostgresStoreSQL.createValues, [], collection: nil)
                try await session.rows(PostgresStoreSQL.createMigrations, [], collection: nil)
            }
        } catch PostgresStoreError.server(let state?, let message, _, _, _) where ["25006", "42501"].contains(state) {
            // A database DocStore never opened, on a role or server that may
            // only read: "cannot execute CREATE TABLE in a read-only
            // transaction" alone didn't say why DocStore wrote at all.
            throw PostgresStoreError.server(
                sqlState: state, message: "this database has no DocStore catalog yet, and it can't be made here (\(message)); nothing was changed",
                detail: nil, hint: "open it once with a role that may create tables and write (not in a read-only transaction or on a standby); after that, a role that may only read can open it",
                collection: nil)
        }
    }

    deinit {
        runner.cancel()
    }

    /// Connects to the server once, outside the store's pool, and closes the
    /// connection: throws at once when the server can't be reached.
    ///
    /// A call waiting for one of the pool's connections waits while the pool
    /// tries again and again to connect, for about a minute after the server
    /// went away, before it fails with SQLSTATE 08001. An interactive tool
    /// can ask this meanwhile and tell its user why, in seconds.
    ///
    /// - Throws: ``PostgresStoreError/unreachable(_:reason:)`` when nothing
    ///   answers in `timeout` (the system's reason: "Connection refused", "No
    ///   such file or directory"), or the server's own error when it refuses
    ///   the connection (starting up, shutting down, no such database).
    public func checkServer(timeout: Duration = .seconds(5)) async throws {
        let configuration = configuration
        // A server that accepts the connection and never answers (stopped with
        // SIGSTOP, a network partition past the socket) is given `timeout` in
        // all: postgres-nio's own bounds the socket's connect only.
        try await PostgresURL.withinTime(timeout, place: PostgresURL.place(configuration)) {
            let connection = try await PostgresURL.connectOnce(configuration, timeout: timeout)
            try? await connection.close()
        }
    }

    /// Closes every connection. Calls made afterwards fail.
    public func close() async {
        await changeHub.close()
        runner.cancel()
        await runner.value
    }

    // MARK: Collections

    /// The collection of `Model` documents named `name`, keyed by the model's `id`.
    public func collection<Model: Codable & Sendable & Identifiable>(
        _ type: Model.Type, named name: String
    ) -> PostgresCollection<Model> where Model.ID: DocumentKeyRepresentable {
        PostgresCollection(name: name, store: self, transaction: nil, keyOf: { $0.id.documentKey })
    }

    /// An untyped collection of JSON documents, keyed by their `"id"` member.
    public func collection(named name: String) -> PostgresCollection<JSONValue> {
        PostgresCollection(name: name, store: self, transaction: nil, keyOf: { BackendSupport.key(of: $0, kind: nil) }, keySource: .untypedId)
    }

    /// The names of the store's collections, sorted.
    public func collectionNames() async throws -> [String] {
        try await reloadCatalog()
        return catalog.withLock { $0.keys.map(\.text).sorted() }
    }

    /// Deletes a collection and its documents; false when there was none.
    @discardableResult
    public func dropCollection(named name: String) async throws -> Bool {
        try await transaction { transaction in
            let forgotten = try await transaction.session.rows(PostgresStoreSQL.forgetCollection + " RETURNING name", [.text(name)],
                                                               collection: name)
            guard !forgotten.isEmpty else { return false }
            guard try await transaction.session.rows(PostgresStoreSQL.isDocumentTable, [.text(name)], collection: name).first?.decode(Bool.self) == true else {
                throw DocStoreError.invalidQuery(collection: name, field: nil,
                                                 reason: BackendSupport.foreignTableProblem(name, tool: "psql") + "; nothing was changed")
            }
            try await transaction.session.rows(PostgresStoreSQL.dropTable(name), [], collection: name)
            try await transaction.session.rows(PostgresStoreSQL.forgetIndexes, [.text(name)], collection: name)
            try await transaction.session.rows(PostgresSearchSQL.forgetIndexes, [.text(name)], collection: name)
            transaction.dropped(name)
            return true
        }
    }

    // MARK: Pipelines (the AST, as the REPL builds it)

    /// The rows of a pipeline (groups, joins, computed values) on the collection
    /// `collection`, in its order, as JSON objects: the same rows as
    /// ``DocStore/DocumentCollection/rows(_:)`` on SQLite (no rows when the
    /// collection doesn't exist).
    ///
    ///     let rows = try await store.rows(of: "batting", QueryPipeline(stages: [
    ///         .group(Grouping(keys: [FieldPath("playerID")], aggregates: [NamedAggregate("hr", .sum(FieldPath("HR")))])),
    ///         .refine(DocumentQuery(sort: [SortKey(FieldPath("hr"), descending: true)], limit: 10)),
    ///     ]))
    ///     // [{"playerID": "bondsba01", "hr": 762}, …]
    public func rows(of collection: String, _ pipeline: QueryPipeline) async throws -> [JSONValue] {
        try await self.collection(named: collection).rows(pipeline)
    }

    /// Calls `body` with each row of a pipeline on the collection `collection`,
    /// in its order, as the server sends them (``rows(of:_:)``, without
    /// holding them).
    public func forEachRow(of collection: String, _ pipeline: QueryPipeline, _ body: (JSONValue) throws -> Void) async throws {
        try await self.collection(named: collection).forEachRow(pipeline, body)
    }

    /// The number of rows of a pipeline on the collection `collection`.
    public func count(of collection: String, _ pipeline: QueryPipeline) async throws -> Int {
        try await self.collection(named: collection).count(pipeline)
    }

    /// The SQL, bindings and PostgreSQL plan of a pipeline on `collection`.
    public func explain(of collection: String, _ pipeline: QueryPipeline) async throws -> QueryExplanation {
        try await self.collection(named: collection).explain(pipeline)
    }

    // MARK: Transactions

    /// Runs `body` in one transaction: everything it writes is committed
    /// together when it returns, and nothing is when it throws.
    ///
    ///     try await store.transaction { transaction in
    ///         let players = transaction.collection(Player.self, named: "players")
    ///         try await players.insert(a)
    ///         try await players.insert(b)      // a duplicate key here undoes a too
    ///     }
    @discardableResult
    public func transaction<Result: Sendable>(
        _ body: (PostgresTransaction) async throws -> Result
    ) async throws -> Result {
        try await transaction(beginning: "BEGIN", body)
    }

    /// Runs `body` in one read-only transaction that sees the database as it
    /// was when it began (`REPEATABLE READ`): every read in it agrees with every
    /// other, whatever other sessions commit meanwhile — for a backup, an export
    /// or a report made of several queries. A write in it throws.
    ///
    ///     let (players, teams) = try await store.snapshot { snapshot in
    ///         (try await snapshot.collection(named: "players").count(), try await snapshot.collection(named: "teams").count())
    ///     }
    @discardableResult
    public func snapshot<Result: Sendable>(
        _ body: (PostgresTransaction) async throws -> Result
    ) async throws -> Result {
        try await transaction(beginning: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// A transaction DocStore opens for one operation of its own (an update by
    /// query, a field change, a batch insert), run again after a deadlock
    /// (``DeadlockRetry``): `body` only writes to the database.
    func ownTransaction<Result: Sendable>(_ body: (PostgresTransaction) async throws -> Result) async throws -> Result {
        try await DeadlockRetry.run { try await transaction(beginning: "BEGIN", body) }
    }

    private func transaction<Result: Sendable>(
        beginning begin: String, _ body: (PostgresTransaction) async throws -> Result
    ) async throws -> Result {
        try await client.withConnection { connection in
            let transaction = PostgresTransaction(store: self, connection: connection)
            let session = PostgresSession.transaction(connection)
            try await session.rows(begin, [], collection: nil)
            let result: Result
            do {
                result = try await body(transaction)
                // Closed before COMMIT was sent: nothing was committed, for sure.
                try PostgresSession.checkOpen(connection)
                do {
                    try await session.rows("COMMIT", [], collection: nil)
                } catch let error as PostgresStoreError {
                    throw PostgresStoreError.outcomeUnknown(error, committing: true)
                }
            } catch {
                if PostgresStoreError.endsConnection(error) {
                    // Closed here and now, so that the pool doesn't lend it
                    // again before it sees the server's close: the next read,
                    // on another connection, failed with 08006 now and then.
                    try? await connection.close()
                } else {
                    _ = try? await session.rows("ROLLBACK", [], collection: nil)
                }
                throw error
            }
            transaction.committed()
            return result
        }
    }

    // MARK: Catalog

    /// Reads the committed catalog again (another process may have created or
    /// dropped collections).
    func reloadCatalog() async throws {
        let rows = try await PostgresSession.pool(client).rows(PostgresStoreSQL.catalogWithTables, [], collection: nil)
        var kinds: [ExactText: KeyKind] = [:]
        for row in rows {
            let (name, kind, keyType) = try row.decode((String, String, String?).self)
            guard let keyKind = KeyKind(rawValue: kind) else {
                throw PostgresStoreError.server(sqlState: nil, message: "the catalog \(PostgresStoreSQL.catalogTable) gives collection \"\(name)\" the unknown key kind \"\(kind)\"",
                                                detail: nil, hint: nil, collection: name)
            }
            // A key kind the table wasn't made for would misread every key (a
            // bigint's bytes as a string key), and a copy would carry them so.
            if let keyType, keyType != PostgresStoreSQL.keyColumnType(keyKind) {
                throw PostgresStoreError.server(
                    sqlState: nil, message: "the catalog \(PostgresStoreSQL.catalogTable) gives collection \"\(name)\" \(keyKind.rawValue) keys, but its table's key column is \(keyType) (the row was changed outside DocStore); the documents are intact: set key_kind back with psql (\(keyType == "bigint" ? "integer" : "string or uuid")) before using the store",
                    detail: nil, hint: nil, collection: name)
            }
            kinds[ExactText(name)] = keyKind
        }
        catalog.withLock { $0 = kinds }
        let containment = try await PostgresSession.pool(client).rows(PostgresStoreSQL.containmentIndexed, [], collection: nil)
        let indexed = Set(try containment.map { try $0.decode(String.self) })
        containmentIndexed.withLock { $0 = indexed }
        var paths: [String: Set<FieldPath>] = [:]
        for row in try await PostgresSession.pool(client).rows(PostgresStoreSQL.indexedFields, [], collection: nil) {
            let (collection, fieldsText) = try row.decode((String, String).self)
            paths[collection, default: []].formUnion(try PostgresCollection<JSONValue>.indexFields(fieldsText, index: "", collection: collection))
        }
        indexedPaths.withLock { $0 = paths }
    }
}
