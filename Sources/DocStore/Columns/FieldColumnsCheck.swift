import GRDB

/// Checking that a collection's field columns hold what its documents say, and
/// making them again when they don't (``DocumentStore/check(collection:)``,
/// ``DocumentStore/repair(collection:)``). Queries trust the columns: a row
/// changed or deleted behind DocStore's back would change answers or hide a
/// document, so `check` compares every row.
enum FieldColumnsCheck {
    /// What is wrong with the collection's field columns, or nil when they are
    /// sound (or it has none). Documents that aren't valid JSON are left out:
    /// `check` reports those on their own.
    static func problem(of collection: CollectionInfo, in db: Database) throws -> String? {
        guard let columns = try Catalog.fieldColumns(of: collection.name, in: db) else { return nil }
        let name = DocumentKey.quoted(columns.name)
        guard try Catalog.readableFieldColumns(of: collection.name, in: db) != nil else {
            guard try db.tableExists(columns.name) || db.tableExists(collection.name) else { return nil }
            return "its field columns (\(name)) have lost the triggers that keep them in step (its table was made again without them); queries read the documents instead"
        }
        let table = quoteIdentifier(collection.name)
        let stored = quoteIdentifier(columns.name)
        let expressions = try columns.fields.map { path -> String in
            _ = try IndexSQL.indexableField(path, collection: collection.name, purpose: "field column")
            let field = FieldSQL(path, from: .document)
            return "\(field.type.sql), \(field.rank.sql), \(field.value.sql)"
        }.joined(separator: ", ")
        let names = columns.fields.indices.map { (position: Int) -> String in "t\(position), r\(position), v\(position)" }.joined(separator: ", ")
        let documents = "SELECT key, \(expressions) FROM \(table) WHERE json_valid(body)"
        let kept = "SELECT k, \(names) FROM \(stored) WHERE k NOT IN (SELECT key FROM \(table) WHERE NOT json_valid(body))"
        let keys = try DatabaseValue.fetchAll(db, sql: """
            SELECT key FROM (\(documents) EXCEPT \(kept)) UNION SELECT k FROM (\(kept) EXCEPT \(documents)) ORDER BY 1 LIMIT 11
            """)
        guard !keys.isEmpty else { return nil }
        let shown = keys.prefix(10).map { value -> String in
            switch value.storage {
            case .int64(let number): String(number)
            case .string(let text): DocumentKey.quoted(text)
            default: value.description
            }
        }.joined(separator: ", ")
        return "its field columns (\(name)) don't hold what the documents say for key\(keys.count == 1 ? "" : "s") \(shown)\(keys.count > 10 ? ", …" : "") (changed behind DocStore's back)"
    }

    /// Makes `collection`'s field columns again from its documents, under a new
    /// name, when ``problem(of:in:)`` finds one. Returns whether it did.
    static func rebuild(_ collection: DocumentCollection<JSONValue>, _ info: CollectionInfo, in db: Database) throws -> Bool {
        guard try problem(of: info, in: db) != nil, let columns = try Catalog.fieldColumns(of: info.name, in: db) else { return false }
        _ = try collection.replaceFieldColumns(columns, with: columns.fields, in: db)
        return true
    }
}
