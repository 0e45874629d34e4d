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
    var pipeline: QueryPipeline
    let columns: Columns
    let named: NamedColumns
    /// How each group key (and joined document) decodes, by path.
    var keys: [(path: FieldPath, decode: (JSONValue) throws -> Any)]
    var invalid: InvalidQuery?

    init(collection: DocumentCollection<Model>, pipeline: QueryPipeline, columns: Columns,
         keys: [(path: FieldPath, decode: (JSONValue) throws -> Any)], invalid: InvalidQuery?) {
        self.collection = collection
        self.pipeline = pipeline
        self.columns = columns
        self.named = NamedColumns(columns)
        self.keys = keys
        self.invalid = invalid ?? named.invalid
    }

    /// The AST of the query.
    ///
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` when a
    ///   condition's value has no JSON form.
    public func queryPipeline() throws -> QueryPipeline {
        if let invalid { throw invalid.error(collection: collection.name) }
        return pipeline
    }

    var fields: GroupColumns<Model, Columns> {
        GroupColumns(columns: columns, named: named)
    }

    /// Changes the filter, sort and limit after the last stage.
    private func refining(_ change: (inout DocumentQuery) -> Void) -> GroupedQuery {
        var copy = self
        var query = DocumentQuery()
        if case .refine(let last)? = pipeline.stages.last {
            query = last
            copy.pipeline.stages.removeLast()
        }
        change(&query)
        copy.pipeline.stages.append(.refine(query))
        return copy
    }

    // MARK: Building

    /// The rows that satisfy every line of `body` too (SQL's `HAVING` after a group).
    public func filter(
        @ConditionBuilder<Model.Fields> _ body: (GroupColumns<Model, Columns>) -> [DocumentCondition]
    ) -> GroupedQuery {
        let condition = DocumentCondition.all(body(fields))
        var copy = self
        switch condition.result {
        case .success(let added):
            copy = refining { $0.condition = DocumentCondition.conjunction([$0.condition, added]) }
        case .failure(let failure):
            copy.invalid = copy.invalid ?? failure
        }
        return copy
    }

    /// The rows in the order of `body`'s keys; ties keep their order (by group key).
    public func sorted(@SortBuilder<Model.Fields> by body: (GroupColumns<Model, Columns>) -> [SortKey]) -> GroupedQuery {
        let keys = body(fields)
        return refining { $0.sort = keys + $0.sort }
    }

    /// At most `limit` rows, after skipping `offset` of them.
    public func limit(_ limit: Int, offset: Int? = nil) -> GroupedQuery {
        refining { query in
            query.limit = limit
            query.offset = offset ?? query.offset
        }
    }

    /// Rows of values computed from each row, named by the tuple's labels:
    ///
    ///     .select { ($0.playerID, average: $0.hits.asDouble / $0.atBats.asDouble) }
    ///     .sorted { $0.average.descending }
    public func select<Selected>(_ body: (GroupColumns<Model, Columns>) -> Selected) -> GroupedQuery<Model, Selected> {
        let selected = body(fields)
        let named = NamedColumns(selected)
        var copy = pipeline
        copy.stages.append(.select(named.columns.compactMap { name, column in
            guard case .expression(let expression) = column.columnSource else { return nil }
            return NamedExpression(name, expression)
        }))
        var invalid = self.invalid
        if named.columns.contains(where: { if case .aggregate = $0.column.columnSource { true } else { false } }) {
            invalid = invalid ?? InvalidQuery(reason: "select computes values from the rows' columns; aggregates belong in group(by:)")
        }
        let keys = self.keys.filter { key in named.columns.contains { $0.name == key.path.description } }
        return GroupedQuery<Model, Selected>(collection: collection, pipeline: copy, columns: selected, keys: keys, invalid: invalid)
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
        let fields = Model.Fields(_path: .root)
        let memberPath = fields[keyPath: member].fieldPath
        var copy = self
        guard memberPath.components.count == 1, case .key(let name) = memberPath.components[0] else {
            copy.invalid = copy.invalid ?? InvalidQuery(reason: "a joined document goes in a property of the model itself", field: memberPath)
            return copy
        }
        copy.pipeline.stages.append(.join(Join(other.name, on: fields[keyPath: field].fieldPath,
                                               equals: .field(Other.Fields(_path: .root)[keyPath: otherField].fieldPath), as: name)))
        copy.keys = keys.filter { $0.path != memberPath } + [(memberPath, { try DocumentCodec.decode(Other?.self, from: $0) as Any })]
        return copy
    }

    // MARK: Running

    /// The rows, in order.
    public func fetch() throws -> [GroupRow<Model, Columns>] {
        var rows: [GroupRow<Model, Columns>] = []
        try collection.forEachRow(queryPipeline()) { rows.append(try row($0)) }
        return rows
    }

    /// The rows decoded into `type`, whose properties are named as the columns
    /// (group keys by their field names, aggregates and selected values by their labels).
    public func fetch<Row: Decodable>(as type: Row.Type) throws -> [Row] {
        var rows: [Row] = []
        try collection.forEachRow(queryPipeline()) { rows.append(try decode(Row.self, $0, column: "")) }
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

    private func row(_ json: JSONValue) throws -> GroupRow<Model, Columns> {
        var values: [String: Any] = [:]
        for (name, column) in named.columns {
            let value = json.value(at: FieldPath(name)) ?? .null
            do { values[name] = try column.decodeColumn(value) } catch { throw decodingError(error, column: name) }
        }
        var keyValues: [FieldPath: Any] = [:]
        for key in keys {
            let value = json.value(at: key.path) ?? .null
            do { keyValues[key.path] = try key.decode(value) } catch { throw decodingError(error, column: key.path.description) }
        }
        return GroupRow(columns: columns, named: named, values: values, keyValues: keyValues, json: json)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, column: String) throws -> T {
        do { return try DocumentCodec.decode(T.self, from: value) } catch { throw decodingError(error, column: column) }
    }

    private func decodingError(_ error: any Error, column: String) -> DocStoreError {
        let reason = (error as? DocumentCodingError)?.reason ?? "\(error)"
        return .decodingFailed(collection: collection.name, key: nil, codingPath: column, reason: reason)
    }
}

// A grouped query is a value built once and never mutated in place: its stored
// closures decode into types they name (they capture only metatypes), and its
// columns' descriptions are Sendable values (GroupValue, DocumentField,
// ComputedValue), so it crosses concurrency domains as its columns' tuple does.
extension GroupedQuery: @unchecked Sendable where Columns: Sendable {}
