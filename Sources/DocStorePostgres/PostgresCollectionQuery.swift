@_spi(Backends) import DocStore

/// A typed query on a ``PostgresCollection``, built with the same closures as
/// ``DocStore/CollectionQuery`` (`filter`, `sorted`, `limit`, `join`, `select`,
/// `group(by:)`, `update`), so a query reads the same on SQLite and on
/// PostgreSQL:
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
    /// Joins (and the filters, sorts and limits after them), when there are any.
    var stages: [PipelineStage] = []
    /// Why the query can't run (a condition that couldn't be built), reported when it runs.
    var invalid: DocStoreError?

    init(collection: PostgresCollection<Model>) {
        self.collection = collection
    }

    /// The query's AST, or the error a condition stands for.
    public func documentQuery() throws -> DocumentQuery {
        if let invalid { throw invalid }
        guard stages.isEmpty else {
            throw DocStoreError.invalidQuery(collection: collection.name, field: nil,
                                             reason: "after a join, a query can fetch, count, select and explain; deletes, updates, keys and aggregates work on the collection's own documents")
        }
        return query
    }

    /// The AST of a query with joins: its documents, then the joins and what follows them.
    public func queryPipeline() throws -> QueryPipeline {
        if let invalid { throw invalid }
        return QueryPipeline(query, stages: stages)
    }

    /// Changes the filter, sort and limit: the collection's, or those after the last join.
    private func refining(_ change: (inout DocumentQuery) -> Void) -> PostgresCollectionQuery {
        var copy = self
        QueryPipeline.refine(&copy.query, &copy.stages, change)
        return copy
    }

    // MARK: Building

    /// Keeps the documents matching every line of `body` (ANDed).
    public func filter(
        @ConditionBuilder<Model.Fields> _ body: (Model.Fields) -> [DocumentCondition]
    ) -> PostgresCollectionQuery {
        do {
            let added = try BackendSupport.condition(body(Model.Fields(_path: .root)), collection: collection.name)
            return refining { $0.condition = BackendSupport.and($0.condition, added) }
        } catch {
            var copy = self
            copy.invalid = copy.invalid ?? (error as? DocStoreError)
                ?? .invalidQuery(collection: collection.name, field: nil, reason: "\(error)")
            return copy
        }
    }

    /// Sorts by the fields of `body`, first to last; ties end in key order. A
    /// later `sorted` sorts before the earlier ones, as on SQLite.
    public func sorted(@SortBuilder<Model.Fields> by body: (Model.Fields) -> [SortKey]) -> PostgresCollectionQuery {
        let keys = body(Model.Fields(_path: .root))
        return refining { $0.sort = keys + $0.sort }
    }

    /// At most `limit` documents, after skipping `offset`.
    public func limit(_ limit: Int, offset: Int? = nil) -> PostgresCollectionQuery {
        refining { query in
            query.limit = limit
            query.offset = offset ?? query.offset
        }
    }

    // MARK: Joins

    /// Each document with the document of `other` whose field equals its own,
    /// in the model's optional property `member` (`nil` when none does; the one
    /// with the smallest key when several do), as on SQLite.
    public func join<Other: QueryableDocument, Value>(
        _ other: PostgresCollection<Other>,
        on field: KeyPath<Model.Fields, DocumentField<Value>>,
        equals otherField: KeyPath<Other.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<Other?>>
    ) -> PostgresCollectionQuery {
        joined(other.name, on: Model.Fields(_path: .root)[keyPath: field].fieldPath,
               equals: .field(Other.Fields(_path: .root)[keyPath: otherField].fieldPath), as: member)
    }

    /// Each document with the document of `other` whose same-named field equals its own.
    public func join<Other: QueryableDocument, Value>(
        _ other: PostgresCollection<Other>,
        on field: KeyPath<Model.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<Other?>>
    ) -> PostgresCollectionQuery {
        let path = Model.Fields(_path: .root)[keyPath: field].fieldPath
        return joined(other.name, on: path, equals: .field(path), as: member)
    }

    /// Each document with the document of `other` whose key equals its field.
    public func join<Other: QueryableDocument, Value>(
        _ other: PostgresCollection<Other>,
        onKey field: KeyPath<Model.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<Other?>>
    ) -> PostgresCollectionQuery {
        joined(other.name, on: Model.Fields(_path: .root)[keyPath: field].fieldPath, equals: .key, as: member)
    }

    /// Each document with every document of `other` whose field equals its own,
    /// in key order, in the model's optional array property `member`.
    public func joinAll<Other: QueryableDocument, Value>(
        _ other: PostgresCollection<Other>,
        on field: KeyPath<Model.Fields, DocumentField<Value>>,
        equals otherField: KeyPath<Other.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<[Other]?>>
    ) -> PostgresCollectionQuery {
        joined(other.name, on: Model.Fields(_path: .root)[keyPath: field].fieldPath,
               equals: .field(Other.Fields(_path: .root)[keyPath: otherField].fieldPath), as: member, many: true)
    }

    private func joined<Member>(
        _ other: String, on path: FieldPath, equals target: Join.Target,
        as member: KeyPath<Model.Fields, DocumentField<Member>>, many: Bool = false
    ) -> PostgresCollectionQuery {
        var copy = self
        let memberPath = Model.Fields(_path: .root)[keyPath: member].fieldPath
        guard let stage = QueryPipeline.joinStage(other, on: path, equals: target, into: memberPath, many: many) else {
            copy.invalid = copy.invalid ?? .invalidQuery(collection: collection.name, field: memberPath.description,
                                                         reason: "a joined document goes in a property of the model itself")
            return copy
        }
        copy.stages.append(stage)
        return copy
    }

    // MARK: Running

    /// The documents selected, in order.
    public func fetch() async throws -> [Model] {
        guard !stages.isEmpty else { return try await collection.fetch(documentQuery()) }
        let name = collection.name
        return try await collection.rows(queryPipeline()).map { row in
            try BackendSupport.decode(Model.self, from: row, collection: name, at: "")
        }
    }

    /// The first document selected, or nil.
    public func first() async throws -> Model? {
        try await limit(1).fetch().first
    }

    /// The number of documents selected.
    public func count() async throws -> Int {
        guard !stages.isEmpty else { return try await collection.count(documentQuery()) }
        return try await collection.count(queryPipeline())
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

    /// Changes the selected documents, in one statement; returns how many
    /// changed. The same changes as on SQLite:
    ///
    ///     try await players.filter { $0.teamId == 30 }.update {
    ///         $0.teamId.set(to: 31)
    ///         $0.stats.games.increment(by: 1)
    ///         $0.nickname.remove()
    ///     }
    @discardableResult
    public func update(
        @UpdateBuilder<Model.Fields> _ body: (Model.Fields) -> [DocumentFieldUpdate]
    ) async throws -> Int {
        let updates = try BackendSupport.updates(body(Model.Fields(_path: .root)), collection: collection.name)
        if updates.isEmpty { return 0 }
        return try await collection.update(documentQuery(), updates)
    }

    /// How PostgreSQL runs the query: its SQL, bindings and plan (`EXPLAIN`).
    public func explain() async throws -> QueryExplanation {
        guard !stages.isEmpty else { return try await collection.explain(documentQuery()) }
        return try await collection.explain(queryPipeline())
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
