/// Compiles a ``Condition`` into a SQL boolean expression with bound values.
///
/// Every atomic predicate it emits is two-valued (0 or 1, never NULL): each one
/// ANDs a test of the field's rank, which is never NULL and is false whenever the
/// rest could be NULL (`NULL AND 0` is 0). So `NOT`, `OR` and `all`
/// (`NOT EXISTS … NOT`) mean what they mean in Swift, and SQL's three-valued
/// logic never shows.
///
///     teamId == 3        →  (json_extract(body, '$."teamId"') = ? AND CASE json_type(body, '$."teamId"') … END = 2)
///     nickname != "Big"  →  NOT (json_extract(body, '$."nickname"') = ? AND … = 3)
struct ConditionCompiler {
    /// The collection queried, for error messages.
    let collection: String
    /// The key kind of another collection (for subqueries), nil if it doesn't exist.
    let keyKind: (String) throws -> KeyKind?
    /// Numbers the `json_each` aliases so nested `any`/`all` never clash.
    private var aliasCount = 0
    /// How a path from the row is read, when the rows are a pipeline stage's
    /// rather than the table's documents.
    var resolve: ((FieldPath) throws -> FieldSQL)?
    /// The database the SQL is for.
    let dialect: SQLDialect
    /// The search indexes of a collection (for `matches`).
    var searchIndexes: (String) throws -> [SearchIndexInfo] = { _ in [] }
    /// The expression of the rows' document key, or nil when the rows are not the
    /// collection's documents (a pipeline stage after a join, group or select),
    /// where no search index can serve `matches`.
    var documentKey: SQLFragment? = "key"
    /// On PostgreSQL, the fields the collection's indexes are on, or nil when
    /// not known. A comparison on another field needs no terms an index could
    /// serve, so an equality is jsonb's own alone (see ``postgresCompare``).
    var indexedPaths: Set<FieldPath>?

    init(collection: String, keyKind: @escaping (String) throws -> KeyKind?, dialect: SQLDialect = .sqlite) {
        self.collection = collection
        self.keyKind = keyKind
        self.dialect = dialect
    }

    mutating func compile(_ condition: Condition, at root: FieldRoot = .document) throws -> SQLFragment {
        switch condition {
        case .always:
            return dialect.alwaysTrue
        case let .compare(path, op, value):
            return try compare(try field(path, root), op, value, path: path)
        case let .isNull(path):
            return try "(" + field(path, root).rank + " = 0)"
        case let .exists(path):
            let field = try field(path, root)
            if field.isColumn { return dialect.alwaysTrue }
            return "(" + field.type + " IS NOT NULL)"
        case let .string(path, match, needle, caseInsensitive):
            if dialect == .postgres {
                return try postgresStringMatch(try field(path, root), match, needle, caseInsensitive: caseInsensitive, path: path)
            }
            return stringMatch(try field(path, root), match, needle, caseInsensitive: caseInsensitive)
        case let .matches(path, text):
            return try search(path, text, root: root)
        case let .isIn(path, values):
            return try isIn(try field(path, root), values, path: path)
        case let .isInSubquery(path, subquery):
            return try isIn(try field(path, root), subquery)
        case let .arrayContains(path, value):
            return try compile(.any(path, value.isNull ? .isNull(.root) : .compare(.root, .equal, value)), at: root)
        case let .arrayCount(path, op, count):
            let field = try field(path, root)
            let test = "(" + field.rank + " = \(JSONRank.array.rawValue) AND " + field.arrayLength
            if op == .notEqual { return "NOT " + test + " = " + .bound(.integer(Int64(count))) + ")" }
            return test + " \(op.sql) " + .bound(.integer(Int64(count))) + ")"
        case let .any(path, element):
            return try any(try field(path, root), element)
        case let .all(path, element):
            // all(c) is not any(not c): true for an empty, missing or non-array field.
            return "NOT " + (try any(try field(path, root), .not(element)))
        case let .and(conditions):
            if conditions.isEmpty { return dialect.alwaysTrue }
            return "(" + .joined(try conditions.map { try compile($0, at: root) }, separator: " AND ") + ")"
        case let .or(conditions):
            if conditions.isEmpty { return dialect.alwaysFalse }
            return "(" + .joined(try conditions.map { try compile($0, at: root) }, separator: " OR ") + ")"
        case let .not(condition):
            return "NOT " + (try compile(condition, at: root))
        }
    }

    private func field(_ path: FieldPath, _ root: FieldRoot) throws -> FieldSQL {
        if root == .document, let resolve { return try resolve(path) }
        return try FieldSQL.checked(path, from: root, collection: collection, dialect: dialect)
    }

    // MARK: Comparisons

    private func compare(_ field: FieldSQL, _ op: ComparisonOperator, _ value: JSONValue, path: FieldPath) throws -> SQLFragment {
        switch value {
        case .null:
            switch op {
            case .equal: return "(" + field.rank + " = 0)"
            case .notEqual: return "(" + field.rank + " <> 0)"
            default: return dialect.alwaysFalse  // nil is not ordered
            }
        case .array, .object:
            throw DocStoreError.invalidQuery(collection: collection, field: path.description,
                                             reason: "a comparison takes a scalar value (null, boolean, number or string), not \(value.typeName)")
        case .double(let d) where d.isNaN:
            return op == .notEqual ? dialect.alwaysTrue : dialect.alwaysFalse  // NaN equals nothing and is not ordered
        default:
            if dialect == .postgres {
                // Only the collection's own documents (the first stage) can be
                // on an index; nil: the indexes are not known here.
                let indexed: Bool? = documentKey == nil ? false : indexedPaths.map { $0.contains(path) }
                return postgresCompare(field, op, value, indexed: indexed)
            }
            let (rank, binding) = Self.scalar(value)
            // The value test comes first: on a scan it is the cheap one that fails
            // for most rows, so SQLite skips the json_type of the rank. (An index on
            // (rank, value) serves the two terms in either order.)
            let sqlOperator = op == .notEqual ? "=" : op.sql
            let test = "(" + field.value + " \(sqlOperator) " + .bound(binding) + " AND " + field.rank + " = \(rank.rawValue))"
            return op == .notEqual ? "NOT " + test : test
        }
    }

    /// A scalar's rank and binding. Booleans bind as 1/0, as json_extract reads them.
    static func scalar(_ value: JSONValue) -> (JSONRank, SQLBinding) {
        switch value {
        case .bool(let b): (.bool, .integer(b ? 1 : 0))
        case .integer(let i): (.number, .integer(i))
        case .double(let d): (.number, .double(d))
        // SQLite reads a number beyond Int64 as a real: compared as one.
        case .exactNumber(let number): (.number, .double(number.doubleValue))
        case .string(let s): (.string, .text(String(s.queryText)))
        default: (.null, .null)
        }
    }

    // MARK: Strings

    /// Byte-wise prefix, suffix and substring tests on the UTF-8 text (as blobs, so
    /// NUL characters count like any other): case-sensitive and exact, unlike LIKE.
    private func stringMatch(_ field: FieldSQL, _ match: StringMatch, _ needle: String, caseInsensitive: Bool) -> SQLFragment {
        let isString = "(" + field.rank + " = \(JSONRank.string.rawValue)"
        let needle = String(needle.queryText)  // as json_extract reads the field
        let bytes = Array((caseInsensitive ? CaseFolding.fold(needle) : needle).utf8)
        if bytes.isEmpty { return isString + ")" }  // every string has the empty prefix, as in Swift
        var text = "CAST(" + field.value + " AS BLOB)"
        if caseInsensitive { text = CaseFolding.functionName + "(" + text + ")" }
        // SQLite's substr() and instr() return NULL for an empty blob (the text of
        // ""): coalesce keeps the test two-valued, so NOT can't turn it into NULL.
        switch match {
        case .hasPrefix:
            return isString + " AND coalesce(substr(" + text + ", 1, " + .bound(.integer(Int64(bytes.count))) + ") = " + .bound(.blob(bytes)) + ", 0))"
        case .hasSuffix:
            return isString + " AND coalesce(substr(" + text + ", " + .bound(.integer(-Int64(bytes.count))) + ") = " + .bound(.blob(bytes)) + ", 0))"
        case .contains:
            return isString + " AND coalesce(instr(" + text + ", " + .bound(.blob(bytes)) + ") > 0, 0))"
        }
    }

    // MARK: Search

    /// `matches`: the documents whose key the field's search index finds for the
    /// search text, translated into an FTS5 query here and bound as a value.
    private func search(_ path: FieldPath, _ text: String, root: FieldRoot) throws -> SQLFragment {
        func invalid(_ reason: String) -> DocStoreError {
            DocStoreError.invalidQuery(collection: collection, field: path.description, reason: reason)
        }
        let searchText: SearchText
        do {
            searchText = try SearchText(parsing: text)
        } catch {
            throw invalid(error.reason)
        }
        guard root == .document, let documentKey else {
            throw invalid("matches searches a collection's documents: use it in a filter on the collection, not inside any/all or after a join, group or select")
        }
        guard let index = try searchIndexes(collection).first(where: { $0.column(of: path) != nil }),
              let column = index.column(of: path) else {
            throw invalid("no search index covers this field; create one first: createSearchIndex(on: \\.\(path)) (in the REPL: \(collection).createSearchIndex(\\.\(path)))")
        }
        if dialect == .postgres {
            return try PostgresSearchSQL.match(path, collection: collection, search: searchText, documentKey: documentKey)
        }
        return SearchIndexSQL.match(index, keyKind: try keyKind(collection), query: searchText.ftsQuery(column: column), documentKey: documentKey)
    }

    // MARK: Membership

    /// One test per JSON type present in the list, each against one bound JSON
    /// array (`value IN (SELECT value FROM json_each(?))`), so the SQL text doesn't
    /// grow with the list and an index on the field still serves it.
    private func isIn(_ field: FieldSQL, _ values: [JSONValue], path: FieldPath) throws -> SQLFragment {
        if dialect == .postgres { return try postgresIsIn(field, values, path: path) }
        var groups: [JSONRank: [JSONValue]] = [:]
        for value in try membershipList(values, path: path) {
            groups[JSONRank(value), default: []].append(value)
        }
        var tests: [SQLFragment] = []
        for rank in [JSONRank.null, .bool, .number, .string] {
            guard let group = groups[rank] else { continue }
            if rank == .null {
                tests.append("(" + field.rank + " = 0)")
                continue
            }
            let list = DocumentCodec.serialize(.array(group))
            tests.append("(" + field.rank + " = \(rank.rawValue) AND " + field.value
                         + " IN (SELECT value FROM json_each(" + .bound(.text(String(decoding: list, as: UTF8.self))) + ")))")
        }
        if tests.isEmpty { return "0" }
        return tests.count == 1 ? tests[0] : "(" + .joined(tests, separator: " OR ") + ")"
    }

    /// The values an `in` list can match, in either dialect: scalars only (an
    /// array or object is an error), without NaN, which equals nothing.
    func membershipList(_ values: [JSONValue], path: FieldPath) throws -> [JSONValue] {
        try values.filter { value in
            switch value {
            case .array, .object:
                throw DocStoreError.invalidQuery(collection: collection, field: path.description,
                                                 reason: "`in` takes scalar values (null, boolean, number or string), not \(value.typeName)")
            case .double(let d) where d.isNaN: return false
            default: return true
            }
        }
    }

    /// The keys or field values another query selects, as a SQL subquery.
    private func isIn(_ field: FieldSQL, _ subquery: Subquery) throws -> SQLFragment {
        guard let kind = try keyKind(subquery.collection) else { return dialect.alwaysFalse }  // no collection, no values
        if dialect == .postgres { return try postgresIsIn(field, subquery, keyKind: kind) }
        var inner = ConditionCompiler(collection: subquery.collection, keyKind: keyKind)
        inner.searchIndexes = searchIndexes
        let condition = try inner.compile(subquery.condition)
        let table = quoteIdentifier(subquery.collection)
        guard let path = subquery.field else {
            let rank = kind == .integer ? JSONRank.number : .string
            return "(" + field.rank + " = \(rank.rawValue) AND " + field.value
                + " IN (SELECT key FROM \(table) WHERE " + condition + "))"
        }
        // Field values: equal when of the same rank, nulls included; never for arrays/objects.
        let selected = try FieldSQL.checked(path, from: .document, collection: subquery.collection)
        var tests: [SQLFragment] = [
            "(" + field.rank + " = 0 AND EXISTS (SELECT 1 FROM \(table) WHERE " + condition + " AND " + selected.rank + " = 0))"
        ]
        for rank in [JSONRank.bool, .number, .string] {
            tests.append("(" + field.rank + " = \(rank.rawValue) AND " + field.value + " IN (SELECT " + selected.value
                         + " FROM \(table) WHERE " + condition + " AND " + selected.rank + " = \(rank.rawValue)))")
        }
        return "(" + .joined(tests, separator: " OR ") + ")"
    }

    // MARK: Arrays

    private mutating func any(_ field: FieldSQL, _ element: Condition) throws -> SQLFragment {
        aliasCount += 1
        let alias = "e\(aliasCount)"
        let test = try compile(element, at: .element(alias: alias))
        return "(" + field.rank + " = \(JSONRank.array.rawValue) AND EXISTS (SELECT 1 FROM " + field.elements
            + " AS \(alias) WHERE " + test + "))"
    }
}

extension ComparisonOperator {
    /// The SQL operator.
    var sql: String {
        switch self {
        case .equal: "="
        case .notEqual: "<>"
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        }
    }
}
