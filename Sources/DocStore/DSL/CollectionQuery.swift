/// A typed query on a collection of ``QueryableDocument`` models: which documents,
/// in which order, how many. Build it from the collection, then run it:
///
///     let found = try players
///         .filter { $0.teamId == bos.id; $0.number >= 10 }
///         .sorted { $0.lastName; $0.number.descending }
///         .limit(10)
///         .fetch()
///
/// A query is a value: building one runs nothing, and each method returns a new
/// query. It holds the untyped AST (``documentQuery()``) that the collection's
/// execution methods compile to one SQL statement.
public struct CollectionQuery<Model: QueryableDocument>: Sendable {
    /// The collection the query runs on.
    public let collection: DocumentCollection<Model>
    var query: DocumentQuery
    /// Joins (and the filters, sorts and limits after them), when there are any.
    var stages: [PipelineStage] = []
    /// Why the query can't run, when one of its conditions could not be built.
    var invalid: InvalidQuery?

    init(collection: DocumentCollection<Model>, query: DocumentQuery = DocumentQuery()) {
        self.collection = collection
        self.query = query
    }

    /// The AST of the query, as the collection's execution methods take it.
    ///
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` when a value of
    ///   the query has no JSON form.
    public func documentQuery() throws -> DocumentQuery {
        if let invalid {
            throw invalid.error(collection: collection.name)
        }
        guard stages.isEmpty else {
            throw DocStoreError.invalidQuery(collection: collection.name, field: nil,
                                             reason: "after a join, a query can fetch, count, select and explain; deletes, updates, keys and aggregates work on the collection's own documents")
        }
        return query
    }

    /// The AST of a query with joins: its documents, then the joins and what follows them.
    public func queryPipeline() throws -> QueryPipeline {
        if let invalid { throw invalid.error(collection: collection.name) }
        return QueryPipeline(query, stages: stages)
    }

    /// Changes the filter, sort and limit: the collection's, or those after the last join.
    private func refining(_ change: (inout DocumentQuery) -> Void) -> CollectionQuery {
        var copy = self
        QueryPipeline.refine(&copy.query, &copy.stages, change)
        return copy
    }

    // MARK: Building

    /// The documents that satisfy every line of `body` too (lines are ANDed, and
    /// so are successive `filter` calls).
    ///
    ///     players.filter {
    ///         $0.teamId == 1
    ///         $0.lastName.hasPrefix("Ped")
    ///     }
    public func filter(
        @ConditionBuilder<Model.Fields> _ body: (Model.Fields) -> [DocumentCondition]
    ) -> CollectionQuery {
        filter(DocumentCondition.all(body(Model.Fields(_path: .root))))
    }

    /// The documents that satisfy `condition` too.
    public func filter(_ condition: DocumentCondition) -> CollectionQuery {
        var copy = self
        switch condition.result {
        case .success(let added):
            copy = refining { $0.condition = DocumentCondition.conjunction([$0.condition, added]) }
        case .failure(let failure):
            copy.invalid = copy.invalid ?? failure
        }
        return copy
    }

    /// The documents in the order of `body`'s keys, the first line deciding first:
    ///
    ///     players.sorted { $0.lastName; $0.number.descending }
    ///
    /// As with Swift's stable `sorted`, sorting a sorted query again makes the new
    /// keys decide first and the previous ones break their ties. Documents that
    /// tie on every key come in key order.
    public func sorted(@SortBuilder<Model.Fields> by body: (Model.Fields) -> [SortKey]) -> CollectionQuery {
        let keys = body(Model.Fields(_path: .root))
        return refining { $0.sort = keys + $0.sort }
    }

    /// At most `limit` documents, after skipping `offset` of them.
    public func limit(_ limit: Int, offset: Int? = nil) -> CollectionQuery {
        refining { query in
            query.limit = limit
            query.offset = offset ?? query.offset
        }
    }

    /// The AST changes of an update block.
    func fieldUpdates(
        @UpdateBuilder<Model.Fields> _ body: (Model.Fields) -> [DocumentFieldUpdate]
    ) throws -> [FieldUpdate] {
        try body(Model.Fields(_path: .root)).map { change in
            switch change.result {
            case .success(let update): return update
            case .failure(let failure):
                throw failure.error(collection: collection.name)
            }
        }
    }

    /// The query as a subquery for ``DocumentField/in(_:)``: the keys (or one
    /// field's values) of the documents it selects.
    func subquery(selecting field: FieldPath?) -> Result<Subquery, InvalidQuery> {
        if let invalid { return .failure(invalid) }
        return Subquery.checked(collection: collection.name, query: query, hasJoins: !stages.isEmpty, selecting: field)
    }
}

extension Subquery {
    /// The subquery of a typed query used with `in(…)` (on any backend), or why
    /// it can't be one: a join, a limit or an offset.
    static func checked(collection: String, query: DocumentQuery, hasJoins: Bool, selecting field: FieldPath?) -> Result<Subquery, InvalidQuery> {
        if hasJoins { return .failure(InvalidQuery(reason: "a query used with in(…) can't have a join")) }
        if query.limit != nil || query.offset != nil {
            return .failure(InvalidQuery(reason: "a query used with in(…) can't have a limit or an offset"))
        }
        return .success(Subquery(collection: collection, condition: query.condition, field: field))
    }
}

extension DocumentCollection where Model: QueryableDocument {
    /// A query of every document in the collection, to sort, limit, project or
    /// aggregate: `players.query.max(\.number)`.
    public var query: CollectionQuery<Model> {
        CollectionQuery(collection: self)
    }

    /// The documents that satisfy every line of `body`:
    ///
    ///     let found = try players.filter { $0.teamId == 1; $0.number >= 10 }.fetch()
    public func filter(
        @ConditionBuilder<Model.Fields> _ body: (Model.Fields) -> [DocumentCondition]
    ) -> CollectionQuery<Model> {
        query.filter(body)
    }

    /// All documents, in the order of `body`'s keys.
    public func sorted(@SortBuilder<Model.Fields> by body: (Model.Fields) -> [SortKey]) -> CollectionQuery<Model> {
        query.sorted(by: body)
    }
}
