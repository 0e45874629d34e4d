@_spi(Backends) import DocStore

// The parts of the typed DSL that take or give a condition, as on SQLite:
// `filter(condition)`, subqueries with `in(…)`, and the collection's
// `count`/`first`/`contains`/`delete(where:)` shorthands.

extension PostgresCollectionQuery {
    /// The documents that satisfy `condition` too (a condition built apart,
    /// `$0.number > 10 && $0.teamId == 1`).
    public func filter(_ condition: DocumentCondition) -> PostgresCollectionQuery {
        filter { _ in condition }
    }

    /// The query as the subquery of `in(…)`: the keys of the documents it
    /// selects, or the values of `field` in them.
    func subqueryCondition(for field: FieldPath, selecting selected: FieldPath?) -> DocumentCondition {
        BackendSupport.inSubquery(field, collection: collection.name, query: query, hasJoins: !stages.isEmpty,
                                  invalid: invalid, selecting: selected)
    }
}

extension DocumentField {
    /// The field equals the key of a document that `query` selects, in one
    /// statement with a subquery, as on SQLite:
    ///
    ///     try await players.filter { $0.teamId.in(teams.filter { $0.city == "Boston" }) }.fetch()
    ///
    /// The subquery can't have a join, a limit or an offset (the query then throws
    /// ``DocStore/DocStoreError/invalidQuery(collection:field:reason:)``).
    public func `in`<Other>(_ query: PostgresCollectionQuery<Other>) -> DocumentCondition {
        query.subqueryCondition(for: fieldPath, selecting: nil)
    }

    /// The field equals the value of `field` in a document that `query` selects:
    ///
    ///     $0.city.in(teams.filter { $0.abbreviation.hasPrefix("B") }, selecting: \.city)
    public func `in`<Other>(
        _ query: PostgresCollectionQuery<Other>, selecting field: KeyPath<Other.Fields, DocumentField<Value>>
    ) -> DocumentCondition {
        query.subqueryCondition(for: fieldPath, selecting: Other.Fields(_path: .root)[keyPath: field].fieldPath)
    }
}

extension PostgresCollection where Model: QueryableDocument {
    /// The number of documents that satisfy `condition`: `players.count { $0.nickname == nil }`.
    public func count(
        @ConditionBuilder<Model.Fields> where condition: (Model.Fields) -> [DocumentCondition]
    ) async throws -> Int {
        try await filter(condition).count()
    }

    /// The first document, in key order, that satisfies `condition`.
    public func first(
        @ConditionBuilder<Model.Fields> where condition: (Model.Fields) -> [DocumentCondition]
    ) async throws -> Model? {
        try await filter(condition).first()
    }

    /// Whether some document satisfies `condition`.
    public func contains(
        @ConditionBuilder<Model.Fields> where condition: (Model.Fields) -> [DocumentCondition]
    ) async throws -> Bool {
        try await filter(condition).exists()
    }

    /// Deletes the documents that satisfy `condition`, in one statement. Returns how many.
    @discardableResult
    public func delete(
        @ConditionBuilder<Model.Fields> where condition: (Model.Fields) -> [DocumentCondition]
    ) async throws -> Int {
        try await filter(condition).delete()
    }

    /// Drops the index on exactly these fields. Returns whether there was one.
    @discardableResult
    public func dropIndex<each Value>(on fields: repeat KeyPath<Model.Fields, DocumentField<each Value>>) async throws -> Bool {
        let root = Model.Fields(_path: .root)
        var paths: [FieldPath] = []
        for field in repeat each fields { paths.append(root[keyPath: field].fieldPath) }
        return try await dropIndex(on: paths)
    }
}
