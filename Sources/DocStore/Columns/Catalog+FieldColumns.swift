import GRDB

extension Catalog {
    /// The field columns' catalog table: one row per collection that has field
    /// columns. Stores made before field columns existed lack it: it is created by
    /// the first ``recordFieldColumns(_:in:)``, and a store without it has none.
    static let fieldColumnsTable = "docstore_field_columns"

    /// The field columns of a collection that queries may read: recorded, and
    /// kept by their triggers on the collection's table. A table dropped and made
    /// again by a DocStore that predates field columns loses the triggers, and
    /// its columns no longer follow the documents: they are then not read.
    static func readableFieldColumns(of collection: String, in db: Database) throws -> FieldColumnsInfo? {
        guard let columns = try fieldColumns(of: collection, in: db) else { return nil }
        let triggers = ["_insert", "_update", "_delete"].map { columns.name + $0 }
        let found = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? AND name IN (?, ?, ?)",
                                     arguments: [collection] + StatementArguments(triggers)) ?? 0
        return found == triggers.count ? columns : nil
    }

    /// The field columns of a collection, if it has any.
    static func fieldColumns(of collection: String, in db: Database) throws -> FieldColumnsInfo? {
        guard try db.tableExists(fieldColumnsTable) else { return nil }
        let row = try Row.fetchOne(db, sql: "SELECT name, collection, fields FROM \(fieldColumnsTable) WHERE collection = ?",
                                   arguments: [collection])
        return try row.map { row in
            let rowName = CatalogValue.rowName(row)
            func column(_ index: Int) -> CatalogValue {
                CatalogValue(row, index, table: fieldColumnsTable, rowName: rowName, db: db)
            }
            return FieldColumnsInfo(name: try column(0).text(), collection: try column(1).text(), fields: try decodeFields(column(2)))
        }
    }

    /// Records a collection's field columns, in place of any it had; the caller
    /// creates their SQLite objects when the collection's table exists
    /// (``createCollection(_:in:)`` creates the recorded ones with the table).
    static func recordFieldColumns(_ columns: FieldColumnsInfo, in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(fieldColumnsTable) (
                collection TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                fields TEXT NOT NULL
            ) WITHOUT ROWID
            """)
        try db.execute(sql: "INSERT OR REPLACE INTO \(fieldColumnsTable) (collection, name, fields) VALUES (?, ?, ?)",
                       arguments: [columns.collection, columns.name, encodeFields(columns.fields)])
    }

    /// Drops a collection's field columns' SQLite objects and forgets them.
    static func dropFieldColumns(_ columns: FieldColumnsInfo, in db: Database) throws {
        for statement in FieldColumnsSQL.drop(columns) { try db.execute(sql: statement) }
        try db.execute(sql: "DELETE FROM \(fieldColumnsTable) WHERE collection = ?", arguments: [columns.collection])
    }

    /// A new name for a field columns table: `docstore_columns_<n>`, one more than
    /// the highest used (a new name each time, so a replaced table's objects and
    /// the new ones never meet).
    static func nextFieldColumnsName(in db: Database) throws -> String {
        try nextName("docstore_columns_", after: fieldColumnsTable, in: db,
                     exhausted: "field column table numbers are exhausted; drop and re-create the field columns")
    }
}
