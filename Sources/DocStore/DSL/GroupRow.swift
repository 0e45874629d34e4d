/// The columns of a grouped query's rows, as its `filter`, `sorted` and `select`
/// closures see them (`$0`): aggregates and selected values by their tuple
/// labels, group keys by the model's fields; each a typed ``DocumentField``.
@dynamicMemberLookup
public struct GroupColumns<Model: QueryableDocument, Columns> {
    let columns: Columns
    let named: NamedColumns

    /// An aggregate, by its label: `$0.hr` for `(hr: $0.sum(\.homeRuns), …)`.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Columns, GroupValue<Value>>) -> DocumentField<Value> {
        DocumentField(FieldPath(named.name(of: .aggregate(columns[keyPath: keyPath].aggregate)) ?? ""))
    }

    /// A selected value, by its label: `$0.average` for `(…, average: $0.h.asDouble / $0.ab.asDouble)`.
    public subscript<Column: QueryExpression>(dynamicMember keyPath: KeyPath<Columns, Column>) -> DocumentField<Column.Value> {
        DocumentField(FieldPath(named.name(of: .expression(columns[keyPath: keyPath].valueExpression)) ?? ""))
    }

    /// A group key, by the model's field: `$0.playerID` after `group(by: \.playerID)`.
    /// (Labels win over fields of the same name, which matters for untyped models,
    /// whose fields are any name.)
    @_disfavoredOverload
    public subscript<Value>(dynamicMember keyPath: KeyPath<Model.Fields, DocumentField<Value>>) -> DocumentField<Value> {
        Model.Fields(_path: .root)[keyPath: keyPath]
    }
}

/// One row of a grouped query: its aggregates and selected values by their tuple
/// labels, its group keys by the model's fields, each as its Swift type.
///
///     row.hr          // Int, for (hr: $0.sum(\.homeRuns), …)
///     row.playerID    // String, for group(by: \.playerID)
@dynamicMemberLookup
public struct GroupRow<Model: QueryableDocument, Columns> {
    let columns: Columns
    let named: NamedColumns
    let values: [String: Any]
    let keyValues: [FieldPath: Any]
    /// The row as JSON: keys at their paths, aggregates and values by name.
    public let json: JSONValue

    /// An aggregate's value, by its label.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Columns, GroupValue<Value>>) -> Value {
        value(named.name(of: .aggregate(columns[keyPath: keyPath].aggregate)), as: Value.self)
    }

    /// A selected value, by its label.
    public subscript<Column: QueryExpression>(dynamicMember keyPath: KeyPath<Columns, Column>) -> Column.Value {
        value(named.name(of: .expression(columns[keyPath: keyPath].valueExpression)), as: Column.Value.self)
    }

    /// A group key's value (or a selected field's), by the model's field.
    @_disfavoredOverload
    public subscript<Value>(dynamicMember keyPath: KeyPath<Model.Fields, DocumentField<Value>>) -> Value {
        let path = Model.Fields(_path: .root)[keyPath: keyPath].fieldPath
        if let key = keyValues[path] as? Value { return key }
        return value(path.description, as: Value.self)
    }

    private func value<Value>(_ name: String?, as type: Value.Type) -> Value {
        // Every column was decoded as its own type when the row was read.
        guard let name, let value = values[name] as? Value else {
            preconditionFailure("\(name ?? "this value") is not a column of the rows (a group key, an aggregate or a selected value)")
        }
        return value
    }
}

extension CollectionQuery {
    /// One row per distinct combination of the fields' values (missing and `nil`
    /// are one group), with the aggregates of `aggregates` named by its tuple labels:
    ///
    ///     players.group(by: \.teamId) { (players: $0.count(), best: $0.max(\.number)) }
    ///
    /// The rows come in the order of their keys; sort, filter and limit them after.
    public func group<each Key: Decodable, Columns>(
        by keys: repeat KeyPath<Model.Fields, DocumentField<each Key>>,
        aggregates: (GroupAggregates<Model>) -> Columns
    ) -> GroupedQuery<Model, Columns> {
        let core = GroupedPipeline.group(QueryPipeline(query, stages: stages), by: repeat each keys, aggregates: aggregates)
        return GroupedQuery(collection: collection, core: core.sourceFailing(invalid))
    }
}
