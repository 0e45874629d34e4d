extension QueryCompiler {
    /// An aggregate on PostgreSQL, over the selected documents (after their
    /// limit and offset). Its rows:
    /// - `count`: one row, the count;
    /// - `min`/`max`: at most one row, `rank, value::text` of the least/greatest
    ///   non-null value in DocStore's sort order (strings by Unicode scalars,
    ///   arrays and objects by key);
    /// - `sum`/`average`: one row, the value as JSON text (NULL for no average);
    /// - `distinct`/`countBy`: `rank, value::text, count` per distinct value, in
    ///   sort order (of 2 and 2.0, the integer).
    func postgresAggregate(_ aggregate: Aggregate, _ query: DocumentQuery, selection: SQLFragment) throws -> SQLFragment {
        switch aggregate {
        case .count:
            return try count(query)
        case .min(let path), .max(let path):
            let field = try FieldSQL.checked(path, from: .document, collection: collection, dialect: .postgres)
            return "SELECT " + field.rank + ", " + field.value + "::text " + selection + " AND " + field.rank + " > 0 ORDER BY "
                + .joined(field.orderTerms(descending: aggregate.isMax, dialect: .postgres), separator: ", ") + ", key LIMIT 1"
        case .sum(let path), .average(let path):
            let kind: GroupAggregate = if case .sum = aggregate { .sum(path) } else { .average(path) }
            let value = RowScope.postgresAggregate(kind, rank: "g.r", value: "g.v", order: "g.k")
            return "SELECT (" + value + ")::text FROM (" + (try postgresValues(path, selection: selection)) + ") AS g"
        case .distinct(let path), .countBy(let path):
            let column = FieldSQL(postgres: .root, from: .json("g.v"))
            var order = column.orderTerms(descending: false, dialect: .postgres)
            order[0] = "g.r"
            // A missing field (SQL NULL) and JSON null are one value, as
            // everywhere in DocStore: both grouped as NULL.
            return "SELECT g.r, min(CAST(g.v AS text) COLLATE \"C\"), count(*) FROM (SELECT n.r, NULLIF(n.v, 'null'::jsonb) AS v, n.k FROM ("
                + (try postgresValues(path, selection: selection))
                + ") AS n) AS g GROUP BY g.r, g.v ORDER BY " + .joined(order + ["min(g.k)"], separator: ", ")
        }
    }

    /// `rank AS r, value AS v, key AS k` of the field for the selected documents.
    private func postgresValues(_ path: FieldPath, selection: SQLFragment) throws -> SQLFragment {
        let field = try FieldSQL.checked(path, from: .document, collection: collection, dialect: .postgres)
        return "SELECT " + field.rank + " AS r, " + field.value + " AS v, key AS k " + selection
    }
}

extension Aggregate {
    /// Whether it is `max`.
    var isMax: Bool {
        if case .max = self { true } else { false }
    }

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
