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
        return query
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
            copy.query.condition = DocumentCondition.conjunction([query.condition, added])
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
        var copy = self
        copy.query.sort = body(Model.Fields(_path: .root)) + query.sort
        return copy
    }

    /// At most `limit` documents, after skipping `offset` of them.
    public func limit(_ limit: Int, offset: Int? = nil) -> CollectionQuery {
        var copy = self
        copy.query.limit = limit
        copy.query.offset = offset ?? query.offset
        return copy
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
        if query.limit != nil || query.offset != nil {
            return .failure(InvalidQuery(reason: "a query used with in(…) can't have a limit or an offset"))
        }
        return .success(Subquery(collection: collection.name, condition: query.condition, field: field))
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
