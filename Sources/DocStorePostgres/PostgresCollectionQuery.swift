@_spi(Backends) import DocStore

/// A typed query on a ``PostgresCollection``, built with the same closures as
/// ``DocStore/CollectionQuery`` (`filter`, `sorted`, `limit`), so a query reads
/// the same on SQLite and on PostgreSQL:
///
///     let found = try await players
///         .filter { $0.teamId == 1; $0.number >= 10 }
///         .sorted { $0.lastName; $0.number.descending }
///         .limit(10)
///         .fetch()
public struct PostgresCollectionQuery<Model: QueryableDocument & Sendable>: Sendable {
    /// The collection queried.
    public let collection: PostgresCollection<Model>
    /// The query's AST.
    var query = DocumentQuery()
    /// Why the query can't run (a condition that couldn't be built), reported when it runs.
    var invalid: DocStoreError?

    init(collection: PostgresCollection<Model>) {
        self.collection = collection
    }

    /// The query's AST, or the error a condition stands for.
    public func documentQuery() throws -> DocumentQuery {
        if let invalid { throw invalid }
        return query
    }

    // MARK: Building

    /// Keeps the documents matching every line of `body` (ANDed).
    public func filter(
        @ConditionBuilder<Model.Fields> _ body: (Model.Fields) -> [DocumentCondition]
    ) -> PostgresCollectionQuery {
        var copy = self
        do {
            let added = try BackendSupport.condition(body(Model.Fields(_path: .root)), collection: collection.name)
            copy.query.condition = BackendSupport.and(copy.query.condition, added)
        } catch {
            copy.invalid = copy.invalid ?? (error as? DocStoreError)
                ?? .invalidQuery(collection: collection.name, field: nil, reason: "\(error)")
        }
        return copy
    }

    /// Sorts by the fields of `body`, first to last; ties end in key order. A
    /// later `sorted` sorts before the earlier ones, as on SQLite.
    public func sorted(@SortBuilder<Model.Fields> by body: (Model.Fields) -> [SortKey]) -> PostgresCollectionQuery {
        var copy = self
        copy.query.sort = body(Model.Fields(_path: .root)) + query.sort
        return copy
    }

    /// At most `limit` documents, after skipping `offset`.
    public func limit(_ limit: Int, offset: Int? = nil) -> PostgresCollectionQuery {
        var copy = self
        copy.query.limit = limit
        copy.query.offset = offset ?? query.offset
        return copy
    }

    // MARK: Running

    /// The documents selected, in order.
    public func fetch() async throws -> [Model] {
        try await collection.fetch(documentQuery())
    }

    /// The first document selected, or nil.
    public func first() async throws -> Model? {
        try await limit(1).fetch().first
    }

    /// The number of documents selected.
    public func count() async throws -> Int {
        try await collection.count(documentQuery())
    }

    /// Whether any document is selected.
    public func exists() async throws -> Bool {
        try await !limit(1).keys().isEmpty
    }

    /// The keys of the documents selected, in order.
    public func keys() async throws -> [DocumentKey] {
        try await collection.keys(documentQuery())
    }

    /// Deletes the documents selected; returns how many.
    @discardableResult
    public func delete() async throws -> Int {
        try await collection.delete(documentQuery())
    }

    /// The least non-null value of a field among the selected documents, in
    /// DocStore's sort order; nil when there is none.
    public func min<Value: Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) async throws -> Value? {
        try await extreme(.min(Model.Fields(_path: .root)[keyPath: field].fieldPath))
    }

    /// The greatest non-null value of a field among the selected documents.
    public func max<Value: Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) async throws -> Value? {
        try await extreme(.max(Model.Fields(_path: .root)[keyPath: field].fieldPath))
    }

    private func extreme<Value: Decodable>(_ aggregate: Aggregate) async throws -> Value? {
        let value = try await collection.aggregate(documentQuery(), aggregate)
        if value == .null { return nil }
        return try BackendSupport.decode(Value.self, from: value, collection: collection.name)
    }
}

extension PostgresCollection where Model: QueryableDocument {
    /// A query selecting every document, to refine.
    public var query: PostgresCollectionQuery<Model> {
        PostgresCollectionQuery(collection: self)
    }

    /// The documents matching every line of `body`.
    public func filter(
        @ConditionBuilder<Model.Fields> _ body: (Model.Fields) -> [DocumentCondition]
    ) -> PostgresCollectionQuery<Model> {
        query.filter(body)
    }

    /// Every document, sorted by the fields of `body`.
    public func sorted(@SortBuilder<Model.Fields> by body: (Model.Fields) -> [SortKey]) -> PostgresCollectionQuery<Model> {
        query.sorted(by: body)
    }
}
