/// Pipelines on PostgreSQL: the same stages and scopes as on SQLite
/// (``PipelineCompiler``), but every value — a document's field, a group key, an
/// aggregate, a computed value — is `jsonb`, read by the same ``FieldSQL``
/// expressions as a document's fields. The statement's columns are the row's
/// order key, then one JSON text per ``RowScope/Entry`` (NULL when missing).
///
///     // batting.group(by: \.playerID) { (hr: $0.sum(\.HR)) }
///     SELECT s1.key, s1.v0::text, s1.v1::text FROM (
///       SELECT row_number() OVER (ORDER BY g1.r0, <text of g1.v0>, <scalar of g1.v0>, min(g1.k)) AS key,
///              g1.r0 AS r0, CAST(min(CAST(g1.v0 AS text) COLLATE "C") AS jsonb) AS v0, … AS r1, <sum> AS v1
///       FROM (SELECT <rank> AS r0, (s0.body -> E'playerID') AS v0, <rank> AS r1, (s0.body -> E'HR') AS v1, s0.key AS k
///             FROM "batting" AS s0) AS g1
///       GROUP BY g1.r0, g1.v0) AS s1
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

    /// A group on PostgreSQL: a first subquery reads each field the group needs
    /// once per row (its jsonb, with the row's order key), a second ranks it;
    /// `GROUP BY` uses jsonb equality (`2` and `2.0` one group, strings by
    /// bytes), and the groups are numbered in DocStore's order of their keys.
    mutating func postgresGroup(_ scope: RowScope, _ grouping: Grouping) throws -> RowScope {
        var paths: [FieldPath] = []
        for path in grouping.keys + grouping.aggregates.compactMap(\.aggregate.field) where !paths.contains(path) {
            paths.append(path)
        }
        let alias = "g\(nextAlias())", read = "e\(alias)"
        var reads: [SQLFragment] = []
        var columns: [SQLFragment] = []
        var entries: [RowScope.Entry] = []
        for (index, path) in paths.enumerated() {
            let field = try scope.field(path)
            // Each field's jsonb is read once (a `->` chain per reference cost
            // half the group's time), then ranked from that column; a column
            // with a rank of its own (an earlier stage's value) keeps it.
            reads.append(field.value + " AS j\(index)")
            let value = SQLFragment("\(read).j\(index)")
            var rank = FieldSQL.postgresRank(type: "jsonb_typeof(" + value + ")")
            if field.isColumn, let known = field.knownRank {
                reads.append(known + " AS x\(index)")
                rank = SQLFragment("\(read).x\(index)")
            }
            // Missing (SQL NULL) and null (jsonb 'null') are one group: both NULL here.
            columns.append(rank + " AS r\(index), (CASE WHEN " + rank + " > 0 THEN " + value + " END) AS v\(index)")
            entries.append(RowScope.Entry(path: path, source: .column(rank: SQLFragment("\(alias).r\(index)"),
                                                                  value: SQLFragment("\(alias).v\(index)"))))
        }
        reads.append(scope.key + " AS k")
        columns.append(SQLFragment("\(read).k AS k"))
        // OFFSET 0 keeps PostgreSQL from pulling each subquery up into the
        // next, which would compute a field once per reference.
        let readRows: SQLFragment = "(SELECT " + .joined(reads, separator: ", ") + " FROM " + scope.from + scope.whereClause
            + " OFFSET 0) AS \(read)"
        var rows = RowScope(from: "(SELECT " + .joined(columns, separator: ", ") + " FROM " + readRows + " OFFSET 0) AS \(alias)",
                            key: SQLFragment("\(alias).k"), entries: entries, collection: collection, dialect: .postgres)
        rows.keyIsText = scope.keyIsText
        var grouped = rows
        var order: [SQLFragment] = []
        // Equal keys of different forms (2 and 2.0): the shortest text, which is
        // the integer's when a row has one.
        grouped.entries = try (0..<grouping.keys.count).map { index in
            let key = try rows.field(grouping.keys[index])
            order += key.orderTerms(descending: false, dialect: .postgres)
            let value = SQLFragment("CAST(min(CAST(\(alias).v\(index) AS text) COLLATE \"C\") AS jsonb)")
            return RowScope.Entry(path: grouping.keys[index], source: .column(rank: SQLFragment("\(alias).r\(index)"), value: value))
        }
        for named in grouping.aggregates {
            let (rank, value) = try rows.aggregate(named.aggregate)
            grouped.entries.append(RowScope.Entry(path: FieldPath(named.name), source: .column(rank: rank, value: value)))
        }
        // Arrays and objects have no order among themselves: first seen, first.
        order.append(SQLFragment("min(\(alias).k)"))
        let terms = SQLFragment.joined((0..<grouping.keys.count).map { SQLFragment("\(alias).r\($0), \(alias).v\($0)") },
                                       separator: ", ")
        return wrapped(grouped, key: "row_number() OVER (ORDER BY " + .joined(order, separator: ", ") + ")", tail: " GROUP BY " + terms)
    }
}
