/// Conditions on PostgreSQL `jsonb` (see ``FieldSQL/init(postgres:from:)``).
/// Like SQLite's, every atomic test is two-valued: it ANDs a rank test, and
/// tests that could be NULL are wrapped in `coalesce(…, FALSE)`.
///
///     teamId == 3      →  (<numbers> = CAST(? AS jsonb) AND <strings> IS NULL AND <rank> = 2)   -- ? = '3'
///     lastName < "P"   →  ((CASE WHEN … = 'string' THEN … #>> '{}' END) COLLATE "C" < ? AND <rank> = 3)
extension ConditionCompiler {
    /// A comparison with a non-null scalar. Numbers and booleans compare as jsonb
    /// (numbers exactly, as `numeric`), strings as text in Unicode scalar order;
    /// values are bound as JSON text (`CAST(? AS jsonb)`) or text. When the
    /// field is known not to be `indexed`, an equality is jsonb's `=` alone, which is
    /// DocStore's for a scalar: type-exact, numbers exact (`2 = 2.0`), strings
    /// byte for byte. One term rather than four also lets the planner estimate
    /// it (four multiplied estimates said one row where there were thousands,
    /// and a join then looked each one up instead of hashing).
    func postgresCompare(_ field: FieldSQL, _ op: ComparisonOperator, _ value: JSONValue, indexed: Bool? = nil) -> SQLFragment {
        let rank = JSONRank(value)
        let sqlOperator = op == .notEqual ? "=" : op.sql
        if indexed == false, op == .equal || op == .notEqual {
            // IS TRUE: two-valued, so that `!=` holds for a missing field.
            let test = "(" + field.value + " = " + Self.postgresJSON(value) + ") IS TRUE"
            return op == .notEqual ? "NOT (" + test + ")" : "(" + test + ")"
        }
        var test: SQLFragment
        if case .string(let s) = value {
            test = field.postgresText + " \(sqlOperator) " + .bound(.text(String(s.queryText))) + " AND " + field.rank
                + " = \(rank.rawValue)"
        } else {
            // The index's terms (IndexSQL.postgresCreate): rank, no string, then the value.
            test = field.postgresScalar + " \(sqlOperator) " + Self.postgresJSON(value) + " AND " + field.postgresText
                + " IS NULL AND " + field.rank + " = \(rank.rawValue)"
        }
        // On an indexed field the index's terms select the rows; a test they
        // imply would only be multiplied into the planner's estimate (a join
        // then looked up each of 3 334 rows it thought were 17). Elsewhere (or
        // when the indexes are not known) jsonb's cheap test leads.
        if indexed != true, let filter = postgresPrefilter(field, sqlOperator, value) { test = filter + " AND " + test }
        return op == .notEqual ? "NOT (" + test + ")" : "(" + test + ")"
    }

    /// A cheaper test the comparison implies, put first so that a scan rejects
    /// most documents with one jsonb operator instead of three CASE expressions
    /// (PostgreSQL evaluates a row's ANDed tests in order and stops at the first
    /// false; W3 on 100 000 documents: 56 ms → 30 ms). jsonb's own `=` is exact
    /// for a scalar, and its order agrees with DocStore's within numbers and
    /// booleans (it puts booleans above numbers, which the rank test then drops).
    /// Nil for string ranges: jsonb orders strings by the database's collation,
    /// not by Unicode scalars, so its test wouldn't be implied.
    private func postgresPrefilter(_ field: FieldSQL, _ sqlOperator: String, _ value: JSONValue) -> SQLFragment? {
        if case .string = value, sqlOperator != "=" { return nil }
        return field.value + " \(sqlOperator) " + Self.postgresJSON(value)
    }

    /// `CAST(? AS jsonb)` bound to the value's JSON text (strings cut at NUL, as
    /// queries read them: jsonb can't hold NUL).
    static func postgresJSON(_ value: JSONValue) -> SQLFragment {
        let text = String(decoding: JSONBNumberSpelling.storable(DocumentCodec.serialize(value.cutAtNUL)), as: UTF8.self)
        return "CAST(" + .bound(.text(text)) + " AS jsonb)"
    }

    /// Prefix, suffix and substring tests on the text, byte for byte (`COLLATE
    /// "C"`); case-insensitive ones compare both sides folded by Swift's
    /// `lowercased()` mapping, which PostgreSQL's `lower` under ICU's root locale
    /// matches once capital sigma is mapped to `σ` first (ICU applies the
    /// final-sigma rule, Swift does not).
    func postgresStringMatch(_ field: FieldSQL, _ match: StringMatch, _ needle: String, caseInsensitive: Bool,
                             path: FieldPath) throws -> SQLFragment {
        let isString = "(" + field.rank + " = \(JSONRank.string.rawValue)"
        let needle = String(needle.queryText)
        let folded = caseInsensitive ? CaseFolding.fold(needle) : needle
        if folded.isEmpty { return isString + ")" }
        var text: SQLFragment = "(" + field.value + " #>> '{}')"
        if caseInsensitive { text = "lower(replace(" + text + ", 'Σ', 'σ') COLLATE \"und-x-icu\")" }
        text = text + " COLLATE \"C\""
        let bound = SQLFragment.bound(.text(folded))
        switch match {
        case .hasPrefix:
            return isString + " AND coalesce(starts_with(" + text + ", " + bound + "), FALSE))"
        case .hasSuffix:
            let length = SQLFragment.bound(.integer(Int64(folded.unicodeScalars.count)))
            return isString + " AND coalesce(right(" + text + ", CAST(" + length + " AS integer)) = " + bound + ", FALSE))"
        case .contains:
            return isString + " AND coalesce(strpos(" + text + ", " + bound + ") > 0, FALSE))"
        }
    }

    /// Equal to one of the values: a null test, and one `IN` over a bound jsonb
    /// array of the others (jsonb equality never equates different types).
    func postgresIsIn(_ field: FieldSQL, _ values: [JSONValue], path: FieldPath) throws -> SQLFragment {
        let members = try membershipList(values, path: path)
        let hasNull = members.contains(.null)
        let scalars = members.filter { $0 != .null }
        var tests: [SQLFragment] = []
        if hasNull { tests.append("(" + field.rank + " = 0)") }
        if !scalars.isEmpty {
            tests.append("coalesce(" + field.value + " IN (SELECT jsonb_array_elements(" + Self.postgresJSON(.array(scalars))
                         + ")), FALSE)")
        }
        if tests.isEmpty { return dialect.alwaysFalse }
        return tests.count == 1 ? tests[0] : "(" + .joined(tests, separator: " OR ") + ")"
    }

    /// The keys or field values another query selects.
    func postgresIsIn(_ field: FieldSQL, _ subquery: Subquery, keyKind kind: KeyKind) throws -> SQLFragment {
        var inner = ConditionCompiler(collection: subquery.collection, keyKind: keyKind, dialect: .postgres)
        let condition = try inner.compile(subquery.condition)
        let table = quoteIdentifier(subquery.collection)
        guard let path = subquery.field else {
            // The key as jsonb without `to_jsonb` (STABLE, which Citus refuses
            // on a column in an UPDATE's condition; docs/citus.md): an integer
            // key through its text, a string key compared as text. `key + 0`
            // fails for a text key (SQLSTATE 42883), where a cast would read
            // the key "1" as 1: a store whose catalog is out of date (the
            // collection made anew with string keys) matched across kinds.
            if kind == .integer {
                return "(" + field.rank + " = \(JSONRank.number.rawValue) AND coalesce(" + field.value
                    + " IN (SELECT " + RowScope.postgresNumber("(key + 0)") + " FROM \(table) WHERE " + condition + "), FALSE))"
            }
            return "(" + field.rank + " = \(JSONRank.string.rawValue) AND coalesce((" + field.value
                + " #>> '{}') COLLATE \"C\" IN (SELECT key FROM \(table) WHERE " + condition + "), FALSE))"
        }
        let selected = try FieldSQL.checked(path, from: .document, collection: subquery.collection, dialect: .postgres)
        return "((" + field.rank + " = 0 AND EXISTS (SELECT 1 FROM \(table) WHERE " + condition + " AND " + selected.rank
            + " = 0)) OR coalesce(" + field.value + " IN (SELECT " + selected.value + " FROM \(table) WHERE " + condition
            + " AND " + selected.rank + " BETWEEN 1 AND 3), FALSE))"
    }
}

extension JSONValue {
    /// The value with every string cut at its first NUL, as queries read strings
    /// (``Swift/String/queryText``).
    var cutAtNUL: JSONValue {
        switch self {
        case .string(let s): .string(String(s.queryText))
        case .array(let elements): .array(elements.map(\.cutAtNUL))
        case .object(let members): .object(members.mapValues(\.cutAtNUL))
        default: self
        }
    }
}
