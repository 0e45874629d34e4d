/// A typed query whose rows are groups (or computed values): what
/// ``CollectionQuery/group(by:aggregates:)`` returns. Filter, sort and limit the
/// rows by their keys and aggregates, compute values from them with `select`, then
/// fetch them as ``GroupRow``s or decoded into a `Decodable` type of yours:
///
///     let leaders = try batting
///         .group(by: \.playerID) { (hr: $0.sum(\.homeRuns), seasons: $0.count()) }
///         .filter { $0.seasons >= 10 }
///         .sorted { $0.hr.descending }          // ties in key order
///         .limit(10)
///         .fetch()
///     leaders[0].playerID    // String: the group key
///     leaders[0].hr          // Int: the aggregate, by its label
///
/// `$0` in the closures reads the row's columns by their labels, typed
/// (`$0.hr >= "x"` doesn't compile), and the group keys by the model's fields.
public struct GroupedQuery<Model: QueryableDocument, Columns> {
    /// The collection the query runs on.
    public let collection: DocumentCollection<Model>
    /// The pipeline, its columns and how its rows decode (shared with other backends).
    var core: GroupedPipeline<Model, Columns>

    init(collection: DocumentCollection<Model>, core: GroupedPipeline<Model, Columns>) {
        self.collection = collection
        self.core = core
    }

    /// The AST of the query.
    ///
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` when a
    ///   condition's value has no JSON form.
    public func queryPipeline() throws -> QueryPipeline {
        try core.checkedPipeline(collection: collection.name)
    }

    // MARK: Building

    /// The rows that satisfy every line of `body` too (SQL's `HAVING` after a group).
    public func filter(
        @ConditionBuilder<Model.Fields> _ body: (GroupColumns<Model, Columns>) -> [DocumentCondition]
    ) -> GroupedQuery {
        GroupedQuery(collection: collection, core: core.filter(body))
    }

    /// The rows in the order of `body`'s keys; ties keep their order (by group key).
    public func sorted(@SortBuilder<Model.Fields> by body: (GroupColumns<Model, Columns>) -> [SortKey]) -> GroupedQuery {
        GroupedQuery(collection: collection, core: core.sorted(by: body))
    }

    /// At most `limit` rows, after skipping `offset` of them.
    public func limit(_ limit: Int, offset: Int? = nil) -> GroupedQuery {
        GroupedQuery(collection: collection, core: core.limit(limit, offset: offset))
    }

    /// Rows of values computed from each row, named by the tuple's labels:
    ///
    ///     .select { ($0.playerID, average: $0.hits.asDouble / $0.atBats.asDouble) }
    ///     .sorted { $0.average.descending }
    public func select<Selected>(_ body: (GroupColumns<Model, Columns>) -> Selected) -> GroupedQuery<Model, Selected> {
        GroupedQuery<Model, Selected>(collection: collection, core: core.select(body))
    }

    /// Each row with the document of `other` whose field equals the row's
    /// column (a group key), in the model's optional property `member`, read as
    /// `row.player` and `$0.player.nameLast` in the closures that follow:
    ///
    ///     batting.query.group(by: \.playerID) { (hr: $0.sum(\.HR)) }
    ///         .sorted { $0.hr.descending }.limit(3)
    ///         .join(people, on: \.playerID, equals: \.id, as: \.player)
    public func join<Other: QueryableDocument, Value>(
        _ other: DocumentCollection<Other>,
        on field: KeyPath<Model.Fields, DocumentField<Value>>,
        equals otherField: KeyPath<Other.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<Other?>>
    ) -> GroupedQuery {
        GroupedQuery(collection: collection, core: core.join(other.name, Other.self, on: field, equals: otherField, as: member))
    }

    // MARK: Running

    /// The rows, in order.
    public func fetch() throws -> [GroupRow<Model, Columns>] {
        var rows: [GroupRow<Model, Columns>] = []
        try collection.forEachRow(queryPipeline()) { rows.append(try core.row($0, collection: collection.name)) }
        return rows
    }

    /// The rows decoded into `type`, whose properties are named as the columns
    /// (group keys by their field names, aggregates and selected values by their labels).
    public func fetch<Row: Decodable>(as type: Row.Type) throws -> [Row] {
        var rows: [Row] = []
        try collection.forEachRow(queryPipeline()) { rows.append(try core.decode(Row.self, $0, collection: collection.name)) }
        return rows
    }

    /// The first row, or `nil`.
    public func first() throws -> GroupRow<Model, Columns>? {
        try limit(1).fetch().first
    }

    /// The number of rows.
    public func count() throws -> Int {
        try collection.count(queryPipeline())
    }

    /// How the query runs: its SQL, bindings and SQLite's plan.
    public func explain() throws -> QueryExplanation {
        try collection.explain(queryPipeline())
    }
}

// A grouped query is a value built once and never mutated in place: its stored
// closures decode into types they name (they capture only metatypes), and its
// columns' descriptions are Sendable values (GroupValue, DocumentField,
// ComputedValue), so it crosses concurrency domains as its columns' tuple does.
extension GroupedQuery: @unchecked Sendable where Columns: Sendable {}
