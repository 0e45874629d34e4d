import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

/// The stores a semantics test runs on: the same test, the same expected
/// answers, on SQLite (in memory) and on PostgreSQL (a fresh database of the
/// suite's private server, ``PostgresServerTrait``).
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }
}

/// A store of either backend, as semantics tests use it (the AST, async).
struct BackendStore: Sendable {
    let backend: Backend
    let sqlite: DocumentStore?
    let postgres: PostgresDocumentStore?

    /// A new, empty store.
    static func make(_ backend: Backend) async throws -> BackendStore {
        switch backend {
        case .sqlite: BackendStore(backend: backend, sqlite: try DocumentStore.inMemory(), postgres: nil)
        case .postgres: BackendStore(backend: backend, sqlite: nil, postgres: try await PostgresTestServer.freshStore())
        }
    }

    /// Runs `body` on a new store of `backend`, closed afterwards, also when `body` throws.
    static func with(_ backend: Backend, _ body: (BackendStore) async throws -> Void) async throws {
        let store = try await make(backend)
        do {
            try await body(store)
        } catch {
            await store.postgres?.close()
            throw error
        }
        await store.postgres?.close()
    }

    func collection<Model: Codable & Sendable & Identifiable>(
        _ type: Model.Type, named name: String
    ) -> BackendCollection<Model> where Model.ID: DocumentKeyRepresentable {
        BackendCollection(name: name, sqlite: sqlite?.collection(type, named: name), postgres: postgres?.collection(type, named: name))
    }

    func collection(named name: String) -> BackendCollection<JSONValue> {
        BackendCollection(name: name, sqlite: sqlite?.collection(named: name), postgres: postgres?.collection(named: name))
    }
}

/// A collection of either backend: each call goes to the one it holds.
struct BackendCollection<Model: Codable & Sendable>: Sendable {
    enum Storage: Sendable {
        case sqlite(DocumentCollection<Model>)
        case postgres(PostgresCollection<Model>)
    }

    let name: String
    let storage: Storage

    init(name: String, sqlite: DocumentCollection<Model>?, postgres: PostgresCollection<Model>?) {
        self.name = name
        if let sqlite {
            storage = .sqlite(sqlite)
        } else if let postgres {
            storage = .postgres(postgres)
        } else {
            preconditionFailure("a backend collection needs the collection of one backend")
        }
    }

    var sqlite: DocumentCollection<Model>? {
        if case .sqlite(let collection) = storage { collection } else { nil }
    }

    var postgres: PostgresCollection<Model>? {
        if case .postgres(let collection) = storage { collection } else { nil }
    }

    func run<T>(_ onSQLite: (DocumentCollection<Model>) throws -> T,
                        _ onPostgres: (PostgresCollection<Model>) async throws -> T) async throws -> T {
        switch storage {
        case .sqlite(let collection): try onSQLite(collection)
        case .postgres(let collection): try await onPostgres(collection)
        }
    }

    @discardableResult
    func insert(contentsOf models: [Model]) async throws -> [DocumentKey] {
        try await run({ try $0.insert(contentsOf: models) }, { try await $0.insert(contentsOf: models) })
    }

    func save(contentsOf models: [Model]) async throws {
        try await run({ try $0.save(contentsOf: models) }, { try await $0.save(contentsOf: models) })
    }

    func get(_ key: some DocumentKeyRepresentable & Sendable) async throws -> Model? {
        try await run({ try $0.get(key) }, { try await $0.get(key) })
    }

    func all() async throws -> [Model] {
        try await run({ try $0.all() }, { try await $0.all() })
    }

    func fetch(_ query: DocumentQuery) async throws -> [Model] {
        try await run({ try $0.fetch(query) }, { try await $0.fetch(query) })
    }

    func keys(_ query: DocumentQuery = DocumentQuery()) async throws -> [DocumentKey] {
        try await run({ try $0.keys(query) }, { try await $0.keys(query) })
    }

    func count(_ query: DocumentQuery) async throws -> Int {
        try await run({ try $0.count(query) }, { try await $0.count(query) })
    }

    func aggregate(_ query: DocumentQuery, _ aggregate: Aggregate) async throws -> JSONValue {
        try await run({ try $0.aggregate(query, aggregate) }, { try await $0.aggregate(query, aggregate) })
    }

    func delete(_ query: DocumentQuery) async throws -> Int {
        try await run({ try $0.delete(query) }, { try await $0.delete(query) })
    }

    func update(_ query: DocumentQuery, _ updates: [FieldUpdate]) async throws -> Int {
        try await run({ try $0.update(query, updates) }, { try await $0.update(query, updates) })
    }

    func rows(_ pipeline: QueryPipeline) async throws -> [JSONValue] {
        try await run({ try $0.rows(pipeline) }, { try await $0.rows(pipeline) })
    }

    func explain(_ query: DocumentQuery) async throws -> QueryExplanation {
        try await run({ try $0.explain(query) }, { try await $0.explain(query) })
    }

    /// The values of `fields` of each selected document (a pipeline's select on
    /// PostgreSQL, `select(_:fields:)` on SQLite).
    func select(_ query: DocumentQuery, fields: [FieldPath]) async throws -> [[JSONValue]] {
        try await run({ try $0.select(query, fields: fields) }, { collection in
            let pipeline = QueryPipeline(query, stages: [.select(fields.indices.map { NamedExpression("c\($0)", .field(fields[$0])) })])
            return try await collection.rows(pipeline).map { row in fields.indices.map { row["c\($0)"] ?? .null } }
        })
    }
}
