/// The SQL of full-text search indexes: an FTS5 table with external content, the
/// view it reads its content from, and the triggers that keep it in sync with the
/// collection's table.
///
/// FTS5 rows are numbered by integers. A collection with integer keys numbers
/// them by key; one with string or UUID keys (a `WITHOUT ROWID` table) gets a
/// small table of numbers (`<index>_keys`) that the triggers maintain too.
///
///     CREATE VIEW "docstore_search_1_source" AS SELECT key AS id, <text of notes> AS c0 FROM "notes"
///     CREATE VIRTUAL TABLE "docstore_search_1" USING fts5(c0, content='docstore_search_1_source',
///         content_rowid='id', tokenize='unicode61 remove_diacritics 2')
///     CREATE TRIGGER … AFTER INSERT ON "notes" BEGIN INSERT INTO "docstore_search_1"(rowid, c0) VALUES (new.key, …); END
///
/// Every statement writing the collection (inserts, saves, update-by-query,
/// deletes, imports) fires the triggers inside its own transaction, so a rollback
/// undoes the index's changes with the documents'.
enum SearchIndexSQL {
    /// The tokenizer: words of letters and digits, case- and diacritic-insensitive
    /// (``SearchTokenizer`` is its in-memory twin).
    static let tokenizer = "unicode61 remove_diacritics 2"

    /// The statements creating the index's objects over an existing collection
    /// table and indexing the documents already stored.
    static func create(_ index: SearchIndexInfo, keyKind: KeyKind) throws -> [String] {
        let fts = quoteIdentifier(index.name)
        let table = quoteIdentifier(index.collection)
        let columns = index.fields.indices.map { "c\($0)" }
        let columnList = columns.joined(separator: ", ")
        func texts(of body: String) throws -> String {
            try index.fields.map { try text(of: $0, in: body, collection: index.collection) }.joined(separator: ", ")
        }
        var statements: [String] = []
        let rowid: (String) -> String
        if keyKind == .integer {
            statements.append("CREATE VIEW \(quoteIdentifier(sourceName(index))) AS SELECT key AS id, "
                              + zip(try index.fields.map { try text(of: $0, in: "body", collection: index.collection) }, columns)
                                  .map { "\($0) AS \($1)" }.joined(separator: ", ")
                              + " FROM \(table)")
            rowid = { "\($0).key" }
        } else {
            let keys = quoteIdentifier(keysName(index))
            statements.append("CREATE TABLE \(keys) (id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL)")
            statements.append("CREATE VIEW \(quoteIdentifier(sourceName(index))) AS SELECT k.id AS id, "
                              + zip(try index.fields.map { try text(of: $0, in: "d.body", collection: index.collection) }, columns)
                                  .map { "\($0) AS \($1)" }.joined(separator: ", ")
                              + " FROM \(keys) AS k JOIN \(table) AS d ON d.key = k.key")
            rowid = { "(SELECT id FROM \(keys) WHERE key = \($0).key)" }
        }
        statements.append("CREATE VIRTUAL TABLE \(fts) USING fts5(\(columnList), content='\(sourceName(index))', "
                          + "content_rowid='id', tokenize='\(tokenizer)')")
        let remove = "INSERT INTO \(fts)(\(fts), rowid, \(columnList)) VALUES ('delete', \(rowid("old")), \(try texts(of: "old.body")));"
        let add = "INSERT INTO \(fts)(rowid, \(columnList)) VALUES (\(rowid("new")), \(try texts(of: "new.body")));"
        if keyKind == .integer {
            statements.append("CREATE TRIGGER \(quoteIdentifier(index.name + "_insert")) AFTER INSERT ON \(table) BEGIN \(add) END")
            statements.append("CREATE TRIGGER \(quoteIdentifier(index.name + "_delete")) AFTER DELETE ON \(table) BEGIN \(remove) END")
            statements.append("CREATE TRIGGER \(quoteIdentifier(index.name + "_update")) AFTER UPDATE ON \(table) BEGIN \(remove) \(add) END")
        } else {
            let keys = quoteIdentifier(keysName(index))
            statements.append("CREATE TRIGGER \(quoteIdentifier(index.name + "_insert")) AFTER INSERT ON \(table) BEGIN "
                              + "INSERT INTO \(keys)(key) VALUES (new.key); \(add) END")
            statements.append("CREATE TRIGGER \(quoteIdentifier(index.name + "_delete")) AFTER DELETE ON \(table) BEGIN "
                              + "\(remove) DELETE FROM \(keys) WHERE key = old.key; END")
            statements.append("CREATE TRIGGER \(quoteIdentifier(index.name + "_update")) AFTER UPDATE ON \(table) BEGIN "
                              + "\(remove) UPDATE \(keys) SET key = new.key WHERE key = old.key; \(add) END")
        }
        return statements + rebuild(index, keyKind: keyKind)
    }

    /// The statements re-reading every document into the index (FTS5's `rebuild`).
    static func rebuild(_ index: SearchIndexInfo, keyKind: KeyKind) -> [String] {
        let fts = quoteIdentifier(index.name)
        var statements: [String] = []
        if keyKind != .integer {
            let keys = quoteIdentifier(keysName(index))
            statements.append("DELETE FROM \(keys)")
            statements.append("INSERT INTO \(keys)(key) SELECT key FROM \(quoteIdentifier(index.collection)) ORDER BY key")
        }
        statements.append("INSERT INTO \(fts)(\(fts)) VALUES ('rebuild')")
        return statements
    }

    /// The statement dropping the FTS5 table itself, which SQLite refuses when it
    /// can't open it (its own tables damaged).
    static func dropTable(_ index: SearchIndexInfo) -> String {
        "DROP TABLE IF EXISTS \(quoteIdentifier(index.name))"
    }

    /// The statements dropping the index's objects (whether or not they exist).
    static func drop(_ index: SearchIndexInfo) -> [String] {
        ["_insert", "_delete", "_update"].map { "DROP TRIGGER IF EXISTS \(quoteIdentifier(index.name + $0))" } + [
            dropTable(index),
            "DROP VIEW IF EXISTS \(quoteIdentifier(sourceName(index)))",
            "DROP TABLE IF EXISTS \(quoteIdentifier(keysName(index)))",
        ]
    }

    /// `key IN (<keys of the documents matching the bound FTS5 query>)`: two-valued,
    /// since a key is never NULL.
    static func match(_ index: SearchIndexInfo, keyKind: KeyKind?, query: String, documentKey: SQLFragment) -> SQLFragment {
        let fts = quoteIdentifier(index.name)
        let matching: SQLFragment = "SELECT rowid FROM \(fts) WHERE \(fts) MATCH " + .bound(.text(query))
        if keyKind ?? .integer == .integer {
            return "(" + documentKey + " IN (" + matching + "))"
        }
        return "(" + documentKey + " IN (SELECT key FROM \(quoteIdentifier(keysName(index))) WHERE id IN (" + matching + ")))"
    }

    /// The view the FTS5 table reads documents' text from (for `rebuild` and snippets).
    static func sourceName(_ index: SearchIndexInfo) -> String { index.name + "_source" }

    /// The table numbering string or UUID keys.
    static func keysName(_ index: SearchIndexInfo) -> String { index.name + "_keys" }

    /// The field's text when it is a string, else NULL (numbers, arrays, objects
    /// and missing fields aren't searched), read from `body` defensively: a
    /// damaged document reads as no text instead of failing the statement (so
    /// deleting or repairing it still works).
    static func text(of path: FieldPath, in body: String, collection: String) throws -> String {
        guard !path.components.isEmpty, let jsonPath = quoteJSONPath(path.components) else {
            throw DocStoreError.invalidQuery(
                collection: collection, field: path.description,
                reason: path.components.isEmpty ? "the document itself can't be searched, only its string fields"
                    : "SQLite 3.40's JSON paths can't name this field (a member name with a double quote, backslash, slash or control character, or a negative array position), so no search index can hold it")
        }
        return "CASE WHEN json_valid(\(body)) AND json_type(\(body), \(jsonPath)) = 'text' THEN json_extract(\(body), \(jsonPath)) END"
    }
}
