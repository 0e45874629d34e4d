extension QueryCompiler {
    /// An aggregate on PostgreSQL. `count`, and `min`/`max` as
    /// `rank, value::text` of the least/greatest non-null value in DocStore's
    /// sort order (strings by Unicode scalars, arrays and objects by key);
    /// `sum`, `average`, `distinct` and `countBy` are not compiled for it yet.
    func postgresAggregate(_ aggregate: Aggregate, _ query: DocumentQuery, selection: SQLFragment) throws -> SQLFragment {
        switch aggregate {
        case .count:
            return try count(query)
        case .min(let path), .max(let path):
            let field = try FieldSQL.checked(path, from: .document, collection: collection, dialect: .postgres)
            let descending: String
            if case .min = aggregate { descending = "" } else { descending = " DESC" }
            return "SELECT " + field.rank + ", " + field.value + "::text " + selection + " AND " + field.rank + " > 0 ORDER BY "
                + field.rank + descending + ", " + field.postgresText + descending + ", " + field.postgresScalar + descending
                + ", key LIMIT 1"
        case .sum(let path), .average(let path), .distinct(let path), .countBy(let path):
            throw dialect.unsupported("\(aggregate.name) of a field", collection: collection, field: path)
        }
    }
}

extension Aggregate {
    /// The aggregate's name, for messages.
    var name: String {
        switch self {
        case .count: "count"
        case .min: "min"
        case .max: "max"
        case .sum: "sum"
        case .average: "average"
        case .distinct: "distinct"
        case .countBy: "countBy"
        }
    }
}
