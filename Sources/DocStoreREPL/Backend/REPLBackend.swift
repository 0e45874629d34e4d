import DocStore

/// The store a REPL session runs on: a DocStore file (SQLite) or a PostgreSQL
/// database. The session's parser, commands and output are the same for both;
/// this is everything they ask of a store. Each call takes the collection by
/// name and the query as DocStore's AST, which each backend compiles for its
/// own database.
///
/// Calls are synchronous: the REPL runs on a thread of its own, and a backend
/// whose API is async waits for it there (``AsyncBridge``).
protocol REPLBackend: AnyObject {
    /// Which database the store is on, for the prompt and messages.
    var kind: BackendKind { get }
    /// Whether writes are refused (`--read-only`).
    var isReadOnly: Bool { get }

    // MARK: Collections and documents

    /// The collections, sorted by name.
    func collections() throws -> [CollectionInfo]
    /// A number that changes when another process commits (schema caches are
    /// dropped then), or nil when the backend can't tell.
    func changesByOthers() -> Int64?
    func get(_ collection: String, _ key: DocumentKey) throws -> JSONValue?
    /// Inserts documents all or none; returns their keys (generated for those without `"id"`).
    func insert(_ collection: String, _ documents: [JSONValue]) throws -> [DocumentKey]
    /// Inserts or replaces documents, all or none.
    func save(_ collection: String, _ documents: [JSONValue]) throws
    func delete(_ collection: String, _ key: DocumentKey) throws -> Bool
    func deleteAll(_ collection: String) throws -> Int
    func dropCollection(_ collection: String) throws -> Bool

    // MARK: Queries

    /// Calls `body` with each selected document in the query's order (key order
    /// when it has none); `body` throwing stops the reading.
    func forEach(_ collection: String, _ query: DocumentQuery, _ body: (JSONValue) throws -> Void) throws
    func first(_ collection: String, _ query: DocumentQuery) throws -> JSONValue?
    func count(_ collection: String, _ query: DocumentQuery) throws -> Int
    func exists(_ collection: String, _ query: DocumentQuery) throws -> Bool
    func keys(_ collection: String, _ query: DocumentQuery) throws -> [DocumentKey]
    /// The values of `fields` in each selected document (null where missing).
    func select(_ collection: String, _ query: DocumentQuery, fields: [FieldPath]) throws -> [[JSONValue]]
    func aggregate(_ collection: String, _ query: DocumentQuery, _ aggregate: Aggregate) throws -> JSONValue
    func delete(_ collection: String, _ query: DocumentQuery) throws -> Int
    func update(_ collection: String, _ query: DocumentQuery, _ updates: [FieldUpdate]) throws -> Int
    /// How the database runs the query, as text.
    func explain(_ collection: String, _ query: DocumentQuery) throws -> String

    // MARK: Pipelines (groups, joins, computed values)

    /// The columns a pipeline's rows have, or nil when its rows are documents.
    func columns(_ collection: String, _ pipeline: QueryPipeline) throws -> [(header: String, path: FieldPath)]?
    func forEachRow(_ collection: String, _ pipeline: QueryPipeline, _ body: (JSONValue) throws -> Void) throws
    func count(_ collection: String, _ pipeline: QueryPipeline) throws -> Int
    func explain(_ collection: String, _ pipeline: QueryPipeline) throws -> String

    // MARK: Indexes

    func createIndex(_ collection: String, on fields: [FieldPath], unique: Bool) throws -> IndexInfo
    func dropIndex(_ collection: String, on fields: [FieldPath]) throws -> Bool
    func indexes(_ collection: String) throws -> [IndexInfo]
    /// The collections whose table another program replaced with its own.
    func foreignTables() throws -> [String]
    /// A field change on every document of the collection (rename, copy,
    /// remove, default), its indexes following.
    func changeField(_ collection: String, _ change: FieldChangeCommand) throws -> FieldChangeSummary
    /// Full-text search indexes: made, dropped, listed, rebuilt (returns how many).
    func createSearchIndex(_ collection: String, on fields: [FieldPath]) throws -> SearchIndexInfo
    func dropSearchIndex(_ collection: String, on fields: [FieldPath]) throws -> Bool
    func searchIndexes(_ collection: String) throws -> [SearchIndexInfo]
    func rebuildSearchIndexes(_ collection: String) throws -> Int
    /// Keeps fields' values in columns beside the documents (SQLite only).
    func createFieldColumns(_ collection: String, on fields: [FieldPath]) throws -> FieldColumnsInfo
    func dropFieldColumns(_ collection: String, on fields: [FieldPath]) throws -> Bool
    func fieldColumns(_ collection: String) throws -> FieldColumnsInfo?

    // MARK: Whole collections

    /// Up to `size` documents spread over the collection's keys, for `.schema`
    /// and completion.
    func sample(_ collection: String, size: Int) throws -> FieldSample
    /// Where `.import` writes: one transaction for the whole file.
    var importDestination: any ImportDestination { get }
    /// Calls `body` with every document in key order, in bounded memory.
    func forEachInKeyOrder(_ collection: String, _ body: (JSONValue) throws -> Void) throws
    /// `.check`: what is wrong with the store or one collection, in words, and
    /// whether nothing is (the session fails the command otherwise, so that a
    /// script's `docstore s.db -c .check` exits 1 on damage).
    func check(_ collection: String?) throws -> (report: String, isHealthy: Bool)
    /// `.repair`: what was done, in words.
    func repair(_ collection: String) throws -> String

    // MARK: Streaming

    /// The result of a long query as a stream read while it prints, or nil when
    /// the backend answers it whole (``CommandRunner/run(_:)``).
    func stream(_ command: REPLCommand, interruption: Interruption) throws -> ResultStream?
    /// Runs `body` (which may read a stream twice) on one snapshot of the store.
    func reading<Value>(_ body: () throws -> Value) throws -> Value
}

/// Which database a REPL session runs on.
enum BackendKind: Sendable {
    case sqlite, postgres

    /// The database's name, in messages.
    var name: String {
        switch self {
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }
}

/// Where `.import` writes a file: the whole file in one transaction.
protocol ImportDestination {
    /// Whether the collection exists already.
    func collectionExists(_ collection: String) throws -> Bool
    /// Runs `body` in one transaction, committed when it returns and rolled
    /// back when it throws.
    func write(_ collection: String, _ body: (any ImportTarget) throws -> Void) throws
}

/// A collection being imported into, inside the import's transaction.
protocol ImportTarget {
    /// Inserts documents all or none (a savepoint): documents as values, and
    /// JSON object texts with their keys (nil: generate one).
    func insertAllOrNone(values: [JSONValue], texts: [DocumentCollection<JSONValue>.JSONObjectText]) throws
}
