import GRDB

extension Catalog {
    /// The search indexes' catalog table. Stores made before search indexes
    /// existed lack it: it is created by the first ``recordSearchIndex(_:in:)``,
    /// and reading a store without it finds no search index.
    static let searchIndexesTable = "docstore_search_indexes"

    /// Creates the search indexes' table if the store has none yet.
    static func installSearchIndexes(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(searchIndexesTable) (
                name TEXT PRIMARY KEY NOT NULL,
                collection TEXT NOT NULL,
                fields TEXT NOT NULL
            ) WITHOUT ROWID
            """)
    }

    /// The search indexes recorded for a collection (all collections when nil), by name.
    static func searchIndexes(of collection: String?, in db: Database) throws -> [SearchIndexInfo] {
        guard try db.tableExists(searchIndexesTable) else { return [] }
        let rows = if let collection {
            try Row.fetchAll(db, sql: "SELECT name, collection, fields FROM \(searchIndexesTable) WHERE collection = ? ORDER BY name",
                             arguments: [collection])
        } else {
            try Row.fetchAll(db, sql: "SELECT name, collection, fields FROM \(searchIndexesTable) ORDER BY name")
        }
        return try rows.map { row in
            let rowName = CatalogValue.rowName(row)
            func column(_ index: Int) -> CatalogValue {
                CatalogValue(row, index, table: searchIndexesTable, rowName: rowName, db: db)
            }
            return SearchIndexInfo(name: try column(0).text(), collection: try column(1).text(), fields: try decodeFields(column(2)))
        }
    }

    /// Records a search index; the caller creates its SQLite objects when the
    /// collection's table exists (``createCollection(_:in:)`` creates the recorded
    /// ones with the table).
    static func recordSearchIndex(_ index: SearchIndexInfo, in db: Database) throws {
        try installSearchIndexes(in: db)
        try db.execute(sql: "INSERT INTO \(searchIndexesTable) (name, collection, fields) VALUES (?, ?, ?)",
                       arguments: [index.name, index.collection, encodeFields(index.fields)])
    }

    /// Drops a search index's SQLite objects and forgets it.
    static func dropSearchIndex(_ index: SearchIndexInfo, in db: Database) throws {
        for statement in SearchIndexSQL.drop(index) { try db.execute(sql: statement) }
        try db.execute(sql: "DELETE FROM \(searchIndexesTable) WHERE name = ?", arguments: [index.name])
    }

    /// A new search index name: `docstore_search_<n>`, one more than the highest used.
    static func nextSearchIndexName(in db: Database) throws -> String {
        try nextName("docstore_search_", after: searchIndexesTable, in: db,
                     exhausted: "search index numbers are exhausted; drop and re-create the search indexes")
    }
}
