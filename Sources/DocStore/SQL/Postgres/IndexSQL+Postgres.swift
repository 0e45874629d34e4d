/// Indexes on PostgreSQL. A DocStore index is a btree on exactly the terms the
/// compiler sorts and compares each field by (``FieldSQL/orderTerms(descending:dialect:)``):
///
///     CREATE INDEX "docstore_ix_1" ON "players" (
///       CASE jsonb_typeof((body -> E'teamId')) WHEN 'boolean' THEN 1 … ELSE 0 END,            -- rank
///       (CASE WHEN jsonb_typeof((body -> E'teamId')) = 'string' THEN … #>> '{}' END) COLLATE "C",  -- strings
///       (CASE WHEN jsonb_typeof((body -> E'teamId')) IN ('boolean', 'number') THEN … END))    -- booleans, numbers
///
/// A comparison with a number reads `rank = 2 AND <strings> IS NULL AND
/// <numbers> op ?`, with a string `rank = 3 AND <strings> op ?`: equality on
/// the leading columns, then a range, which a btree serves (``ConditionCompiler/postgresCompare(_:_:_:)``);
/// sorts read the same terms in order.
///
/// An index on the document itself (the root path) is a GIN `jsonb_path_ops`
/// index for containment instead (``ContainmentSQL``): `tags.contains(x)` and
/// `==` on several fields then find their candidates in it.
///
/// A unique index is enforced by a second, partial unique index on the jsonb
/// values of documents holding every field (missing and null never conflict;
/// jsonb equality makes `2` and `2.0` one value, as DocStore's does).
extension IndexSQL {
    /// The statements creating `index` on PostgreSQL.
    static func postgresCreate(_ index: IndexInfo) throws -> [String] {
        let table = quoteIdentifier(index.collection)
        if index.fields == [.root] {
            // The document itself: containment (``ContainmentSQL``).
            guard !index.isUnique else {
                throw DocStoreError.invalidQuery(collection: index.collection, field: nil,
                                                 reason: "an index on the document itself serves containment and can't be unique")
            }
            return ["CREATE INDEX IF NOT EXISTS \(quoteIdentifier(index.name)) ON \(table) USING gin (body jsonb_path_ops)"]
        }
        var columns: [String] = []
        var values: [String] = []
        var present: [String] = []
        for path in index.fields {
            let field = try postgresIndexableField(path, collection: index.collection)
            // Each expression in parentheses, as CREATE INDEX wants them.
            columns += field.orderTerms(descending: false, dialect: .postgres).map { "(" + $0.sql + ")" }
            values.append("(" + field.value.sql + ")")
            present.append(field.rank.sql + " > 0")
        }
        var statements = ["CREATE INDEX IF NOT EXISTS \(quoteIdentifier(index.name)) ON \(table) (\(columns.joined(separator: ", ")))"]
        if index.isUnique {
            statements.append("CREATE UNIQUE INDEX IF NOT EXISTS \(quoteIdentifier(postgresUniqueName(index.name))) ON \(table) ("
                              + values.joined(separator: ", ") + ") WHERE " + present.joined(separator: " AND "))
        }
        return statements
    }

    /// The keys of the first group of documents (in key order) sharing the
    /// values of every field of `index`, none missing or null: why a unique
    /// index can't be created.
    static func postgresDuplicates(_ index: IndexInfo) throws -> String {
        let fields = try index.fields.map { try postgresIndexableField($0, collection: index.collection) }
        let values = fields.map { "(" + $0.value.sql + ")" }.joined(separator: ", ")
        let present = fields.map { $0.rank.sql + " > 0" }.joined(separator: " AND ")
        let table = quoteIdentifier(index.collection)
        return "SELECT key FROM \(table) WHERE \(present) AND (\(values)) = (SELECT \(values) FROM \(table) WHERE \(present) GROUP BY \(values)"
            + " HAVING count(*) > 1 ORDER BY min(key) LIMIT 1) ORDER BY key"
    }

    /// The name of the unique index enforcing a unique DocStore index.
    static func postgresUniqueName(_ name: String) -> String {
        name + "_unique"
    }

    /// The field's expressions on PostgreSQL, or an error explaining why no
    /// index can hold them.
    static func postgresIndexableField(_ path: FieldPath, collection: String) throws -> FieldSQL {
        let field = try FieldSQL.checked(path, from: .document, collection: collection, dialect: .postgres)
        guard field.isIndexable, !path.components.isEmpty else {
            let reason = path.components.isEmpty ? "the document itself can't be indexed, only its fields"
                : "a negative array position is never present, so no index can serve it"
            throw DocStoreError.invalidQuery(collection: collection, field: path.description, reason: reason)
        }
        return field
    }
}
