@_spi(Backends) import DocStore

extension PostgresCollectionQuery {
    /// The values of a few fields of each selected document, or values computed
    /// from them (and from joined documents), as typed tuples, as on SQLite:
    ///
    ///     let labels = try await players.query.select { ($0.firstName + " " + $0.lastName, $0.number * 2) }
    ///
    /// Integers divide as in Swift (truncating); a missing operand or a division
    /// by zero gives `nil`, which decodes only into an optional.
    public func select<each Column: QueryExpression>(
        _ body: (Model.Fields) -> (repeat each Column)
    ) async throws -> [(repeat (each Column).Value)] where repeat (each Column).Value: Decodable {
        let columns = body(Model.Fields(_path: .root))
        var expressions: [ValueExpression] = []
        for column in repeat each columns {
            expressions.append(column.valueExpression)
        }
        let columnPaths = expressions.map { expression in
            if case .field(let path) = expression { path } else { FieldPath(expression.description) }
        }
        var pipeline = try queryPipeline()
        pipeline.stages.append(.select(expressions.indices.map { NamedExpression("c\($0)", expressions[$0]) }))
        // Each column's type is looked at once, as on SQLite: strings, numbers and
        // booleans then decode without a Decoder per value.
        var decoding = SelectedColumns(collection: collection.name, paths: columnPaths)
        repeat decoding.add((each Column).Value.self)
        let decoder = decoding
        return try await collection.rowParts(pipeline).map { row in
            var index = 0
            return (repeat try decoder.decode((each Column).Value.self, from: row, at: &index))
        }
    }

    // MARK: Aggregates

    /// The least non-null value of a field among the selected documents, in
    /// DocStore's sort order; nil when there is none.
    public func min<Value: Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) async throws -> Value? {
        try await aggregate(.min(path(field)), as: Value?.self, field: field)
    }

    /// The greatest non-null value of a field among the selected documents.
    public func max<Value: Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) async throws -> Value? {
        try await aggregate(.max(path(field)), as: Value?.self, field: field)
    }

    /// The sum of the field over the selected documents (zero when none is
    /// selected; integers stay integers, and their overflow is an error).
    public func sum<Value: Numeric & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) async throws -> Value {
        try await aggregate(.sum(path(field)), as: Value?.self, field: field) ?? .zero
    }

    /// The sum of the optional field over the selected documents (`nil`s are skipped).
    public func sum<Value: Numeric & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value?>>) async throws -> Value {
        try await aggregate(.sum(path(field)), as: Value?.self, field: field) ?? .zero
    }

    /// The average of the field over the selected documents (`nil` when none is selected).
    public func average<Value: Numeric & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) async throws -> Double? {
        try await aggregate(.average(path(field)), as: Double?.self, field: field)
    }

    /// The average of the optional field over the selected documents that have a value.
    public func average<Value: Numeric & Decodable>(_ field: KeyPath<Model.Fields, DocumentField<Value?>>) async throws -> Double? {
        try await aggregate(.average(path(field)), as: Double?.self, field: field)
    }

    /// The distinct values of the field among the selected documents, in sort order.
    public func distinctValues<Value: Decodable>(of field: KeyPath<Model.Fields, DocumentField<Value>>) async throws -> [Value] {
        try await aggregate(.distinct(path(field)), as: [Value]?.self, field: field) ?? []
    }

    /// The number of selected documents for each value of the field. Documents
    /// without a value are counted under `nil` when the field is optional, and
    /// left out otherwise.
    public func count<Value: Hashable & Decodable>(
        groupedBy field: KeyPath<Model.Fields, DocumentField<Value>>
    ) async throws -> [Value: Int] {
        let result = try await collection.aggregate(documentQuery(), .countBy(path(field)))
        guard case .array(let rows) = result else { return [:] }
        var counts: [Value: Int] = [:]
        for case .object(let members) in rows {
            let value = members["value"] ?? .null
            if value.isNull, !(Value.self is any ExpressibleByNilLiteral.Type) { continue }
            let count = members["count"]?.numberValue.map { Int($0) } ?? 0
            counts[try BackendSupport.decode(Value.self, from: value, collection: collection.name, at: path(field).description),
                   default: 0] += count
        }
        return counts
    }

    // MARK: Groups

    /// One row per distinct combination of the fields' values, with the
    /// aggregates of `aggregates` named by its tuple labels, as on SQLite:
    ///
    ///     let leaders = try await batting.query
    ///         .group(by: \.playerID) { (hr: $0.sum(\.homeRuns), seasons: $0.count()) }
    ///         .sorted { $0.hr.descending }
    ///         .limit(10)
    ///         .fetch()
    public func group<each Key: Decodable, Columns>(
        by keys: repeat KeyPath<Model.Fields, DocumentField<each Key>>,
        aggregates: (GroupAggregates<Model>) -> Columns
    ) -> PostgresGroupedQuery<Model, Columns> {
        let core = GroupedPipeline.group(QueryPipeline(query, stages: stages), by: repeat each keys, aggregates: aggregates)
        return PostgresGroupedQuery(collection: collection, core: core, invalid: invalid)
    }

    // MARK: Helpers

    private func path<Value>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) -> FieldPath {
        Model.Fields(_path: .root)[keyPath: field].fieldPath
    }

    private func aggregate<Value, Result: Decodable>(
        _ aggregate: Aggregate, as type: Result.Type, field: KeyPath<Model.Fields, DocumentField<Value>>
    ) async throws -> Result {
        let value = try await collection.aggregate(documentQuery(), aggregate)
        return try BackendSupport.decode(Result.self, from: value, collection: collection.name, at: path(field).description)
    }
}
