import DocStore

/// A REPL session on a DocStore file or in-memory store: each call goes to the
/// store's own collection API, exactly as the REPL did before it had backends.
final class SQLiteBackend: REPLBackend {
    let store: DocumentStore

    init(store: DocumentStore) {
        self.store = store
    }

    var kind: BackendKind { .sqlite }
    var isReadOnly: Bool { store.isReadOnly }

    // MARK: Collections and documents

    func collections() throws -> [CollectionInfo] { try store.collections() }
    func changesByOthers() -> Int64? { try? store.changesByOthers() }

    func get(_ collection: String, _ key: DocumentKey) throws -> JSONValue? {
        try store.collection(named: collection).get(key)
    }

    func insert(_ collection: String, _ documents: [JSONValue]) throws -> [DocumentKey] {
        try store.collection(named: collection).insert(contentsOf: documents)
    }

    func save(_ collection: String, _ documents: [JSONValue]) throws {
        try store.write { transaction in
            let target = transaction.collection(named: collection)
            for document in documents { try target.save(document) }
        }
    }

    func delete(_ collection: String, _ key: DocumentKey) throws -> Bool {
        try store.collection(named: collection).delete(key)
    }

    func deleteAll(_ collection: String) throws -> Int { try store.collection(named: collection).deleteAll() }
    func dropCollection(_ collection: String) throws -> Bool { try store.dropCollection(named: collection) }

    // MARK: Queries

    func forEach(_ collection: String, _ query: DocumentQuery, _ body: (JSONValue) throws -> Void) throws {
        // A bare `coll` needs no query: the collection's own method reads it in
        // key order with no SQL to compile.
        if query == DocumentQuery() { return try store.collection(named: collection).forEach(body) }
        try store.collection(named: collection).forEach(query, body)
    }

    func first(_ collection: String, _ query: DocumentQuery) throws -> JSONValue? {
        try store.collection(named: collection).first(query)
    }

    func count(_ collection: String, _ query: DocumentQuery) throws -> Int {
        if query == DocumentQuery() { return try store.collection(named: collection).count() }
        return try store.collection(named: collection).count(query)
    }

    func exists(_ collection: String, _ query: DocumentQuery) throws -> Bool {
        try store.collection(named: collection).exists(query)
    }

    func keys(_ collection: String, _ query: DocumentQuery) throws -> [DocumentKey] {
        if query == DocumentQuery() { return try store.collection(named: collection).keys() }
        return try store.collection(named: collection).keys(query)
    }

    func select(_ collection: String, _ query: DocumentQuery, fields: [FieldPath]) throws -> [[JSONValue]] {
        try store.collection(named: collection).select(query, fields: fields)
    }

    func aggregate(_ collection: String, _ query: DocumentQuery, _ aggregate: Aggregate) throws -> JSONValue {
        try store.collection(named: collection).aggregate(query, aggregate)
    }

    func delete(_ collection: String, _ query: DocumentQuery) throws -> Int {
        try store.collection(named: collection).delete(query)
    }

    func update(_ collection: String, _ query: DocumentQuery, _ updates: [FieldUpdate]) throws -> Int {
        try store.collection(named: collection).update(query, updates)
    }

    func explain(_ collection: String, _ query: DocumentQuery) throws -> String {
        try store.collection(named: collection).explain(query).description
    }

    // MARK: Pipelines

    func columns(_ collection: String, _ pipeline: QueryPipeline) throws -> [(header: String, path: FieldPath)]? {
        try store.collection(named: collection).columns(of: pipeline)
    }

    func forEachRow(_ collection: String, _ pipeline: QueryPipeline, _ body: (JSONValue) throws -> Void) throws {
        try store.collection(named: collection).forEachRow(pipeline, body)
    }

    func count(_ collection: String, _ pipeline: QueryPipeline) throws -> Int {
        try store.collection(named: collection).count(pipeline)
    }

    func explain(_ collection: String, _ pipeline: QueryPipeline) throws -> String {
        try store.collection(named: collection).explain(pipeline).description
    }

    // MARK: Indexes

    func createIndex(_ collection: String, on fields: [FieldPath], unique: Bool) throws -> IndexInfo {
        try store.collection(named: collection).createIndex(on: fields, unique: unique)
    }

    func dropIndex(_ collection: String, on fields: [FieldPath]) throws -> Bool {
        try store.collection(named: collection).dropIndex(on: fields)
    }

    func foreignTables() throws -> [String] { try store.foreignTables() }

    func indexes(_ collection: String) throws -> [IndexInfo] {
        try store.collection(named: collection).indexes()
    }

    func changeField(_ collection: String, _ change: FieldChangeCommand) throws -> FieldChangeSummary {
        let documents = store.collection(named: collection)
        switch change {
        case .rename(let old, let new): return try documents.renameField(old, to: new)
        case .copy(let source, let target): return try documents.copyField(source, to: target)
        case .remove(let path): return try documents.removeField(path)
        case .setDefault(let path, let value): return try documents.setDefault(path, to: value)
        }
    }

    func createSearchIndex(_ collection: String, on fields: [FieldPath]) throws -> SearchIndexInfo {
        try store.collection(named: collection).createSearchIndex(on: fields)
    }

    func dropSearchIndex(_ collection: String, on fields: [FieldPath]) throws -> Bool {
        try store.collection(named: collection).dropSearchIndex(on: fields)
    }

    func searchIndexes(_ collection: String) throws -> [SearchIndexInfo] {
        try store.collection(named: collection).searchIndexes()
    }

    func createFieldColumns(_ collection: String, on fields: [FieldPath]) throws -> FieldColumnsInfo {
        try store.collection(named: collection).createFieldColumns(on: fields)
    }

    func dropFieldColumns(_ collection: String, on fields: [FieldPath]) throws -> Bool {
        try store.collection(named: collection).dropFieldColumns(on: fields)
    }

    func fieldColumns(_ collection: String) throws -> FieldColumnsInfo? {
        try store.collection(named: collection).fieldColumns()
    }

    func rebuildSearchIndexes(_ collection: String) throws -> Int {
        let documents = store.collection(named: collection)
        try documents.rebuildSearchIndexes()
        return try documents.searchIndexes().count
    }

    // MARK: Whole collections

    var importDestination: any ImportDestination { SQLiteImportDestination(store: store) }

    func forEachInKeyOrder(_ collection: String, _ body: (JSONValue) throws -> Void) throws {
        try store.collection(named: collection).forEach(body)
    }

    func check(_ collection: String?) throws -> (report: String, isHealthy: Bool) {
        guard let collection else {
            let report = try store.check()
            return (report.description, report.isHealthy)
        }
        let report = try store.check(collection: collection)
        return (report.description, report.isHealthy)
    }

    func repair(_ collection: String) throws -> String {
        try store.repair(collection: collection).description
    }

    func reading<Value>(_ body: () throws -> Value) throws -> Value {
        try store.read { _ in try body() }
    }
}

/// `.import` into a DocStore file: one write transaction; each batch a savepoint.
struct SQLiteImportDestination: ImportDestination {
    let store: DocumentStore

    func collectionExists(_ collection: String) throws -> Bool {
        try store.collections().contains { $0.name == collection }
    }

    func write(_ collection: String, _ body: (any ImportTarget) throws -> Void) throws {
        // Inside the import's batch savepoints, every insert that triggers follow
        // (field columns, search indexes) keeps a statement journal of the pages
        // it changes: in a temporary file, that is ~4 page writes a row (452 000
        // for Batting, 3.4x the import's time); in memory it is a few pages at a
        // time. (SQLite allows the change only outside a transaction.)
        try setTemporaryStore("MEMORY")
        defer { try? setTemporaryStore("DEFAULT") }
        try store.write { transaction in
            let target = transaction.collection(named: collection)
            try target.loadingWithFieldColumnsAfter { try body(target) }
        }
    }

    /// `PRAGMA temp_store`, outside any transaction.
    private func setTemporaryStore(_ mode: String) throws {
        try store.databaseWriter.writeWithoutTransaction { db in
            guard !db.isInsideTransaction else { return }
            try db.execute(sql: "PRAGMA temp_store = \(mode)")
        }
    }
}

extension DocumentCollection<JSONValue>: ImportTarget {
    func insertAllOrNone(values: [JSONValue], texts: [JSONObjectText]) throws {
        if values.count == 1, texts.isEmpty {
            try insert(values[0])
        } else if !values.isEmpty {
            try insert(contentsOf: values)
        }
        if !texts.isEmpty { try insert(jsonObjects: texts) }
    }
}
