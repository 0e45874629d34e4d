/// How PostgreSQL reads one field of a `jsonb` document.
///
///     value:  (body -> E'stats' -> E'average')                  -- jsonb, NULL when missing
///     type:   jsonb_typeof(value)                               -- 'number', 'null'…, NULL when missing
///     rank:   CASE jsonb_typeof(value) WHEN 'boolean' THEN 1 … ELSE 0 END
///
/// jsonb compares numbers exactly (as `numeric`) and booleans as `false < true`,
/// so within a rank the value itself is compared, except strings, which are
/// compared as text `COLLATE "C"` (Unicode scalar order, whatever the database's
/// collation): see ``ConditionCompiler`` and ``QueryCompiler/orderClause(_:)``.
/// The elements of an array come from `jsonb_array_elements`, whose rows'
/// `value` column is the element (``FieldRoot/element(alias:)``).
extension FieldSQL {
    init(postgres path: FieldPath, from root: FieldRoot) {
        let base: SQLFragment
        var isIndexable = false
        switch root {
        case .document:
            base = "body"
            isIndexable = true
        case .element(let alias):
            base = SQLFragment(alias + ".value")
        case .json(let expression):
            base = expression
        }
        guard let value = Self.postgresValue(base, path.components) else {
            // A negative position: never present.
            self.init(type: "NULL::text", value: "NULL::jsonb", elements: "jsonb_array_elements(NULL::jsonb)",
                      arrayLength: "NULL::integer", isIndexable: false)
            knownRank = "CAST(0 AS integer)"  // a bare 0 in ORDER BY would name a column
            return
        }
        let type = "jsonb_typeof(" + value + ")"
        let array = "(CASE WHEN " + type + " = 'array' THEN " + value + " END)"
        self.init(type: type, value: value, elements: "jsonb_array_elements" + array,
                  arrayLength: "jsonb_array_length" + array, isIndexable: isIndexable && !path.components.isEmpty)
        knownRank = Self.postgresRank(type: type)
        jsonText = value
    }

    /// The jsonb at `components` from `base`: member steps as one `->` chain,
    /// position steps only into arrays (jsonb reads a scalar as a one-element
    /// array: `'5'::jsonb -> 0` is `5`, where DocStore finds nothing). Nil for a
    /// negative position.
    static func postgresValue(_ base: SQLFragment, _ components: [FieldPath.Component]) -> SQLFragment? {
        var expression = base
        var chaining = false
        for component in components {
            switch component {
            case .key(let key):
                expression = expression + " -> " + quotePostgresString(key)
                chaining = true
            case .index(let index):
                guard index >= 0 else { return nil }
                let container = chaining ? "(" + expression + ")" : expression
                expression = "(CASE WHEN jsonb_typeof(" + container + ") = 'array' THEN " + container + " -> \(index) END)"
                chaining = false
            }
        }
        return chaining ? "(" + expression + ")" : expression
    }

    /// The rank (``JSONRank``) of a jsonb type name.
    static func postgresRank(type: SQLFragment) -> SQLFragment {
        "CASE " + type + " WHEN 'boolean' THEN 1 WHEN 'number' THEN 2 WHEN 'string' THEN 3"
            + " WHEN 'array' THEN 4 WHEN 'object' THEN 5 ELSE 0 END"
    }

    /// The rank of a computed jsonb value (NULL for Swift's `nil`).
    static func postgresRank(ofComputed value: SQLFragment) -> SQLFragment {
        postgresRank(type: "jsonb_typeof(" + value + ")")
    }

    /// The value as text when it is a string (NULL otherwise), in Unicode scalar
    /// order: what string comparisons and sorts read on PostgreSQL.
    var postgresText: SQLFragment {
        "(CASE WHEN " + type + " = 'string' THEN " + value + " #>> '{}' END) COLLATE \"C\""
    }

    /// The value when it is a boolean or a number (NULL otherwise), which jsonb
    /// orders as DocStore does; arrays and objects are left to the key.
    var postgresScalar: SQLFragment {
        "(CASE WHEN " + type + " IN ('boolean', 'number') THEN " + value + " END)"
    }
}
