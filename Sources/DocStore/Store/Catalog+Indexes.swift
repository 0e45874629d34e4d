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
        return try rows.map { try indexInfo($0, in: db) }
    }

    /// The index recorded under `name`, if any.
    static func index(named name: String, in db: Database) throws -> IndexInfo? {
        try Row.fetchOne(db, sql: "SELECT name, collection, fields, is_unique FROM \(indexesTable) WHERE name = ?", arguments: [name])
            .map { try indexInfo($0, in: db) }
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
        try nextName("docstore_ix_", after: indexesTable, in: db, exhausted: "index numbers are exhausted; drop and re-create the indexes")
    }

    /// `<prefix><n>`: one more than the highest number of the names in `table`'s
    /// `name` column that start with `prefix` (1 when the table doesn't exist).
    /// `exhausted` says what to do when the numbers run out.
    static func nextName(_ prefix: String, after table: String, in db: Database, exhausted: String) throws -> String {
        var highest = 0
        if try db.tableExists(table) {
            for row in try Row.fetchAll(db, sql: "SELECT name FROM \(table)") {
                let value = CatalogValue(row, 0, table: table, rowName: CatalogValue.rowName(row), db: db)
                let name = try value.text()
                guard name.hasPrefix(prefix), let number = Int(name.dropFirst(prefix.count)) else { continue }
                guard number < Int.max else { throw value.damaged(exhausted) }
                highest = max(highest, number)
            }
        }
        // Past the objects the catalog lost too: `CREATE … IF NOT EXISTS` kept a
        // stray unique index of the same name, which went on refusing values
        // while the catalog called the new index not unique.
        for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE substr(name, 1, length(?)) = ?", arguments: [prefix, prefix]) {
            let suffix = name.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
            if let number = Int(suffix), number < Int.max { highest = max(highest, number) }
        }
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

    /// The field paths that ``encodeFields(_:)`` wrote; anything else is damage.
    static func decodeFields(_ value: CatalogValue) throws -> [FieldPath] {
        let text = try value.text()
        let bytes = Array(text.utf8)
        guard let json = try? bytes.withUnsafeBytes({ try DocumentCodec.parse($0) }) else {
            throw value.damaged("expected a JSON array of field paths")
        }
        guard case .array(let paths) = json, !paths.isEmpty else {
            throw value.damaged("expected a non-empty JSON array of field paths")
        }
        return try paths.map { path in
            guard case .array(let components) = path, !components.isEmpty else {
                throw value.damaged("expected each field path to be a non-empty array")
            }
            return FieldPath(try components.map { component in
                switch component {
                case .string(let key): return .key(key)
                case .integer(let index) where index >= 0 && index <= Int64(Int32.max): return .index(Int(index))
                default: throw value.damaged("expected member names (strings) and array positions (integers from 0)")
                }
            })
        }
    }

    static func indexInfo(_ row: Row, in db: Database) throws -> IndexInfo {
        let rowName = CatalogValue.rowName(row)
        func column(_ index: Int) -> CatalogValue {
            CatalogValue(row, index, table: indexesTable, rowName: rowName, db: db)
        }
        return IndexInfo(name: try column(0).text(), collection: try column(1).text(),
                         fields: try decodeFields(column(2)), isUnique: try column(3).integer(in: 0...1) == 1)
    }
}
