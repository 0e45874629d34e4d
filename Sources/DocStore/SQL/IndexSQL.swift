/// The SQL of DocStore's indexes.
enum IndexSQL {
    /// `CREATE [UNIQUE] INDEX "name" ON "collection" (rank1, value1, rank2, value2…)`:
    /// each field by exactly the pair of expressions the compiler emits for it
    /// (``FieldSQL``), so equality, ranges and sorts on the fields use the index.
    static func create(_ index: IndexInfo) throws -> String {
        var columns: [String] = []
        for path in index.fields {
            let field = try indexableField(path, collection: index.collection)
            columns.append(field.rank.sql)
            columns.append(field.value.sql)
        }
        return "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quoteIdentifier(index.name)) ON "
            + "\(quoteIdentifier(index.collection)) (\(columns.joined(separator: ", ")))"
    }

    /// The field's expressions, or an error explaining why no index (or other
    /// `purpose`: a field column) can hold them.
    static func indexableField(_ path: FieldPath, collection: String, purpose: String = "index") throws -> FieldSQL {
        let field = try FieldSQL.checked(path, from: .document, collection: collection)
        guard field.isIndexable, field.type.bindings.isEmpty, !path.components.isEmpty else {
            let reason = path.components.isEmpty
                ? (purpose == "index" ? "the document itself can't be indexed, only its fields"
                   : "the document itself can't have a \(purpose), only its fields")
                : "SQLite 3.40's JSON paths can't name this field (a member name with a double quote, backslash, slash or control character, or a negative array position); queries on it work, but no \(purpose) can serve them"
            throw DocStoreError.invalidQuery(collection: collection, field: path.description, reason: reason)
        }
        return field
    }
}
