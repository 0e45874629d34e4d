import DocStore
@_spi(Backends) import DocStorePostgres
import Foundation
import Synchronization

/// A REPL session on a PostgreSQL database, through ``DocStorePostgres``: the
/// same commands and query AST as on a DocStore file, compiled by the same
/// compiler for jsonb. Each call waits on the REPL's thread for the store's
/// async API (``AsyncBridge``).
///
/// What PostgreSQL can't do yet says so (field changes; `.repair` has nothing to do).
final class PostgresBackend: REPLBackend {
    let store: PostgresDocumentStore
    let isReadOnly: Bool
    /// The transaction a copy reads its source in (``readingOneSnapshot(_:)``).
    let snapshot = Mutex<HeldTransaction<PostgresTransaction>?>(nil)
    /// How many documents an export or a sample reads per statement.
    static let pageSize = 1000

    init(store: PostgresDocumentStore, readOnly: Bool) {
        self.store = store
        isReadOnly = readOnly
        ServerWatch.watch(store)
    }

    /// Whether a store argument names a PostgreSQL database rather than a file.
    static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Connects to the database at `url`.
    static func connect(url: String, readOnly: Bool, busyTimeout: Duration? = nil) throws -> PostgresBackend {
        let store = try wait { try await PostgresDocumentStore(url: url, lockTimeout: busyTimeout) }
        return PostgresBackend(store: store, readOnly: readOnly)
    }

    var kind: BackendKind { .postgres }

    /// The URL as the banner shows it: without its password.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }

    /// Closes the connections (the session is over).
    func close() {
        let store = store
        ServerWatch.unwatch(store)
        _ = try? Self.wait { await store.close() }
    }

    /// The result of an async call of the store, waited for on this thread;
    /// errors in words (PostgreSQL's own keep its SQLSTATE, detail and hint).
    static func wait<Value: Sendable>(_ work: @escaping @Sendable () async throws -> Value) throws -> Value {
        try inWords {
            // ctrl-C cancels the task, and with it the server's statement.
            try AsyncBridge.wait(interruption: .terminal, stuck: ServerWatch.check) {
                try await PostgresStatementCancel.$isWanted.withValue(true) { try await work() }
            }
        }
    }

    /// `body`'s errors in words: PostgreSQL's own keep their SQLSTATE, detail
    /// and hint; a cancelled task says it was interrupted.
    private static func inWords<Value>(_ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let error as PostgresStoreError {
            throw PostgresFailure(error)
        } catch is CancellationError {
            throw Interruption.Interrupted("interrupted: the statement was cancelled")
        }
    }

    /// Runs `produce` (a store call that yields rows as the server sends
    /// them) and hands each to `consume` on this thread as it comes, a few
    /// hundred held at most (``AsyncBridge/forEach(interruption:stuck:capacity:produce:consume:)``);
    /// errors as ``wait(_:)`` has them.
    static func streamed<Element: Sendable>(
        _ produce: @escaping @Sendable (_ yield: (Element) throws -> Void) async throws -> Void,
        into consume: (Element) throws -> Void
    ) throws {
        try inWords {
            try AsyncBridge.forEach(interruption: .terminal, stuck: ServerWatch.check, produce: { yield in
                try await PostgresStatementCancel.$isWanted.withValue(true) { try await produce(yield) }
            }, consume: consume)
        }
    }

    /// What PostgreSQL can't run yet, as an error saying so.
    static func notYet(_ what: String) -> CommandError {
        CommandError("\(what) \(what.hasSuffix("s") ? "are" : "is") not supported on PostgreSQL yet; on a DocStore file it runs as it is")
    }

    private func collection(_ name: String) -> PostgresCollection<JSONValue> { store.collection(named: name) }

    // MARK: Collections and documents

    func collections() throws -> [CollectionInfo] {
        let store = store
        return try Self.wait { try await store.collections() }
    }

    /// The catalog's version: the schema cache (names, samples) is dropped when
    /// any session created or dropped a collection, so a collection another
    /// session dropped is "no collection named", as in a new session, where a
    /// read answered 0 or nothing (helper-53). Other sessions' writes of
    /// documents don't change it (the samples stay, as completions' hints).
    func changesByOthers() -> Int64? {
        // Read at most every quarter second: the parser and completer ask
        // several times a command, and a script of thousands of commands
        // took twice as long asking the server each time.
        let now = ContinuousClock.now
        // A failed read is kept as long: with the server gone, each read
        // waited for ``ServerWatch`` to find out, several times a command.
        if let (version, readAt) = catalogVersionRead.withLock({ $0 }), now - readAt < .milliseconds(250) { return version }
        let store = store
        let version = try? Self.wait { try await store.catalogVersion() }
        catalogVersionRead.withLock { $0 = (version, now) }
        return version
    }

    /// The last ``changesByOthers()`` read (nil when it failed), and when.
    private let catalogVersionRead = Mutex<(Int64?, ContinuousClock.Instant)?>(nil)

    func get(_ name: String, _ key: DocumentKey) throws -> JSONValue? {
        let collection = collection(name)
        return try Self.wait { try await collection.get(key) }
    }

    func insert(_ name: String, _ documents: [JSONValue]) throws -> [DocumentKey] {
        let store = store
        return try Self.wait {
            // The library generates missing keys under the collection's key lock,
            // so two shells inserting at once never pick the same key.
            try await store.collection(named: name).insert(contentsOf: documents)
        }
    }

    func save(_ name: String, _ documents: [JSONValue]) throws {
        let store = store
        // As on a file store, a document without an "id" can't be saved: a key
        // generated here would replace whatever another writer stored under it
        // meanwhile. One transaction, in key order (two shells' batches
        // deadlocked), run again after a deadlock.
        try Self.wait { try await store.collection(named: name).save(contentsOf: documents) }
    }

    func delete(_ name: String, _ key: DocumentKey) throws -> Bool {
        let collection = collection(name)
        return try Self.wait { try await collection.delete(key) }
    }

    func deleteAll(_ name: String) throws -> Int { try delete(name, DocumentQuery()) }

    func dropCollection(_ name: String) throws -> Bool {
        let store = store
        return try Self.wait { try await store.dropCollection(named: name) }
    }

    // MARK: Queries

    func forEach(_ name: String, _ query: DocumentQuery, _ body: (JSONValue) throws -> Void) throws {
        // A bare `coll` reads page by page; a query's documents stream as the
        // server sends them (collected, a million documents took gigabytes).
        if query == DocumentQuery() { return try forEachInKeyOrder(name, body) }
        let collection = collection(name)
        try Self.streamed({ yield in try await collection.forEach(query, yield) }, into: body)
    }

    func first(_ name: String, _ query: DocumentQuery) throws -> JSONValue? {
        var first = query
        first.limit = 1
        let collection = collection(name)
        return try Self.wait { [first] in try await collection.fetch(first).first }
    }

    func count(_ name: String, _ query: DocumentQuery) throws -> Int {
        let collection = collection(name)
        return try Self.wait { try await collection.count(query) }
    }

    func exists(_ name: String, _ query: DocumentQuery) throws -> Bool {
        var first = query
        first.limit = 1
        let collection = collection(name)
        return try Self.wait { [first] in try await !collection.keys(first).isEmpty }
    }

    func keys(_ name: String, _ query: DocumentQuery) throws -> [DocumentKey] {
        let collection = collection(name)
        return try Self.wait { try await collection.keys(query) }
    }

    /// The selected documents' fields, read from the documents as DocStore
    /// reads a path (a missing field is null), as SQLite's `select` gives them.
    func select(_ name: String, _ query: DocumentQuery, fields: [FieldPath]) throws -> [[JSONValue]] {
        let collection = collection(name)
        return try Self.wait { try await collection.fetch(query) }.map { document in
            fields.map { document.value(at: $0) ?? .null }
        }
    }

    func aggregate(_ name: String, _ query: DocumentQuery, _ aggregate: Aggregate) throws -> JSONValue {
        let collection = collection(name)
        return try Self.wait { try await collection.aggregate(query, aggregate) }
    }

    func delete(_ name: String, _ query: DocumentQuery) throws -> Int {
        let collection = collection(name)
        return try Self.wait { try await collection.delete(query) }
    }

    func update(_ name: String, _ query: DocumentQuery, _ updates: [FieldUpdate]) throws -> Int {
        let collection = collection(name)
        return try Self.wait { try await collection.update(query, updates) }
    }

    func explain(_ name: String, _ query: DocumentQuery) throws -> String {
        let collection = collection(name)
        return try Self.wait { try await collection.explain(query) }.description
    }

    // MARK: Pipelines

    func columns(_ name: String, _ pipeline: QueryPipeline) throws -> [(header: String, path: FieldPath)]? {
        try pipeline.columns(in: name)
    }

    /// The pipeline's rows, which come whole from the server.
    func forEachRow(_ name: String, _ pipeline: QueryPipeline, _ body: (JSONValue) throws -> Void) throws {
        let store = store
        try Self.streamed({ yield in try await store.forEachRow(of: name, pipeline, yield) }, into: body)
    }

    func count(_ name: String, _ pipeline: QueryPipeline) throws -> Int {
        let store = store
        return try Self.wait { try await store.count(of: name, pipeline) }
    }

    func explain(_ name: String, _ pipeline: QueryPipeline) throws -> String {
        let store = store
        return try Self.wait { try await store.explain(of: name, pipeline) }.description
    }

    // MARK: Indexes

    func createIndex(_ name: String, on fields: [FieldPath], unique: Bool) throws -> IndexInfo {
        let collection = collection(name)
        return try Self.wait { try await collection.createIndex(on: fields, unique: unique) }
    }

    func dropIndex(_ name: String, on fields: [FieldPath]) throws -> Bool {
        let collection = collection(name)
        return try Self.wait { try await collection.dropIndex(on: fields) }
    }

    func foreignTables() throws -> [String] {
        let store = store
        return try Self.wait { try await store.foreignTables() }
    }

    func indexes(_ name: String) throws -> [IndexInfo] {
        let collection = collection(name)
        return try Self.wait { try await collection.indexes() }
    }

    func changeField(_ name: String, _ change: FieldChangeCommand) throws -> FieldChangeSummary {
        let collection = collection(name)
        return try Self.wait {
            switch change {
            case .rename(let old, let new): try await collection.renameField(old, to: new)
            case .copy(let source, let target): try await collection.copyField(source, to: target)
            case .remove(let path): try await collection.removeField(path)
            case .setDefault(let path, let value): try await collection.setDefault(path, to: value)
            }
        }
    }

    func createSearchIndex(_ name: String, on fields: [FieldPath]) throws -> SearchIndexInfo {
        let collection = collection(name)
        return try Self.wait { try await collection.createSearchIndex(on: fields) }
    }

    func dropSearchIndex(_ name: String, on fields: [FieldPath]) throws -> Bool {
        let collection = collection(name)
        return try Self.wait { try await collection.dropSearchIndex(on: fields) }
    }

    func searchIndexes(_ name: String) throws -> [SearchIndexInfo] {
        let collection = collection(name)
        return try Self.wait { try await collection.searchIndexes() }
    }

    /// PostgreSQL reads a jsonb field without parsing the document's text, which
    /// is what field columns save SQLite: there is nothing for them to do.
    func createFieldColumns(_ name: String, on fields: [FieldPath]) throws -> FieldColumnsInfo {
        throw CommandError("field columns are for file stores: PostgreSQL reads jsonb fields without parsing the documents' text; "
                           + "an index (\(name).createIndex(…)) is what speeds a query there")
    }

    func dropFieldColumns(_ name: String, on fields: [FieldPath]) throws -> Bool { false }

    func fieldColumns(_ name: String) throws -> FieldColumnsInfo? { nil }

    /// Builds the collection's search indexes again; how many there are.
    func rebuildSearchIndexes(_ name: String) throws -> Int {
        let collection = collection(name)
        return try Self.wait { () async throws -> Int in
            try await collection.rebuildSearchIndexes()
            return try await collection.searchIndexes().count
        }
    }

    // MARK: Whole collections

    var importDestination: any ImportDestination { PostgresImportDestination(store: store) }

    /// How long a field sample waits for another session's lock.
    static let sampleLockWait: Duration = .milliseconds(200)

    func sample(_ name: String, size: Int) throws -> FieldSample {
        let collection = collection(name)
        let (documents, every) = try Self.wait { () async throws -> ([JSONValue], Bool) in
            // One more than asked for tells a collection that has more.
            // A collection another session holds is not sampled (the parser
            // goes on without its field names): the command itself waits.
            let picked = try await collection.spreadSample(size: size + 1, lockWait: Self.sampleLockWait)
            if picked.count <= size { return (picked.map(\.document), true) }
            return (try await collection.spreadSample(size: size, lockWait: Self.sampleLockWait).map(\.document), false)
        }
        var sample = FieldSample()
        sample.sampledEveryDocument = every
        for document in documents { sample.add(document) }
        return sample
    }

    /// Pages in key order, all read in one snapshot: page by page outside one,
    /// an export made while another process wrote mixed its states.
    func forEachInKeyOrder(_ name: String, _ body: (JSONValue) throws -> Void) throws {
        try readingOneSnapshot {
            try forEachPage(name, size: Self.pageSize) { page in
                for (_, document) in page { try body(document) }
            }
        }
    }

    /// What another tool may have changed behind DocStore's back (the server
    /// validates jsonb and checks its own files, with pg_amcheck): catalog rows
    /// against tables, tables the catalog lost, and documents that are not
    /// objects or whose `"id"` is not their key.
    func check(_ name: String?) throws -> (report: String, isHealthy: Bool) {
        let store = store
        if let name, try !collections().contains(where: { $0.name == name }) {
            throw CommandError("no collection named \(DocumentKeyQuoting.quoted(name))")
        }
        let checked = try Self.wait { try await store.check(collection: name) }
        return ("\(checked)", checked.isHealthy)
    }

    func repair(_ name: String) throws -> String {
        let store = store
        return "\(try Self.wait { try await store.repair(collection: name) })"
    }

    /// A bare collection as a stream of pages in key order, printed as they
    /// come (flat memory on a million documents, as the README says); other
    /// results come whole from the server (nil: ``CommandRunner/run(_:)``).
    /// Answered whole, a bare collection of 579 000 documents held 670 MB.
    /// The result of `command` as a stream, for the same commands as on a
    /// file store (a query's documents, a select's rows, a group's or join's
    /// rows): printed, exported or sent to `.once`/`.output` whole, and cut
    /// for the screen alone as `.maxrows` says. Only whole collections were
    /// streamed: the rest went through the display limit of 100, so `.export
    /// FILE QUERY` on an interactive session wrote 100 of 630 documents, and
    /// `.maxrows` was ignored (helper-56).
    func stream(_ command: REPLCommand, interruption: Interruption) throws -> ResultStream? {
        switch command {
        case .query(let name, let query, .fetch):
            return ResultStream(columns: nil, noun: "document", isLimited: query.limit != nil) { body in
                var count = 0
                let each = { (document: JSONValue) throws in
                    try interruption.check("interrupted after \(CommandResult.plural(count, "document"))")
                    try body(.document(document))
                    count += 1
                }
                if query == DocumentQuery() { try self.forEachInKeyOrder(name, each) } else { try self.forEach(name, query, each) }
            }
        case .query(let name, let query, .select(let fields)):
            return ResultStream(columns: fields.map(\.description), noun: "row", isLimited: query.limit != nil) { body in
                var count = 0
                try self.forEach(name, query) { document in
                    try interruption.check("interrupted after \(CommandResult.plural(count, "row"))")
                    try body(.row(fields.map { document.value(at: $0) ?? .null }))
                    count += 1
                }
            }
        case .pipeline(let name, let pipeline, .rows):
            return ResultStream.pipelineRows(pipeline, columns: try columns(name, pipeline), interruption: interruption) { body in
                try self.forEachRow(name, pipeline, body)
            }
        default:
            return nil
        }
    }

    /// One snapshot for both passes of a table or CSV: read apart, a commit
    /// between them gave rows of the new state under the columns of the old,
    /// so a field that commit added was not shown (helper-50).
    func reading<Value>(_ body: () throws -> Value) throws -> Value { try readingOneSnapshot(body) }
}

/// An error of the PostgreSQL server or connection, in words (its SQLSTATE,
/// detail and hint included).
struct PostgresFailure: Error, CustomStringConvertible {
    var description: String
    /// The store's error (whether a write may have been committed).
    let error: PostgresStoreError

    init(_ error: PostgresStoreError) {
        description = error.errorDescription ?? "\(error)"
        self.error = error
    }
}
