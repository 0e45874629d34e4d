/// Compiles a ``DocumentQuery`` on one collection into complete statements: the
/// only place besides the catalog and the collection's fixed statements that
/// writes SQL. Values are always bound; identifiers go through
/// ``quoteIdentifier(_:)``, paths through ``quoteJSONPath(_:)``.
///
///     // players where teamId == 1 sorted by lastName, limit 10
///     SELECT key, body FROM "players"
///     WHERE (CASE json_type(body, '$."teamId"') … END = 2 AND json_extract(body, '$."teamId"') = ?)
///     ORDER BY CASE json_type(body, '$."lastName"') … END, json_extract(body, '$."lastName"'), key
///     LIMIT ? OFFSET ?
struct QueryCompiler {
    /// The collection queried.
    let collection: String
    /// The key kind of a collection, nil when it doesn't exist (for subqueries).
    let keyKind: (String) throws -> KeyKind?
    /// The fields of a collection's indexes (a group by indexed fields reads the
    /// index; a join by an indexed field seeks it).
    var indexedFields: (String) throws -> [[FieldPath]] = { _ in [] }
    /// The database the statements are for.
    var dialect: SQLDialect = .sqlite
    /// The search indexes of a collection (`matches` reads them).
    var searchIndexes: (String) throws -> [SearchIndexInfo] = { _ in [] }
    /// Whether the collection has a containment index (PostgreSQL's GIN on
    /// its documents), which conditions then help with implied containment
    /// terms (``ContainmentSQL``).
    var hasContainmentIndex = false
    /// On PostgreSQL, the fields the collection's indexes are on (nil: unknown).
    var indexedPaths: Set<FieldPath>?
    /// The field columns of a collection, which reads use in place of the
    /// documents' JSON (``FieldColumnsInfo``).
    var fieldColumns: (String) throws -> FieldColumnsInfo? = { _ in nil }
    /// A pipeline of this collection compiled before in the same database state,
    /// else the second argument's compilation (see ``CompileCatalogCache``).
    var rememberedPipeline: (QueryPipeline, () throws -> CompiledPipeline) throws -> CompiledPipeline = { try $1() }

    var table: String { quoteIdentifier(collection) }

    /// How reads of this collection use its field columns, or nil when they
    /// read the documents' JSON (no columns; PostgreSQL, which needs none).
    func columnReads() throws -> ColumnReads? {
        guard dialect == .sqlite, let columns = try fieldColumns(collection) else { return nil }
        return ColumnReads(columns: columns, indexed: Set(try indexedFields(collection).compactMap(\.first)))
    }

    /// The expressions reading a field of the table's documents, from its column
    /// when `reads` has one.
    func documentField(_ path: FieldPath, _ reads: ColumnReads?) throws -> FieldSQL {
        let field = try FieldSQL.checked(path, from: .document, collection: collection, dialect: dialect)
        return reads?.field(path, json: field) ?? field
    }

    /// `FROM "table"`, with the join to its field columns when `reads` has them
    /// and the rest of the statement (`using`) reads one (SQLite keeps an unused
    /// join in a `count(*)`).
    func from(_ reads: ColumnReads?, using rest: [SQLFragment]) -> String {
        guard let reads, rest.contains(where: { sqlMentions($0.sql, alias: FieldColumnsSQL.alias) }) else { return " FROM \(table)" }
        return " FROM \(table)" + reads.join(key: "key")
    }

    /// `WHERE …` for the query's condition; fields read from their columns when
    /// `reads` has them (a statement reading `from(reads)`).
    func whereClause(_ query: DocumentQuery, _ reads: ColumnReads? = nil) throws -> SQLFragment {
        var compiler = ConditionCompiler(collection: collection, keyKind: keyKind, dialect: dialect)
        compiler.searchIndexes = searchIndexes
        compiler.indexedPaths = indexedPaths
        if let reads { compiler.resolve = { path in try documentField(path, reads) } }
        let containment = hasContainmentIndex ? ContainmentSQL.terms(query.condition, body: "body") : []
        return " WHERE " + .joined(containment + [try compiler.compile(query.condition)], separator: " AND ")
    }

    /// `ORDER BY rank, value [DESC]… , key`: ties always end in key order; by
    /// relevance first when the query asks (``relevanceJoin(_:)``).
    func orderClause(_ sort: [SortKey], relevance: Bool = false, _ reads: ColumnReads? = nil) throws -> SQLFragment {
        var terms: [SQLFragment] = relevance ? Self.relevanceOrder : []
        for key in sort {
            let field = try documentField(key.path, reads)
            terms += field.orderTerms(descending: key.descending, dialect: dialect)
        }
        terms.append("key")
        return " ORDER BY " + .joined(terms, separator: ", ")
    }

    /// `LIMIT ? OFFSET ?`, or nothing.
    func limitClause(_ query: DocumentQuery) -> SQLFragment {
        guard query.limit != nil || query.offset != nil else { return "" }
        if dialect == .postgres {
            let limit: SQLFragment = query.limit.map { .bound(.integer(Int64($0))) } ?? "ALL"
            return " LIMIT " + limit + " OFFSET " + .bound(.integer(Int64(query.offset ?? 0)))
        }
        return " LIMIT " + .bound(.integer(Int64(query.limit ?? -1))) + " OFFSET " + .bound(.integer(Int64(query.offset ?? 0)))
    }

    /// `SELECT <columns> FROM table WHERE … ORDER BY … LIMIT …`.
    func select(_ columns: SQLFragment, _ query: DocumentQuery, _ reads: ColumnReads? = nil) throws -> SQLFragment {
        let reads = try reads ?? columnReads()
        let (filter, order) = (try whereClause(query, reads), try orderClause(query.sort, relevance: query.relevance != nil, reads))
        return "SELECT " + columns + from(reads, using: [columns, filter, order]) + (try relevanceJoin(query)) + filter + order + limitClause(query)
    }

    /// The documents' keys and bodies, in the query's order.
    func documents(_ query: DocumentQuery) throws -> SQLFragment {
        if let chosen = try documentsChosenByColumns(query) { return chosen }
        return try select("key, body", query)
    }

    /// The documents' keys, in the query's order.
    func keys(_ query: DocumentQuery) throws -> SQLFragment {
        try select("key", query)
    }

    /// The key, then three columns per field, in the query's order: its rank,
    /// its value, and its JSON text when the value loses something: a number
    /// SQLite reads as a `Double` (every real, and an integer past Int64) keeps
    /// every digit there, and a string holding a NUL (`\u0000`) its whole text
    /// (`RawStatement.selectedField(_:collection:key:)` reads them). A selected
    /// `Decimal` or `UInt64` came back rounded, and a string cut at its NUL
    /// (SQLite's `json_extract` returns the text up to it).
    func fields(_ paths: [FieldPath], _ query: DocumentQuery) throws -> SQLFragment {
        let reads = try columnReads()
        let columns = try paths.map { path -> SQLFragment in
            let field = try documentField(path, reads)
            // A false match (an escaped backslash before `u0000`) only costs a parse.
            let exact = field.jsonText.map {
                "CASE WHEN typeof(" + field.value + ") = 'real' OR (typeof(" + field.value + ") = 'text' AND instr(" + $0
                    + ", '\\u0000') > 0) THEN " + $0 + " END"
            } ?? "NULL"
            return field.rank + ", " + field.value + ", " + exact
        }
        return try select(.joined(["key"] + columns, separator: ", "), query, reads)
    }

    /// `SELECT 1 … LIMIT 1`: whether a document the query's condition matches may hold,
    /// in one of `paths`, a value SQLite reads inexactly: a real written with
    /// more than 15 characters or an exponent (a shorter one is a Double's own
    /// text), a string holding NUL, an array or object. SQLite alone answers
    /// it, with no row for Swift to read: the exact check of a write by query
    /// reads the fields (``fields(_:_:)``) only when this finds one.
    func anyInexactCandidate(_ paths: [FieldPath], _ query: DocumentQuery) throws -> SQLFragment {
        let tests = try paths.map { path -> SQLFragment in
            let field = try FieldSQL.checked(path, from: .document, collection: collection)
            guard let text = field.jsonText else { return "1" }
            let value = field.value
            return "(" + field.rank + " >= \(JSONRank.array.rawValue) OR (typeof(" + value + ") = 'real' AND (length(" + text
                + ") > 15 OR instr(" + text + ", 'e') > 0 OR instr(" + text + ", 'E') > 0)) OR (typeof(" + value
                + ") = 'text' AND instr(" + text + ", '\\u0000') > 0))"
        }
        // The query's sort, limit and offset are left out: every document its
        // condition matches is looked at, a superset of those it selects.
        return "SELECT 1 FROM \(table)" + (try whereClause(query)) + " AND (" + .joined(tests, separator: " OR ") + ") LIMIT 1"
    }

    /// The number of documents selected.
    func count(_ query: DocumentQuery) throws -> SQLFragment {
        if query.limit == nil && query.offset == nil {
            let reads = try columnReads()
            let filter = try whereClause(query, reads)
            return "SELECT count(*)" + from(reads, using: [filter]) + filter
        }
        // PostgreSQL 15 wants every subquery in FROM named.
        return "SELECT count(*) FROM (" + (try keys(query)) + (dialect == .postgres ? ") AS q" : ")")
    }

    /// A statement whose rows are the selected documents' keys, for statements that
    /// work on "the documents this query selects" when a limit or offset applies.
    func restricted(_ query: DocumentQuery, _ reads: ColumnReads? = nil) throws -> SQLFragment {
        if query.limit == nil && query.offset == nil { return try whereClause(query, reads) }
        return " WHERE key IN (" + (try keys(query)) + ")"
    }

    /// `DELETE` of the selected documents, in one statement.
    func delete(_ query: DocumentQuery) throws -> SQLFragment {
        "DELETE FROM \(table)" + (try restricted(query))
    }
}
