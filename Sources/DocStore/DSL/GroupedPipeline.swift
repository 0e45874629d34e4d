/// What a typed grouped query is, whichever store runs it: its pipeline, the
/// tuple of its columns and how each row decodes. ``GroupedQuery`` runs it on a
/// ``DocumentCollection``; `DocStorePostgres`'s grouped query on PostgreSQL, so
/// the closures of `group(by:)`, `filter`, `sorted` and `select` and the
/// ``GroupRow``s read the same on both.
@_spi(Backends)
public struct GroupedPipeline<Model: QueryableDocument, Columns> {
    /// The pipeline so far.
    public internal(set) var pipeline: QueryPipeline
    let columns: Columns
    let named: NamedColumns
    /// How each group key (and joined document) decodes, by path.
    var keys: [(path: FieldPath, decode: (JSONValue) throws -> Any)]
    var invalid: InvalidQuery?

    init(pipeline: QueryPipeline, columns: Columns, keys: [(path: FieldPath, decode: (JSONValue) throws -> Any)],
         invalid: InvalidQuery?) {
        self.pipeline = pipeline
        self.columns = columns
        self.named = NamedColumns(columns)
        self.keys = keys
        self.invalid = invalid ?? named.invalid
    }

    /// A group of the documents `pipeline` yields, by `keys`, with the
    /// aggregates of the tuple `aggregates` returns, named by its labels.
    public static func group<each Key: Decodable>(
        _ pipeline: QueryPipeline, by keys: repeat KeyPath<Model.Fields, DocumentField<each Key>>,
        aggregates: (GroupAggregates<Model>) -> Columns
    ) -> GroupedPipeline {
        let fields = Model.Fields(_path: .root)
        var decoders: [(path: FieldPath, decode: (JSONValue) throws -> Any)] = []
        for key in repeat each keys {
            decoders.append((fields[keyPath: key].fieldPath, decoder(for: key)))
        }
        let columns = aggregates(GroupAggregates())
        let named = NamedColumns(columns)
        let grouping = Grouping(keys: decoders.map(\.path), aggregates: named.columns.compactMap { name, column in
            guard case .aggregate(let aggregate) = column.columnSource else { return nil }
            return NamedAggregate(name, aggregate)
        })
        var failure: InvalidQuery?
        if grouping.aggregates.count != named.columns.count {
            failure = InvalidQuery(reason: "a group's tuple holds aggregates of the group only ($0.count(), $0.sum(\\.field)…)")
        }
        var pipeline = pipeline
        pipeline.stages.append(.group(grouping))
        return GroupedPipeline(pipeline: pipeline, columns: columns, keys: decoders, invalid: failure)
    }

    private static func decoder<Value: Decodable>(for key: KeyPath<Model.Fields, DocumentField<Value>>) -> (JSONValue) throws -> Any {
        { try DocumentCodec.decode(Value.self, from: $0) }
    }

    /// The pipeline, or the error that a part of the query stands for.
    public func checkedPipeline(collection: String) throws -> QueryPipeline {
        if let invalid { throw invalid.error(collection: collection) }
        return pipeline
    }

    /// The query with `failure` reported unless an earlier error is.
    func failing(_ failure: InvalidQuery?) -> GroupedPipeline {
        var copy = self
        copy.invalid = copy.invalid ?? failure
        return copy
    }

    /// The query with the error of its source (a condition before the group)
    /// reported first.
    func sourceFailing(_ failure: InvalidQuery?) -> GroupedPipeline {
        var copy = self
        copy.invalid = failure ?? copy.invalid
        return copy
    }

    var fields: GroupColumns<Model, Columns> {
        GroupColumns(columns: columns, named: named)
    }

    /// Changes the filter, sort and limit after the last stage.
    private func refining(_ change: (inout DocumentQuery) -> Void) -> GroupedPipeline {
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

    /// The rows that satisfy every line of `body` too.
    public func filter(
        @ConditionBuilder<Model.Fields> _ body: (GroupColumns<Model, Columns>) -> [DocumentCondition]
    ) -> GroupedPipeline {
        switch DocumentCondition.all(body(fields)).result {
        case .success(let added):
            return refining { $0.condition = DocumentCondition.conjunction([$0.condition, added]) }
        case .failure(let failure):
            return failing(failure)
        }
    }

    /// The rows in the order of `body`'s keys; ties keep their order.
    public func sorted(@SortBuilder<Model.Fields> by body: (GroupColumns<Model, Columns>) -> [SortKey]) -> GroupedPipeline {
        let keys = body(fields)
        return refining { $0.sort = keys + $0.sort }
    }

    /// At most `limit` rows, after skipping `offset` of them.
    public func limit(_ limit: Int, offset: Int? = nil) -> GroupedPipeline {
        refining { query in
            query.limit = limit
            query.offset = offset ?? query.offset
        }
    }

    /// Rows of values computed from each row, named by the tuple's labels.
    public func select<Selected>(_ body: (GroupColumns<Model, Columns>) -> Selected) -> GroupedPipeline<Model, Selected> {
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
        return GroupedPipeline<Model, Selected>(pipeline: copy, columns: selected, keys: keys, invalid: invalid)
    }

    /// Each row with the document of the collection `other` whose field equals
    /// the row's column, in the model's optional property `member`.
    public func join<Other: QueryableDocument, Value>(
        _ other: String, _ otherType: Other.Type,
        on field: KeyPath<Model.Fields, DocumentField<Value>>,
        equals otherField: KeyPath<Other.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<Other?>>
    ) -> GroupedPipeline {
        let fields = Model.Fields(_path: .root)
        let memberPath = fields[keyPath: member].fieldPath
        guard memberPath.components.count == 1, case .key(let name) = memberPath.components[0] else {
            return failing(InvalidQuery(reason: "a joined document goes in a property of the model itself", field: memberPath))
        }
        var copy = self
        copy.pipeline.stages.append(.join(Join(other, on: fields[keyPath: field].fieldPath,
                                               equals: .field(Other.Fields(_path: .root)[keyPath: otherField].fieldPath), as: name)))
        copy.keys = keys.filter { $0.path != memberPath } + [(memberPath, { try DocumentCodec.decode(Other?.self, from: $0) as Any })]
        return copy
    }

    // MARK: Rows

    /// A row of the pipeline (as JSON) as a typed ``GroupRow``.
    public func row(_ json: JSONValue, collection: String) throws -> GroupRow<Model, Columns> {
        var values: [String: Any] = [:]
        for (name, column) in named.columns {
            let value = json.value(at: FieldPath(name)) ?? .null
            do { values[name] = try column.decodeColumn(value) } catch { throw Self.decodingError(error, collection: collection, column: name) }
        }
        var keyValues: [FieldPath: Any] = [:]
        for key in keys {
            let value = json.value(at: key.path) ?? .null
            do { keyValues[key.path] = try key.decode(value) } catch {
                throw Self.decodingError(error, collection: collection, column: key.path.description)
            }
        }
        return GroupRow(columns: columns, named: named, values: values, keyValues: keyValues, json: json)
    }

    /// A row of the pipeline decoded into `type`, whose properties are named as the columns.
    public func decode<Row: Decodable>(_ type: Row.Type, _ json: JSONValue, collection: String) throws -> Row {
        do { return try DocumentCodec.decode(Row.self, from: json) } catch {
            throw Self.decodingError(error, collection: collection, column: "")
        }
    }

    private static func decodingError(_ error: any Error, collection: String, column: String) -> DocStoreError {
        let reason = (error as? DocumentCodingError)?.reason ?? "\(error)"
        return .decodingFailed(collection: collection, key: nil, codingPath: column, reason: reason)
    }
}

// Built once and never mutated in place; its closures capture only metatypes
// (see GroupedQuery).
extension GroupedPipeline: @unchecked Sendable where Columns: Sendable {}
