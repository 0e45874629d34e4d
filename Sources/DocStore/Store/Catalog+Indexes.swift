import GRDB

extension Catalog {
    /// The indexes recorded for a collection (all collections when nil), by name.
    static func indexes(of collection: String?, in db: Database) throws -> [IndexInfo] {
        let rows = if let collection {
            try Row.fetchAll(db, sql: "SELECT name, collection, fields, is_unique FROM \(indexesTable) WHERE collection = ? ORDER BY name",
                             arguments: [collection])
        } else {
            try Row.fetchAll(db, sql: "SELECT name, collection, fields, is_unique FROM \(indexesTable) ORDER BY name")
        }
        return try rows.map(indexInfo)
    }

    /// The index recorded under `name`, if any.
    static func index(named name: String, in db: Database) throws -> IndexInfo? {
        try Row.fetchOne(db, sql: "SELECT name, collection, fields, is_unique FROM \(indexesTable) WHERE name = ?", arguments: [name])
            .map(indexInfo)
    }

    /// Records an index; the caller creates it in SQLite when the table exists
    /// (``createCollection(_:in:)`` creates the recorded ones with the table).
    static func recordIndex(_ index: IndexInfo, in db: Database) throws {
        try db.execute(sql: "INSERT INTO \(indexesTable) (name, collection, fields, is_unique) VALUES (?, ?, ?, ?)",
                       arguments: [index.name, index.collection, encodeFields(index.fields), index.isUnique])
    }

    /// Drops an index and forgets it.
    static func dropIndex(named name: String, in db: Database) throws {
        try db.execute(sql: "DROP INDEX IF EXISTS \(quoteIdentifier(name))")
        try db.execute(sql: "DELETE FROM \(indexesTable) WHERE name = ?", arguments: [name])
    }

    /// A new index name: `docstore_ix_<n>`, one more than the highest used. Names
    /// never come from user text, so they're safe anywhere (and quoted anyway).
    static func nextIndexName(in db: Database) throws -> String {
        let prefix = "docstore_ix_"
        let names = try String.fetchAll(db, sql: "SELECT name FROM \(indexesTable)")
        let highest = names.compactMap { $0.hasPrefix(prefix) ? Int($0.dropFirst(prefix.count)) : nil }.max() ?? 0
        return prefix + String(highest + 1)
    }

    /// Field paths as JSON: `[["stats","average"],["tags",0]]` (member names as
    /// strings, array positions as numbers), so any name round-trips.
    static func encodeFields(_ fields: [FieldPath]) -> String {
        let json = JSONValue.array(fields.map { path in
            .array(path.components.map { component in
                switch component {
                case .key(let key): .string(key)
                case .index(let index): .integer(Int64(index))
                }
            })
        })
        return String(decoding: DocumentCodec.serialize(json), as: UTF8.self)
    }

    static func decodeFields(_ text: String) throws -> [FieldPath] {
        let bytes = Array(text.utf8)
        let json = try bytes.withUnsafeBytes { try DocumentCodec.parse($0) }
        guard case .array(let paths) = json else { return [] }
        return paths.map { path in
            guard case .array(let components) = path else { return FieldPath([]) }
            return FieldPath(components.compactMap { component in
                switch component {
                case .string(let key): .key(key)
                case .integer(let index): .index(Int(index))
                case .double(let index): .index(Int(index))
                default: nil
                }
            })
        }
    }

    private static func indexInfo(_ row: Row) throws -> IndexInfo {
        IndexInfo(name: row[0], collection: row[1], fields: try decodeFields(row[2]), isUnique: row[3])
    }
}
