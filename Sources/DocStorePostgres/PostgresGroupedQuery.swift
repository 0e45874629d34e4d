@_spi(Backends) import DocStore

/// A typed query whose rows are groups (or computed values) on PostgreSQL:
/// what ``PostgresCollectionQuery/group(by:aggregates:)`` returns. The same
/// closures and the same ``DocStore/GroupRow``s as ``DocStore/GroupedQuery``:
///
///     let leaders = try await batting.query
///         .group(by: \.playerID) { (hr: $0.sum(\.homeRuns), seasons: $0.count()) }
///         .filter { $0.seasons >= 10 }
///         .sorted { $0.hr.descending }
///         .limit(10)
///         .fetch()
///     leaders[0].playerID    // String: the group key
///     leaders[0].hr          // Int: the aggregate, by its label
public struct PostgresGroupedQuery<Model: QueryableDocument & Sendable, Columns> {
    /// The collection the query runs on.
    public let collection: PostgresCollection<Model>
    var core: GroupedPipeline<Model, Columns>
    /// Why the query's documents can't be selected (a condition before the group).
    var invalid: DocStoreError?

    init(collection: PostgresCollection<Model>, core: GroupedPipeline<Model, Columns>, invalid: DocStoreError?) {
        self.collection = collection
        self.core = core
        self.invalid = invalid
    }

    private func with<Other>(_ core: GroupedPipeline<Model, Other>) -> PostgresGroupedQuery<Model, Other> {
        PostgresGroupedQuery<Model, Other>(collection: collection, core: core, invalid: invalid)
    }

    /// The AST of the query.
    public func queryPipeline() throws -> QueryPipeline {
        if let invalid { throw invalid }
        return try core.checkedPipeline(collection: collection.name)
    }

    // MARK: Building

    /// The rows that satisfy every line of `body` too (SQL's `HAVING` after a group).
    public func filter(
        @ConditionBuilder<Model.Fields> _ body: (GroupColumns<Model, Columns>) -> [DocumentCondition]
    ) -> PostgresGroupedQuery {
        with(core.filter(body))
    }

    /// The rows in the order of `body`'s keys; ties keep their order (by group key).
    public func sorted(@SortBuilder<Model.Fields> by body: (GroupColumns<Model, Columns>) -> [SortKey]) -> PostgresGroupedQuery {
        with(core.sorted(by: body))
    }

    /// At most `limit` rows, after skipping `offset` of them.
    public func limit(_ limit: Int, offset: Int? = nil) -> PostgresGroupedQuery {
        with(core.limit(limit, offset: offset))
    }

    /// Rows of values computed from each row, named by the tuple's labels.
    public func select<Selected>(_ body: (GroupColumns<Model, Columns>) -> Selected) -> PostgresGroupedQuery<Model, Selected> {
        with(core.select(body))
    }

    /// Each row with the document of `other` whose field equals the row's
    /// column (a group key), in the model's optional property `member`.
    public func join<Other: QueryableDocument, Value>(
        _ other: PostgresCollection<Other>,
        on field: KeyPath<Model.Fields, DocumentField<Value>>,
        equals otherField: KeyPath<Other.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<Other?>>
    ) -> PostgresGroupedQuery {
        with(core.join(other.name, Other.self, on: field, equals: otherField, as: member))
    }

    // MARK: Running

    /// The rows, in order.
    public func fetch() async throws -> [GroupRow<Model, Columns>] {
        let rows = try await collection.rows(queryPipeline())
        return try rows.map { try core.row($0, collection: collection.name) }
    }

    /// The rows decoded into `type`, whose properties are named as the columns.
    public func fetch<Row: Decodable>(as type: Row.Type) async throws -> [Row] {
        let rows = try await collection.rows(queryPipeline())
        return try rows.map { try core.decode(Row.self, $0, collection: collection.name) }
    }

    /// The first row, or `nil`.
    public func first() async throws -> GroupRow<Model, Columns>? {
        try await limit(1).fetch().first
    }

    /// The number of rows.
    public func count() async throws -> Int {
        try await collection.count(queryPipeline())
    }

    /// How PostgreSQL runs the query: its SQL, bindings and plan.
    public func explain() async throws -> QueryExplanation {
        try await collection.explain(queryPipeline())
    }
}

// Built once and never mutated in place (see DocStore's GroupedQuery).
extension PostgresGroupedQuery: @unchecked Sendable where Columns: Sendable {}
