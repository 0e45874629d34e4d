/// Pipelines on PostgreSQL: the same stages and scopes as on SQLite
/// (``PipelineCompiler``), but every value — a document's field, a group key, an
/// aggregate, a computed value — is `jsonb`, read by the same ``FieldSQL``
/// expressions as a document's fields. The statement's columns are the row's
/// order key, then one JSON text per ``RowScope/Entry`` (NULL when missing).
///
///     // batting.group(by: \.playerID) { (hr: $0.sum(\.HR)) }
///     SELECT s1.key, s1.v0::text, s1.v1::text FROM (
///       SELECT row_number() OVER (ORDER BY <rank of g1.v0>, <text of g1.v0>, <scalar of g1.v0>, min(g1.k)) AS key,
///              <rank of g1.v0> AS r0, <g1.v0, of 2 and 2.0 the integer> AS v0, … AS r1, <sum of g1.n1> AS v1
///       FROM (SELECT <rank of e.j0> AS r0, NULLIF(e.j0, 'null'::jsonb) AS v0, <scale of e.j0> AS c0, …,
///                    <e.j1 as numeric> AS n1, e.k AS k
///             FROM (SELECT (s0.body -> E'playerID') AS j0, (s0.body -> E'HR') AS j1, s0.key AS k
///                   FROM "batting" AS s0 LIMIT ALL) AS eg1 LIMIT ALL) AS g1
///       GROUP BY g1.v0 OFFSET 0) AS s1
///     ORDER BY s1.key
extension PipelineCompiler {
    /// The final `SELECT` of a PostgreSQL pipeline: each entry as JSON text.
    func postgresStatement(_ scope: RowScope) -> SQLFragment {
        let columns = scope.entries.map { entry -> SQLFragment in
            switch entry.source {
            case .json(let text, _): "(" + text + ")::text"
            case .column(_, let value): "(" + value + ")::text"
            }
        }
        return "SELECT " + .joined([scope.key] + columns, separator: ", ") + " FROM " + scope.from + scope.whereClause
            + " ORDER BY " + scope.key
    }

    // MARK: Joins

    /// A join on PostgreSQL. To one document: by key, a seek of the primary key
    /// (the field as the key's type, when it is one); by field, the smallest key
    /// of each scalar value of the other field (`DISTINCT ON`, jsonb equality:
    /// `2` equals `2.0`, never `"2"`), then the document by key. To many: the
    /// matching documents as a jsonb array in key order (`[]` when none).
    mutating func postgresJoin(_ scope: RowScope, _ join: Join) throws -> RowScope {
        var scope = scope
        let alias = "j\(nextAlias())"
        let field = try scope.field(join.field)
        let other = quoteIdentifier(join.collection)
        let match = "m\(alias)"
        let scalar: SQLFragment = " IN ('boolean', 'number', 'string')"
        let kind = try compiler.keyKind(join.collection)
        if join.many {
            let test: SQLFragment
            switch (join.target, kind) {
            case (_, nil):
                return joined(scope, body: "'[]'::jsonb", name: join.name)
            case (.key, let kind?):
                test = "\(match).key = " + Self.postgresKey(field, kind: kind)
            case (.field(let path), _):
                let target = try FieldSQL.checked(path, from: .json(SQLFragment(match + ".body")), collection: join.collection,
                                                  dialect: .postgres)
                test = target.value + " = " + field.value + " AND " + field.type + scalar
            }
            let array = "(SELECT coalesce(jsonb_agg(\(match).body ORDER BY \(match).key), '[]'::jsonb) FROM \(other) AS \(match) WHERE "
                + test + ")"
            // Closed into a subquery, so that each row's array is built once
            // however many later expressions read it.
            return wrapped(joined(scope, body: array, name: join.name), key: scope.key, tail: "")
        }
        switch (join.target, kind) {
        case (_, nil):
            scope.from += " LEFT JOIN (SELECT NULL::bigint AS key, NULL::jsonb AS body) AS \(alias) ON FALSE"
        case (.key, .integer?):
            // The field's number is read once, in a LATERAL subquery that
            // OFFSET 0 keeps apart, then tested and cast. Inline, the join
            // expression read and converted the field five times a row, and a
            // hash join computes it twice (W9, 3 333 rows: 9.6 ms a query, 5.3
            // so, 4 for the hand SQL, which assumes an integer). The key stays
            // a plain value, so a selective join still seeks the primary key.
            let number = "(CASE WHEN " + field.type + " = 'number' THEN CAST(" + field.value + " AS numeric) END)"
            scope.from += " LEFT JOIN LATERAL (SELECT CASE WHEN n = trunc(n) AND n BETWEEN -9223372036854775808 AND 9223372036854775807"
                + " THEN CAST(n AS bigint) END AS k FROM (SELECT " + number + " AS n OFFSET 0) AS n\(alias)) AS k\(alias) ON TRUE"
            scope.from += " LEFT JOIN \(other) AS \(alias) ON \(alias).key = k\(alias).k"
        case (.key, let kind?):
            scope.from += " LEFT JOIN \(other) AS \(alias) ON \(alias).key = " + Self.postgresKey(field, kind: kind)
        case (.field(let path), _):
            let first = "f\(alias)"
            let target = try FieldSQL.checked(path, from: .json(SQLFragment(match + ".body")), collection: join.collection,
                                              dialect: .postgres)
            scope.from += " LEFT JOIN (SELECT DISTINCT ON (" + target.value + ") " + target.value + " AS v, \(match).key AS k FROM \(other) AS \(match) WHERE "
                + target.type + scalar + " ORDER BY " + target.value + ", \(match).key) AS \(first) ON \(first).v = " + field.value
            scope.from += " LEFT JOIN \(other) AS \(alias) ON \(alias).key = \(first).k"
        }
        return joined(scope, alias: alias, name: join.name)
    }

    /// The field as a key of `kind` (NULL when it can't be one): an integral
    /// number within `bigint`'s range (`2.0` is key 2), or a string.
    static func postgresKey(_ field: FieldSQL, kind: KeyKind) -> SQLFragment {
        guard kind == .integer else {
            return "(CASE WHEN " + field.type + " = 'string' THEN " + field.value + " #>> '{}' END)"
        }
        let number = "CAST(" + field.value + " AS numeric)"
        // Nested CASEs: PostgreSQL doesn't promise to evaluate AND's operands in
        // order, and the cast fails on anything but a number.
        return "(CASE WHEN " + field.type + " = 'number' THEN CASE WHEN " + number + " = trunc(" + number + ") AND " + number
            + " BETWEEN -9223372036854775808 AND 9223372036854775807 THEN CAST(" + number + " AS bigint) END END)"
    }

    // MARK: Groups

    /// Ends a subquery that PostgreSQL must not pull up into the query around
    /// it, which would compute each of its columns again at every reference.
    /// `LIMIT ALL`, not `OFFSET 0`: both keep the subquery whole, but PostgreSQL
    /// plans no parallel scan under a subquery with an OFFSET, even 0, and a
    /// group then can't be aggregated in parallel workers. W8 (100 000
    /// documents, in psql): 100 ms with OFFSET 0, 60 ms with LIMIT ALL.
    static let postgresFence: SQLFragment = " LIMIT ALL"

    /// A group on PostgreSQL. A first subquery reads each field the group needs
    /// once per row (its jsonb, with the row's order key); a second ranks it,
    /// makes `null` NULL (missing and null are one group), and reads as
    /// `numeric` once what the aggregates reduce as numbers (`n`) and how many
    /// decimals a key's number is written with (`c`). `GROUP BY` the values
    /// alone uses jsonb equality (`2` and `2.0` one group, strings by bytes);
    /// the groups are numbered in DocStore's order of their keys.
    ///
    /// Grouping by the values alone, not by rank and value, lets PostgreSQL
    /// estimate few groups and hash them: by both it sorted every row. The key's
    /// integer form comes from the smallest `c` rather than from the least text
    /// of every row's value. W8 (100 000 documents, three aggregates, in psql):
    /// 207 ms → ~100 ms, and ~60 with ``postgresFence`` (Benchmarks/README.md).
    mutating func postgresGroup(_ scope: RowScope, _ grouping: Grouping) throws -> RowScope {
        var paths: [FieldPath] = []
        for path in grouping.keys + grouping.aggregates.compactMap(\.aggregate.field) where !paths.contains(path) {
            paths.append(path)
        }
        let numeric = Set(grouping.aggregates.compactMap { named -> FieldPath? in
            switch named.aggregate {
            case .sum(let path), .average(let path), .min(let path), .max(let path): path
            case .count, .countDistinct: nil
            }
        })
        let alias = "g\(nextAlias())", read = "e\(alias)"
        var reads: [SQLFragment] = []
        var columns: [SQLFragment] = []
        var numbers: [FieldPath: SQLFragment] = [:]
        for (index, path) in paths.enumerated() {
            let field = try scope.field(path)
            // Each field's jsonb is read once (a `->` chain per reference cost
            // half the group's time), then ranked from that column; a column
            // with a rank of its own (an earlier stage's value) keeps it.
            reads.append(field.value + " AS j\(index)")
            let value = SQLFragment("\(read).j\(index)")
            var rank = FieldSQL.postgresRank(type: "jsonb_typeof(" + value + ")")
            var kind: (of: SQLFragment, number: String, array: String, object: String) = ("jsonb_typeof(" + value + ")", "'number'", "'array'", "'object'")
            if field.isColumn, let known = field.knownRank {
                reads.append(known + " AS x\(index)")
                rank = SQLFragment("\(read).x\(index)")
                kind = (rank, "2", "4", "5")
            }
            let isKey = grouping.keys.contains(path)
            // A key's missing and null are one group: both NULL. Other fields
            // are read by aggregates that test the rank first.
            columns.append(rank + " AS r\(index), " + (isKey ? "NULLIF(" + value + ", 'null'::jsonb)" : value) + " AS v\(index)")
            if numeric.contains(path) {
                columns.append("CASE " + kind.of + " WHEN " + kind.number + " THEN CAST(" + value + " AS numeric) END AS n\(index)")
                numbers[path] = SQLFragment("\(alias).n\(index)")
            }
            if isKey {
                // A number's decimals (0 for an integer), -1 for an array or an
                // object: what picks the key's form below, from one test a row.
                columns.append("CASE " + kind.of + " WHEN " + kind.number + " THEN scale(CAST(" + value + " AS numeric)) WHEN "
                               + kind.array + " THEN -1 WHEN " + kind.object + " THEN -1 END AS c\(index)")
            }
        }
        reads.append(scope.key + " AS k")
        columns.append(SQLFragment("\(read).k AS k"))
        let readRows: SQLFragment = "(SELECT " + .joined(reads, separator: ", ") + " FROM " + scope.from + scope.whereClause
            + Self.postgresFence + ") AS \(read)"
        let rows: SQLFragment = "(SELECT " + .joined(columns, separator: ", ") + " FROM " + readRows + Self.postgresFence + ") AS \(alias)"
        var grouped = RowScope(from: rows, key: SQLFragment("\(alias).k"), entries: [], collection: collection, dialect: .postgres)
        var order: [SQLFragment] = []
        for key in grouping.keys {
            guard let index = paths.firstIndex(of: key) else { continue }
            let (v, c) = (SQLFragment("\(alias).v\(index)"), SQLFragment("\(alias).c\(index)"))
            // Equal keys of different forms: of 2 and 2.0 the integer; of arrays
            // or objects ([2] and [2.0]) the first in the rows' order, as the
            // evaluator keeps it.
            let value = "CASE WHEN min(" + c + ") = 0 THEN " + RowScope.postgresNumber("trim_scale(CAST(" + v + " AS numeric))")
                + " WHEN min(" + c + ") < 0 THEN " + RowScope.postgresFirst(v, where: c + " < 0", order: SQLFragment("\(alias).k"),
                                                                          orderIsText: scope.keyIsText)
                + " ELSE " + v + " END"
            let groupValue = FieldSQL(postgres: .root, from: .json(v))
            order += groupValue.orderTerms(descending: false, dialect: .postgres)
            grouped.entries.append(RowScope.Entry(path: key, source: .column(rank: groupValue.rank, value: value)))
        }
        for named in grouping.aggregates {
            var value: SQLFragment = "to_jsonb(count(*))"
            if let path = named.aggregate.field, let index = paths.firstIndex(of: path) {
                value = RowScope.postgresAggregate(named.aggregate, rank: SQLFragment("\(alias).r\(index)"),
                                                   value: SQLFragment("\(alias).v\(index)"), number: numbers[path],
                                                   order: SQLFragment("\(alias).k"), orderIsText: scope.keyIsText)
            }
            let rank = FieldSQL.postgresRank(type: "jsonb_typeof(" + value + ")")
            grouped.entries.append(RowScope.Entry(path: FieldPath(named.name), source: .column(rank: rank, value: value)))
        }
        // Arrays and objects have no order among themselves: first seen, first.
        order.append(SQLFragment("min(\(alias).k)"))
        let terms = SQLFragment.joined(grouping.keys.compactMap { key in paths.firstIndex(of: key).map { SQLFragment("\(alias).v\($0)") } },
                                       separator: ", ")
        return wrapped(grouped, key: "row_number() OVER (ORDER BY " + .joined(order, separator: ", ") + ")", tail: " GROUP BY " + terms)
    }
}
