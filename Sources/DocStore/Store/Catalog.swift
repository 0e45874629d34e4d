import GRDB

/// What the catalog records about one collection.
public struct CollectionInfo: Sendable, Hashable {
    /// The collection's name.
    public var name: String
    /// The kind of its keys.
    public var keyKind: KeyKind

    /// Describes a collection (another backend's catalog lists them too).
    public init(name: String, keyKind: KeyKind) {
        self.name = name
        self.keyKind = keyKind
    }
}

/// The catalog: DocStore's own tables, recording the store's format version and
/// its collections, so that tools like the REPL discover everything without Swift
/// types. Every statement that touches these tables lives here.
enum Catalog {
    /// The format this DocStore writes. A store with a higher version is refused.
    static let formatVersion = 1

    static let metaTable = "docstore_meta"
    static let collectionsTable = "docstore_collections"
    /// A collection's key kind, for the name bound to `?` (GRDB's connections
    /// and the point reader's alike).
    static let keyKindQuery = "SELECT key_kind FROM \(collectionsTable) WHERE name = ?"
    static let indexesTable = "docstore_indexes"
    static let valuesTable = "docstore_values"

    /// Creates the catalog tables in a new store; a no-op on an existing one.
    static func install(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(metaTable) (name TEXT PRIMARY KEY NOT NULL, value) WITHOUT ROWID;
            INSERT OR IGNORE INTO \(metaTable) (name, value) VALUES ('format_version', \(formatVersion));
            CREATE TABLE IF NOT EXISTS \(collectionsTable) (
                name TEXT PRIMARY KEY NOT NULL,
                key_kind TEXT NOT NULL,
                created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS \(indexesTable) (
                name TEXT PRIMARY KEY NOT NULL,
                collection TEXT NOT NULL,
                fields TEXT NOT NULL,
                is_unique INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS \(valuesTable) (key TEXT PRIMARY KEY NOT NULL, body TEXT NOT NULL) WITHOUT ROWID;
            """)
        try installSearchIndexes(in: db)
    }

    /// The catalog tables every store of this format has; a store missing one was
    /// damaged outside DocStore (recreating it empty would hide its collections).
    static let requiredTables = [metaTable, collectionsTable, indexesTable]

    /// Why an existing SQLite database can't be used as a store, or nil if it can.
    /// An empty database (no tables) is fine: it becomes a store.
    static func problem(in db: Database, path: String) throws -> DocStoreError? {
        let tables = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
            """)
        if tables.isEmpty { return nil }
        let catalogTables = tables.filter { $0.hasPrefix("docstore_") }
        guard !catalogTables.isEmpty else {
            let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
            return .notAStore(path: path, reason: "it is a SQLite database with other tables (\(shown))")
        }
        for table in requiredTables where !tables.contains(table) {
            return .damagedCatalog(path: path, table: table, row: "(the whole table)", value: "missing",
                                   reason: "the catalog table is gone while \(catalogTables.joined(separator: ", ")) remain; recreating it would hide the store's collections")
        }
        let rows = try Row.fetchAll(db, sql: "SELECT value FROM \(metaTable) WHERE name = 'format_version'")
        guard let row = rows.first else {
            return .damagedCatalog(path: path, table: metaTable, row: #"name "format_version""#, value: "missing",
                                   reason: "the catalog has no format version")
        }
        let value = CatalogValue(row, 0, table: metaTable, rowName: #"name "format_version""#, db: db)
        do {
            let version = try value.integer(in: 1...Int64.max)
            if version > Int64(formatVersion) {
                return .unsupportedFormatVersion(path: path, found: Int(clamping: version), supported: formatVersion)
            }
        } catch {
            return error
        }
        return nil
    }

    /// Whether the store's catalog exists (false for a new, empty database).
    static func isInstalled(in db: Database) throws -> Bool {
        try db.tableExists(metaTable)
    }

    static func collections(in db: Database) throws -> [CollectionInfo] {
        try Row.fetchAll(db, sql: "SELECT name, key_kind FROM \(collectionsTable) ORDER BY name").map { try collectionInfo($0, in: db) }
    }

    /// The collections whose catalog rows read cleanly, skipping damaged rows: for
    /// the integrity check, which reports those (``validationProblems(in:)``).
    static func readableCollections(in db: Database) throws -> [CollectionInfo] {
        try Row.fetchAll(db, sql: "SELECT name, key_kind FROM \(collectionsTable) ORDER BY name").compactMap {
            try? collectionInfo($0, in: db)
        }
    }

    static func collectionInfo(_ row: Row, in db: Database) throws -> CollectionInfo {
        let rowName = CatalogValue.rowName(row)
        let name = try CatalogValue(row, 0, table: collectionsTable, rowName: rowName, db: db).text()
        let kind = try keyKind(CatalogValue(row, 1, table: collectionsTable, rowName: rowName, db: db))
        return CollectionInfo(name: name, keyKind: kind)
    }

    static func collection(named name: String, in db: Database) throws -> CollectionInfo? {
        let statement = try db.cachedStatement(sql: keyKindQuery)
        guard let value = try DatabaseValue.fetchOne(statement, arguments: [name]) else { return nil }
        let kind = try keyKind(CatalogValue(value, table: collectionsTable, rowName: "name \(DocumentKey.quoted(name))", db: db))
        return CollectionInfo(name: name, keyKind: kind)
    }

    private static func keyKind(_ value: CatalogValue) throws -> KeyKind {
        guard let kind = KeyKind(rawValue: try value.text()) else {
            throw value.damaged("expected a key kind (\(KeyKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return kind
    }

    /// Refuses a name a new collection can't have beside the existing ones: one
    /// differing from another only by ASCII letter case, or only in how its
    /// Unicode characters are written. Checked when a collection is made, and
    /// when an index, search index or field columns are recorded ahead of it
    /// (a collection of that name could never be made to use them).
    static func refuseNameClash(_ name: String, in db: Database) throws {
        // SQLite's names ignore ASCII letter case (as COLLATE NOCASE does): "Players"
        // would collide with "players" in SQLite's own words, so say it in ours.
        if let existing = try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE name = ? COLLATE NOCASE",
                                              arguments: [name]) {
            if existing == name, try isDocumentTable(name, in: db),
               try String.fetchOne(db, sql: "SELECT name FROM \(collectionsTable) WHERE name = ?", arguments: [name]) == nil {
                // The catalog lost this collection's row: its documents are
                // there, hidden, and making the collection anew would fail.
                throw DocStoreError.invalidCollectionName(
                    name, reason: "a table of documents named \(DocumentKey.quoted(name)) is in the store, but the catalog doesn't record it (its docstore_collections row was deleted by another program); its documents are intact: restore the row (name, key_kind) with sqlite3 (.check shows it), and nothing was written")
            }
            throw DocStoreError.invalidCollectionName(
                name, reason: "the store already has a collection named \(DocumentKey.quoted(existing)); SQLite's table names ignore letter case, so two names that differ only by case can't both exist")
        }
        // Two names equal as Swift strings but not in bytes (a composed "é" and
        // "e" with a combining accent) are two tables to SQLite, but one key of
        // every `String`-keyed map of collections: copies and listings mixed
        // them up (helper-46).
        for existing in try String.fetchAll(db, sql: "SELECT name FROM \(collectionsTable)")
        where existing == name && !ExactText.same(existing, name) {
            throw DocStoreError.invalidCollectionName(
                name, reason: "the store already has a collection named \(DocumentKey.quoted(existing)), the same name written with other Unicode characters (\(ExactText.scalarList(existing)) there, \(ExactText.scalarList(name)) here); use that name, or another")
        }
    }

    /// Creates the collection's table and records it. Integer keys use SQLite's rowid
    /// (so generated keys are cheap); string and UUID keys a WITHOUT ROWID table.
    static func createCollection(_ info: CollectionInfo, in db: Database) throws {
        try refuseNameClash(info.name, in: db)
        let table = quoteIdentifier(info.name)
        switch info.keyKind {
        case .integer:
            try db.execute(sql: "CREATE TABLE \(table) (key INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        case .string, .uuid:
            try db.execute(sql: "CREATE TABLE \(table) (key TEXT PRIMARY KEY NOT NULL, body TEXT NOT NULL) WITHOUT ROWID")
        }
        try db.execute(
            sql: "INSERT INTO \(collectionsTable) (name, key_kind) VALUES (?, ?)",
            arguments: [info.name, info.keyKind.rawValue])
        // Indexes declared before the collection's first document.
        for index in try indexes(of: info.name, in: db) {
            try db.execute(sql: try IndexSQL.create(index))
        }
        for index in try searchIndexes(of: info.name, in: db) {
            for statement in try SearchIndexSQL.create(index, keyKind: info.keyKind) { try db.execute(sql: statement) }
        }
        if let columns = try fieldColumns(of: info.name, in: db) {
            for statement in try FieldColumnsSQL.create(columns, keyKind: info.keyKind) { try db.execute(sql: statement) }
        }
    }

    static func dropCollection(named name: String, in db: Database) throws {
        // SQLite's names ignore case: when a damaged catalog row says "Teams",
        // DROP TABLE "Teams" would drop another collection's table "teams".
        // Only a table of exactly this name is this collection's.
        let exists = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)", arguments: [name]) == true
        if try isReplacedByForeignObject(name, in: db) {
            throw DocStoreError.invalidQuery(collection: name, field: nil, reason: BackendSupport.foreignTableProblem(name, tool: "sqlite3") + "; nothing was changed")
        }
        for index in try searchIndexes(of: name, in: db) {
            try dropSearchIndex(index, in: db)
        }
        if let columns = try fieldColumns(of: name, in: db) { try dropFieldColumns(columns, in: db) }
        let indexNames = try String.fetchAll(db, sql: "SELECT name FROM \(indexesTable) WHERE collection = ?", arguments: [name])
        for index in indexNames {
            try db.execute(sql: "DROP INDEX IF EXISTS \(quoteIdentifier(index))")
        }
        try db.execute(sql: "DELETE FROM \(indexesTable) WHERE collection = ?", arguments: [name])
        if exists {
            try db.execute(sql: "DROP TABLE \(quoteIdentifier(name))")
        }
        try db.execute(sql: "DELETE FROM \(collectionsTable) WHERE name = ?", arguments: [name])
    }
}
