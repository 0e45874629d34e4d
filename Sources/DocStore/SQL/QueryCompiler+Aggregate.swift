extension QueryCompiler {
    /// The statement computing an aggregate over the documents the query selects
    /// (after its limit and offset). Its rows, by aggregate:
    /// - `count`: one row, the count;
    /// - `min`/`max`: at most one row, `rank, value` of the least/greatest non-null
    ///   value in the sort order (an index on the field serves it);
    /// - `sum`/`average`: one row, SQLite's `sum`/`avg` over the numbers, added in
    ///   key order (so real sums round the same way every time);
    /// - `distinct`/`countBy`: `rank, value, count` per distinct value, in sort order.
    func aggregate(_ aggregate: Aggregate, _ query: DocumentQuery) throws -> SQLFragment {
        if dialect == .postgres { return try postgresAggregate(aggregate, query, selection: "FROM \(table)" + (try restricted(query))) }
        let reads = try columnReads()
        let restriction = try restricted(query, reads)
        let read = try aggregate.field.map { [try documentField($0, reads).value] } ?? []
        let selection = SQLFragment(String(from(reads, using: [restriction] + read).dropFirst())) + restriction
        switch aggregate {
        case .count:
            return try count(query)
        case .min(let path), .max(let path):
            let field = try documentField(path, reads)
            let descending: String
            if case .min = aggregate { descending = "" } else { descending = " DESC" }
            return "SELECT " + field.rank + ", " + field.value + " " + selection + " AND " + field.rank + " > 0 ORDER BY "
                + field.rank + descending + ", " + field.value + descending + ", key LIMIT 1"
        case .sum(let path), .average(let path):
            let field = try documentField(path, reads)
            let function = if case .sum = aggregate { "sum" } else { "avg" }
            return "SELECT \(function)(v) FROM (SELECT " + field.value + " AS v " + selection + " AND " + field.rank
                + " = \(JSONRank.number.rawValue) ORDER BY key)"
        case .distinct(let path), .countBy(let path):
            let field = try documentField(path, reads)
            return "SELECT " + field.rank + " AS r, " + field.value + " AS v, count(*) " + selection
                + " GROUP BY r, v ORDER BY r, v"
        }
    }
}
