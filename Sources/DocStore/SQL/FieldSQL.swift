/// Where a field path starts: the stored document, or the current element of an
/// array that an `any`/`all` condition iterates (a `json_each` row).
enum FieldRoot: Hashable, Sendable {
    /// The `body` column of the table being queried.
    case document
    /// The `json_each` row with this alias (`e1`, `e2`…).
    case element(alias: String)
    /// A JSON text column or expression other than the table's `body` (a joined
    /// document `j1.body`, a pipeline stage's `s2.c0`).
    case json(SQLFragment)
}

/// The SQL expressions that read one field of a document.
///
/// A field is read through two expressions that always go together, and an index
/// on the field is created on exactly that pair ``rank`` then ``value``:
///
///     CASE json_type(body, '$."teamId"') WHEN 'true' THEN 1 … ELSE 0 END   -- rank
///     json_extract(body, '$."teamId"')                                      -- value
///
/// The rank is the JSON type's place in the sort order (``JSONRank``), never NULL.
/// Every comparison first fixes the rank (`rank = 2 AND value > ?`), which is what
/// keeps `"5"` from equalling `5`, `true` from equalling `1` (json_extract returns
/// 1 for true) and an array's JSON text from equalling a string; and since the
/// rank is the index's first column, equality, ranges and sorts still use it.
struct FieldSQL {
    /// The JSON type name (`json_type`'s names), NULL when the field is missing.
    var type: SQLFragment
    /// The value as `json_extract` returns it: SQL NULL for missing or null, 1/0
    /// for booleans, JSON text for arrays and objects.
    var value: SQLFragment
    /// A table-valued source over the field's elements (`json_each(…)`); no rows
    /// unless the field is an array or object.
    var elements: SQLFragment
    /// The field's element count when it is an array.
    var arrayLength: SQLFragment
    /// Whether the expressions are plain JSON-path lookups on `body`, which an
    /// index can be created on.
    var isIndexable: Bool
    /// The rank of a value that is not read from JSON (a computed column), or
    /// written by another dialect; nil for SQLite's JSON fields.
    var knownRank: SQLFragment?
    /// Whether the field is a column of a pipeline stage, present in every row
    /// even when nil (only PostgreSQL needs to be told: SQLite's columns have
    /// the type `'column'`).
    var isColumn = false
    /// The value as JSON text in one call (`body -> '$."a"'`: exact, NULL when
    /// missing), when the path allows it: what a query's output columns read.
    var jsonText: SQLFragment?

    /// The type's rank in the sort order: 0 missing/null, 1 boolean, 2 number,
    /// 3 string, 4 array, 5 object (``JSONRank``).
    var rank: SQLFragment {
        knownRank ?? "CASE " + type + " WHEN 'true' THEN 1 WHEN 'false' THEN 1 WHEN 'integer' THEN 2 WHEN 'real' THEN 2"
            + " WHEN 'text' THEN 3 WHEN 'array' THEN 4 WHEN 'object' THEN 5 ELSE 0 END"
    }

    /// The terms that sort by the field: `rank, value` on SQLite; on PostgreSQL
    /// `rank`, then strings by Unicode scalars, booleans and numbers as jsonb
    /// orders them, arrays and objects among themselves left to the key.
    func orderTerms(descending: Bool, dialect: SQLDialect) -> [SQLFragment] {
        let direction = descending ? " DESC" : ""
        switch dialect {
        case .sqlite: return [rank + direction, value + direction]
        case .postgres: return [rank + direction, postgresText + direction, postgresScalar + direction]
        }
    }

    /// A column of a pipeline stage whose rank and value are computed already
    /// (a group key, an aggregate, a selected value): present even when nil.
    static func column(rank: SQLFragment, value: SQLFragment, jsonText: SQLFragment? = nil) -> FieldSQL {
        let container = "(CASE WHEN " + rank + " >= \(JSONRank.array.rawValue) THEN " + value + " END)"
        var field = FieldSQL(type: "'column'", value: value, elements: "json_each(" + container + ")",
                             arrayLength: "json_array_length(" + container + ")", isIndexable: false)
        field.knownRank = rank
        field.jsonText = jsonText
        return field
    }

    /// The expressions for `path`, or an error naming the collection and field when
    /// SQLite can't read it: a member name holding NUL (SQLite 3.40 cuts member names
    /// there, in paths and in `json_each` alike).
    static func checked(_ path: FieldPath, from root: FieldRoot, collection: String, dialect: SQLDialect = .sqlite) throws -> FieldSQL {
        for case .key(let key) in path.components where key.utf8.contains(0) {
            let reason = dialect == .sqlite ? "SQLite 3.40 can't read a member whose name contains NUL"
                : "PostgreSQL's jsonb can't hold a member whose name contains NUL"
            throw DocStoreError.invalidQuery(collection: collection, field: path.description, reason: reason)
        }
        switch dialect {
        case .sqlite: return FieldSQL(path, from: root)
        case .postgres: return FieldSQL(postgres: path, from: root)
        }
    }

    /// The expressions for `path` from `root`.
    ///
    /// Member names a JSON path can't hold (see ``quoteJSONPath(_:)``) are looked up
    /// by a `json_each` subquery with the name bound as a parameter; a negative
    /// array position is never present.
    init(_ path: FieldPath, from root: FieldRoot) {
        var base: SQLFragment
        var isIndexable: Bool
        switch root {
        case .document:
            base = "body"
            isIndexable = true
        case .json(let expression):
            base = expression
            isIndexable = false
        case .element(let alias):
            if path.components.isEmpty {
                // The element itself: json_each already split out its type and value.
                let container = Self.containerValue(alias: alias)
                self.init(type: SQLFragment(alias + ".type"), value: SQLFragment(alias + ".value"),
                          elements: "json_each(" + container + ")",
                          arrayLength: "json_array_length(" + container + ")", isIndexable: false)
                return
            }
            // json_each's value is SQL text for a string element: only a container's
            // value is JSON text that json_extract may parse.
            base = Self.containerValue(alias: alias)
            isIndexable = false
        }
        var run: [FieldPath.Component] = []
        let components = path.components
        for (position, component) in components.enumerated() {
            if case .index(let index) = component, index < 0 {
                self.init(type: "NULL", value: "NULL", elements: "json_each(NULL)", arrayLength: "NULL", isIndexable: false)
                return
            }
            guard case .key(let key) = component, !isExpressibleInJSONPath(key) else {
                run.append(component)
                continue
            }
            isIndexable = false
            // SQLite compares json_each's `key` with the *decoded* member name, so
            // any name works here.
            let lookup = "FROM json_each(" + base + ", " + quoteJSONPath(run)! + ") AS m WHERE m.key = "
                + SQLFragment.bound(.text(key))
            if position == components.count - 1 {
                let container = "(SELECT m.value " + lookup + " AND m.type IN ('array', 'object'))"
                self.init(type: "(SELECT m.type " + lookup + ")", value: "(SELECT m.value " + lookup + ")",
                          elements: "json_each(" + container + ")",
                          arrayLength: "json_array_length(" + container + ")", isIndexable: false)
                return
            }
            base = "(SELECT m.value " + lookup + " AND m.type IN ('array', 'object'))"
            run = []
        }
        let literal = quoteJSONPath(run)!
        let arguments = base + ", " + literal + ")"
        self.init(type: "json_type(" + arguments, value: "json_extract(" + arguments,
                  elements: "json_each(" + arguments, arrayLength: "json_array_length(" + arguments,
                  isIndexable: isIndexable)
        if isIndexable || root != .document { jsonText = "(" + base + " -> " + literal + ")" }
    }

    init(type: SQLFragment, value: SQLFragment, elements: SQLFragment, arrayLength: SQLFragment, isIndexable: Bool) {
        self.type = type
        self.value = value
        self.elements = elements
        self.arrayLength = arrayLength
        self.isIndexable = isIndexable
    }

    /// The element's JSON text when it is an array or object, else NULL.
    private static func containerValue(alias: String) -> SQLFragment {
        SQLFragment("(CASE WHEN \(alias).type IN ('array', 'object') THEN \(alias).value END)")
    }
}
