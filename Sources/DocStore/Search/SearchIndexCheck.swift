import GRDB

/// Checking that a collection's full-text search indexes hold what its documents
/// say, and making them again when they don't (``DocumentStore/check(collection:)``,
/// ``DocumentStore/repair(collection:)``). A search reads only the index: an index
/// changed behind DocStore's back (or a document written by a tool that bypassed
/// its triggers) finds documents that no longer say what was searched, or hides
/// documents that do; an index whose own tables are damaged fails every search,
/// and through its triggers every write to the collection.
enum SearchIndexCheck {
    /// What is wrong with the collection's search indexes, or nil when they match
    /// its documents (or it has none).
    ///
    /// FTS5 compares an index with its documents as an `INSERT` command that
    /// changes nothing, which SQLite runs only on a connection that may write:
    /// without `comparingContent` (a store opened read-only), only the index's
    /// objects and its numbering of string keys are checked.
    static func problem(of collection: String, comparingContent: Bool = true, in db: Database) throws -> String? {
        let stale = try staleIndexes(of: collection, comparingContent: comparingContent, in: db)
        guard !stale.isEmpty else { return nil }
        let list = stale.map { "\(DocumentKey.quoted($0.index.name)) (\($0.why))" }.joined(separator: ", ")
        return "its search index\(stale.count == 1 ? "" : "es") \(list) \(stale.count == 1 ? "doesn't" : "don't") hold what the documents say: searches may miss documents or find wrong ones"
    }

    /// Makes each search index of the collection that doesn't match its documents
    /// again from them: all its objects dropped and created again, under a new
    /// name when SQLite can't drop the old FTS5 table (its own tables damaged, so
    /// that it can't be opened; what is left of it then never meets the new one).
    /// Returns the names of the indexes made, as they are now.
    static func rebuild(_ collection: String, keyKind: KeyKind, in db: Database) throws -> [String] {
        var made: [String] = []
        for (index, _) in try staleIndexes(of: collection, in: db) {
            var remade = index
            for statement in SearchIndexSQL.drop(index) {
                do {
                    try db.execute(sql: statement)
                } catch let error as DatabaseError where statement == SearchIndexSQL.dropTable(index) && !Self.isTransient(error) {
                    remade = SearchIndexInfo(name: try Catalog.nextSearchIndexName(in: db), collection: collection, fields: index.fields)
                }
            }
            if remade.name != index.name {
                try db.execute(sql: "DELETE FROM \(Catalog.searchIndexesTable) WHERE name = ?", arguments: [index.name])
                try Catalog.recordSearchIndex(remade, in: db)
            }
            for statement in try SearchIndexSQL.create(remade, keyKind: keyKind) { try db.execute(sql: statement) }
            made.append(remade.name)
        }
        return made
    }

    /// The collection's search indexes that don't match its documents, and why:
    /// an object missing or not as DocStore makes it (the FTS5 table and its
    /// tokenizer, the view it reads, a trigger, the table numbering string keys),
    /// a key that numbering lacks or keeps for a document that is gone, FTS5's
    /// integrity check against the documents failing, or the FTS5 table not
    /// opening at all.
    private static func staleIndexes(of collection: String, comparingContent: Bool = true,
                                     in db: Database) throws -> [(index: SearchIndexInfo, why: String)] {
        let keyKind = try Catalog.collection(named: collection, in: db)?.keyKind ?? .integer
        let keyed = keyKind != .integer
        return try Catalog.searchIndexes(of: collection, in: db).compactMap { index in
            let objects = [(index.name, "table"), (SearchIndexSQL.sourceName(index), "view")]
                + ["_insert", "_update", "_delete"].map { (index.name + $0, "trigger") }
                + (keyed ? [(SearchIndexSQL.keysName(index), "table")] : [])
            let made = try SearchIndexSQL.create(index, keyKind: keyKind)
            for (name, type) in objects {
                let stored = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = ? AND name = ?", arguments: [type, name])
                guard let stored else { return (index, "its \(type) \(DocumentKey.quoted(name)) is missing") }
                let creating = ["CREATE TABLE ", "CREATE VIRTUAL TABLE ", "CREATE VIEW ", "CREATE TRIGGER "].map { $0 + quoteIdentifier(name) + " " }
                if let statement = made.first(where: { statement in creating.contains { statement.hasPrefix($0) } }), statement != stored {
                    return (index, "its \(type) \(DocumentKey.quoted(name)) is not as DocStore makes it")
                }
            }
            if keyed {
                let (keys, table) = (quoteIdentifier(SearchIndexSQL.keysName(index)), quoteIdentifier(collection))
                let unmatched = try Int.fetchOne(db, sql: """
                    SELECT (SELECT count(*) FROM \(table) WHERE key NOT IN (SELECT key FROM \(keys)))
                         + (SELECT count(*) FROM \(keys) WHERE key NOT IN (SELECT key FROM \(table)))
                    """) ?? 0
                if unmatched > 0 { return (index, "its numbering of the keys doesn't match the documents") }
            }
            guard comparingContent else { return nil }
            let fts = quoteIdentifier(index.name)
            do {
                try db.execute(sql: "INSERT INTO \(fts)(\(fts), rank) VALUES ('integrity-check', 1)")
                return nil
            } catch let error as DatabaseError where error.resultCode.primaryResultCode == .SQLITE_CORRUPT {
                return (index, "changed behind DocStore's back")
            } catch let error as DatabaseError where !isTransient(error) {
                return (index, "it can't be opened: \(error.message ?? "\(error.resultCode)")")
            }
        }
    }

    /// An error that says nothing about the index: the store busy or locked, out
    /// of memory or failing to read.
    private static func isTransient(_ error: DatabaseError) -> Bool {
        [.SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_NOMEM, .SQLITE_IOERR, .SQLITE_INTERRUPT].contains(error.resultCode.primaryResultCode)
    }
}
