import GRDB

/// The SQLite objects DocStore made for a search index or field columns (their
/// table, its triggers on the collection's table, a view, a key table) whose
/// catalog row is gone, deleted by another tool. Nothing reads them any more,
/// but their triggers still run on every write to the collection, and make
/// every write fail once the table they write to is dropped by hand.
struct OrphanObjects {
    /// One of its SQLite objects.
    struct Object {
        /// `trigger`, `table` or `view`.
        var type: String
        var name: String
    }

    /// The search index's or field columns' name: `docstore_search_1`, `docstore_columns_2`.
    var name: String
    /// The collection whose writes the triggers run on; nil when no trigger is left.
    var collection: String?
    /// Its objects, triggers first.
    var objects: [Object]

    var isSearchIndex: Bool { name.hasPrefix(Catalog.searchObjectPrefix) }

    /// What is wrong, and what to do about it.
    var problem: String {
        let what = isSearchIndex ? "a full-text search index" : "field columns"
        let triggers = objects.filter { $0.type == "trigger" }.count
        guard let collection else {
            return "\(what) that the catalog does not record (an orphan; its \(objects.map { DocumentKey.quoted($0.name) }.joined(separator: ", "))): nothing uses it; drop it with sqlite3 to free its space"
        }
        return "\(what) on \(DocumentKey.quoted(collection)) that the catalog does not record (an orphan, its catalog row deleted outside DocStore): its \(triggers == 1 ? "trigger" : "\(triggers) triggers") still \(triggers == 1 ? "runs" : "run") on every write, and every write fails once its table is gone; .repair \(DocumentKey.commandArgument(collection)) drops it (make the \(isSearchIndex ? "search index" : "field columns") again if you need \(isSearchIndex ? "it" : "them"))"
    }
}

extension Catalog {
    static let searchObjectPrefix = "docstore_search_"
    static let columnsObjectPrefix = "docstore_columns_"

    /// The orphaned search-index and field-column objects, on the collection
    /// `collection` only when given. A leftover SQLite can't open (a damaged FTS
    /// table that `.repair` replaced, since SQLite can't drop it) with no trigger
    /// left is not one: nothing runs it, and nothing can remove it.
    static func orphanObjects(in db: Database, collection: String? = nil) throws -> [OrphanObjects] {
        let recordedSearch = try db.tableExists(searchIndexesTable)
            ? Set(String.fetchAll(db, sql: "SELECT CAST(name AS TEXT) FROM \(searchIndexesTable) WHERE name IS NOT NULL")) : []
        let recordedColumns = try db.tableExists(fieldColumnsTable)
            ? Set(String.fetchAll(db, sql: "SELECT CAST(name AS TEXT) FROM \(fieldColumnsTable) WHERE name IS NOT NULL")) : []
        var groups: [String: OrphanObjects] = [:]
        var order: [String] = []
        // Triggers first: they must go before the table they write to.
        for row in try Row.fetchAll(db, sql: """
            SELECT type, name, tbl_name, sql FROM sqlite_master
            WHERE name LIKE 'docstore\\_search\\_%' ESCAPE '\\' OR name LIKE 'docstore\\_columns\\_%' ESCAPE '\\'
            ORDER BY type = 'trigger' DESC, name
            """) {
            let (type, name, table): (String, String, String) = (row[0] ?? "", row[1] ?? "", row[2] ?? "")
            guard type != "index", let base = baseName(of: name),
                  !(base.hasPrefix(searchObjectPrefix) ? recordedSearch : recordedColumns).contains(base) else { continue }
            if groups[base] == nil {
                groups[base] = OrphanObjects(name: base, collection: nil, objects: [])
                order.append(base)
            }
            if type == "trigger" { groups[base]?.collection = table }
            groups[base]?.objects.append(OrphanObjects.Object(type: type, name: name))
        }
        return try order.compactMap { base in
            guard let orphan = groups[base] else { return nil }
            if let collection, orphan.collection != collection { return nil }
            if orphan.collection == nil, orphan.isSearchIndex, !(try canOpen(base, in: db)) { return nil }
            return orphan
        }
    }

    /// Drops an orphan's objects: triggers, then tables and views (an FTS table
    /// drops its own shadow tables; a damaged one SQLite can't drop is kept).
    static func dropOrphanObjects(_ orphan: OrphanObjects, in db: Database) throws {
        for object in orphan.objects {
            let (type, name) = (object.type, object.name)
            let quoted = quoteIdentifier(name)
            switch type {
            case "trigger":
                try db.execute(sql: "DROP TRIGGER IF EXISTS \(quoted)")
            case "view":
                try db.execute(sql: "DROP VIEW IF EXISTS \(quoted)")
            case "table" where name == orphan.name || !orphan.isSearchIndex || name.hasSuffix("_keys"):
                // The FTS table itself, a field columns table, a key table: not
                // an FTS table's shadow tables, which go with it.
                if name == orphan.name, orphan.isSearchIndex, !(try canOpen(name, in: db)) { continue }
                try db.execute(sql: "DROP TABLE IF EXISTS \(quoted)")
            default:
                continue
            }
        }
    }

    /// `docstore_search_3` for `docstore_search_3`, `…_3_insert`, `…_3_data`; nil for others
    /// (`docstore_search_indexes`).
    private static func baseName(of name: String) -> String? {
        for prefix in [searchObjectPrefix, columnsObjectPrefix] where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { return nil }
            let rest = name.dropFirst(prefix.count + digits.count)
            guard rest.isEmpty || rest.hasPrefix("_") else { return nil }
            return prefix + digits
        }
        return nil
    }

    /// Whether SQLite can open the table (a damaged FTS table's constructor fails).
    private static func canOpen(_ table: String, in db: Database) throws -> Bool {
        do {
            _ = try db.makeStatement(sql: "SELECT 1 FROM \(quoteIdentifier(table)) LIMIT 0")
            return true
        } catch let error as DatabaseError where error.resultCode != .SQLITE_NOMEM && error.resultCode != .SQLITE_IOERR {
            return false
        }
    }
}
