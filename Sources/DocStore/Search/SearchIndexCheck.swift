import GRDB

/// Checking that a collection's full-text search indexes hold what its documents
/// say, and making them again when they don't (``DocumentStore/check(collection:)``,
/// ``DocumentStore/repair(collection:)``). A search reads only the index: an index
/// changed behind DocStore's back (or a document written by a tool that bypassed
/// its triggers) finds documents that no longer say what was searched, or hides
/// documents that do.
enum SearchIndexCheck {
    /// What is wrong with the collection's search indexes, or nil when they match
    /// its documents (or it has none).
    ///
    /// FTS5 compares an index with its documents as an `INSERT` command that
    /// changes nothing, which SQLite runs only on a connection that may write.
    static func problem(of collection: String, in db: Database) throws -> String? {
        let stale = try staleIndexes(of: collection, in: db)
        guard !stale.isEmpty else { return nil }
        let names = stale.map { DocumentKey.quoted($0.name) }.joined(separator: ", ")
        return "its search index\(stale.count == 1 ? "" : "es") \(names) \(stale.count == 1 ? "doesn't" : "don't") hold what the documents say (changed behind DocStore's back): searches may miss documents or find wrong ones"
    }

    /// Makes each search index of the collection that doesn't match its documents
    /// again from them. Returns the names of those made again.
    static func rebuild(_ collection: String, keyKind: KeyKind, in db: Database) throws -> [String] {
        let stale = try staleIndexes(of: collection, in: db)
        for index in stale {
            for statement in SearchIndexSQL.rebuild(index, keyKind: keyKind) { try db.execute(sql: statement) }
        }
        return stale.map(\.name)
    }

    /// The collection's search indexes that don't match its documents: FTS5's
    /// integrity check against the documents fails, or (string and UUID keys)
    /// the table numbering the keys lacks a document or keeps one that is gone.
    private static func staleIndexes(of collection: String, in db: Database) throws -> [SearchIndexInfo] {
        try Catalog.searchIndexes(of: collection, in: db).filter { index in
            // A missing table is the catalog's problem, which `check` reports.
            guard try db.tableExists(index.name) else { return false }
            let keysName = SearchIndexSQL.keysName(index)
            if try db.tableExists(keysName) {
                let (keys, table) = (quoteIdentifier(keysName), quoteIdentifier(collection))
                let unmatched = try Int.fetchOne(db, sql: """
                    SELECT (SELECT count(*) FROM \(table) WHERE key NOT IN (SELECT key FROM \(keys)))
                         + (SELECT count(*) FROM \(keys) WHERE key NOT IN (SELECT key FROM \(table)))
                    """) ?? 0
                if unmatched > 0 { return true }
            }
            let fts = quoteIdentifier(index.name)
            do {
                try db.execute(sql: "INSERT INTO \(fts)(\(fts), rank) VALUES ('integrity-check', 1)")
                return false
            } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_CORRUPT {
                return true
            }
        }
    }
}
