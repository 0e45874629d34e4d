import GRDB

/// One inconsistency between the catalog and the tables and indexes SQLite holds.
public struct CatalogProblem: Sendable, Hashable, CustomStringConvertible {
    /// The catalog table or SQLite object concerned (`docstore_collections`,
    /// `docstore_indexes`, or `sqlite_master` for an index the catalog lacks).
    public var table: String
    /// The row's name: a collection or an index.
    public var name: String
    /// What is wrong, and what to do about it.
    public var problem: String
    /// The collection whose ``DocumentStore/repair(collection:)`` fixes it, if one does.
    public var repairedBy: String?

    public var description: String { "\(table) \(DocumentKey.quoted(name)): \(problem)" }

    @_spi(Backends) public init(table: String, name: String, problem: String, repairedBy: String? = nil) {
        self.table = table
        self.name = name
        self.problem = problem
        self.repairedBy = repairedBy
    }
}

extension Catalog {
    /// Whether the table `name`, which exists, is shaped as DocStore makes a
    /// collection's: a key and a TEXT body, nothing else (a table with more
    /// columns holds more than documents, and dropping it would lose them).
    /// The key must be the primary key: without it, two rows may share a key,
    /// and a lookup by key shows one of them.
    static func isDocumentTable(_ name: String, in db: Database) throws -> Bool {
        let columns = try Row.fetchAll(db, sql: "SELECT name, upper(type), pk FROM pragma_table_info(?)", arguments: [name])
        let types = Dictionary(columns.map { (($0[0] as String?) ?? "", ($0[1] as String?) ?? "") }, uniquingKeysWith: { first, _ in first })
        let primaryKey = columns.filter { ($0[2] as Int64? ?? 0) > 0 }.map { ($0[0] as String?) ?? "" }
        return types.count == 2 && types["key"] != nil && types["body"] == "TEXT" && primaryKey == ["key"]
    }

    /// Triggers DocStore didn't make on a collection's table or on one of
    /// DocStore's own (field columns', search indexes', the catalog's): one
    /// runs inside every write of the collection and may change or delete
    /// documents of any collection, unseen by DocStore (helper-60: `AFTER
    /// INSERT ON teams … DELETE FROM people`), and `check` called such a store
    /// healthy. DocStore's own are the three of each recorded field columns and
    /// search index, on its collection; those of unrecorded ones are reported
    /// as orphans (``orphanObjects(in:collection:)``), not here.
    static func foreignTriggerProblems(in db: Database) throws -> [CatalogProblem] {
        var expected: Set<[String]> = []
        for table in [fieldColumnsTable, searchIndexesTable] where try db.tableExists(table) {
            for row in try Row.fetchAll(db, sql: "SELECT CAST(name AS TEXT), CAST(collection AS TEXT) FROM \(table)") {
                let (name, collection): (String, String) = (row[0] ?? "", row[1] ?? "")
                for suffix in ["_insert", "_update", "_delete"] { expected.insert([name + suffix, collection]) }
            }
        }
        let orphaned = Set(try orphanObjects(in: db).flatMap { $0.objects.map(\.name) })
        return try Row.fetchAll(db, sql: """
            SELECT CAST(t.name AS TEXT), CAST(t.tbl_name AS TEXT),
                   EXISTS (SELECT 1 FROM \(collectionsTable) c WHERE c.name = t.tbl_name)
            FROM sqlite_master t
            WHERE t.type = 'trigger' AND (t.tbl_name LIKE 'docstore\\_%' ESCAPE '\\'
                                          OR EXISTS (SELECT 1 FROM \(collectionsTable) c WHERE c.name = t.tbl_name))
            ORDER BY 1
            """).compactMap { row in
            let (name, table): (String, String) = (row[0] ?? "", row[1] ?? "")
            guard !expected.contains([name, table]), !orphaned.contains(name) else { return nil }
            let on = row[2] as Int64? == 1 ? "collection \(DocumentKey.quoted(table))" : "DocStore's table \(DocumentKey.quoted(table))"
            return CatalogProblem(table: "sqlite_master", name: name,
                                  problem: "a trigger DocStore didn't make, on \(on): it runs inside every write of the collection and can change documents of any collection behind DocStore's back; if it isn't yours, drop it with sqlite3 (DROP TRIGGER \(quoteIdentifier(name)))")
        }
    }

    /// Whether another program put an object of its own where the collection
    /// `name`'s table should be: a table not shaped as a collection's, or a
    /// view. Its rows are not documents: reading them as documents would show
    /// another table's, and writing would change or delete its rows.
    static func isReplacedByForeignObject(_ name: String, in db: Database) throws -> Bool {
        let type = try String.fetchOne(db, sql: "SELECT type FROM sqlite_master WHERE name = ? AND type IN ('table', 'view') ORDER BY type = 'table' DESC",
                                       arguments: [name])
        switch type {
        case nil: return false
        case "table": return try !isDocumentTable(name, in: db)
        default: return true
        }
    }

    /// Checks the catalog against the tables and indexes SQLite holds: every
    /// collection has its table and a known key kind; every index recorded for
    /// an existing collection exists on its table, unique exactly when recorded
    /// so; no `docstore_ix_*` index, and no search index's or field columns'
    /// object, exists that the catalog does not record. Reads names as text whatever their
    /// storage class, so a damaged row is reported, not trapped on.
    static func validationProblems(in db: Database) throws -> [CatalogProblem] {
        var problems: [CatalogProblem] = []
        for row in try Row.fetchAll(db, sql: """
            SELECT CAST(c.name AS TEXT), CAST(c.key_kind AS TEXT),
                   EXISTS (SELECT 1 FROM sqlite_master m WHERE m.type = 'table' AND m.name = c.name),
                   (SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND m.name = c.name COLLATE NOCASE)
            FROM \(collectionsTable) c ORDER BY 1
            """) {
            let name: String = row[0] ?? ""
            if row[2] as Int64? != 1 {
                if try isReplacedByForeignObject(name, in: db) {
                    // A view of that name: not missing, and not documents.
                    problems.append(CatalogProblem(table: collectionsTable, name: name, problem: BackendSupport.foreignTableProblem(name, tool: "sqlite3")))
                    continue
                } else if let table: String = row[3] {
                    // Not missing: SQLite's names ignore case, and dropping this
                    // one would drop that table, documents and all.
                    problems.append(CatalogProblem(table: collectionsTable, name: name,
                                                   problem: "the catalog's name differs only in case from its table \(DocumentKey.quoted(table)) (the row was changed outside DocStore); the documents are intact: set the row's name back to \(DocumentKey.quoted(table)) with sqlite3, and do not drop it"))
                } else {
                    problems.append(CatalogProblem(table: collectionsTable, name: name,
                                                   problem: "the collection's table is missing; drop the collection (.drop) to forget it"))
                }
            }
            if row[2] as Int64? == 1, try !isDocumentTable(name, in: db) {
                problems.append(CatalogProblem(table: collectionsTable, name: name, problem: BackendSupport.foreignTableProblem(name, tool: "sqlite3")))
                continue
            }
            if let kind = KeyKind(rawValue: row[1] ?? "") {
                // The table says which keys it was made for: a row changed to
                // another kind made every document look damaged (and .repair
                // would have moved them all).
                let declared = try String.fetchOne(db, sql: "SELECT upper(type) FROM pragma_table_info(?) WHERE name = 'key'", arguments: [name])
                let made: KeyKind? = switch declared {
                case "INTEGER": .integer
                case "TEXT": kind == .integer ? .string : kind
                default: nil
                }
                if row[2] as Int64? == 1, let made, made != kind {
                    problems.append(CatalogProblem(table: collectionsTable, name: name,
                                                   problem: "key_kind says \(kind.rawValue), but the table was made for \(made == .integer ? "integer" : "string or uuid") keys (its key column is \(declared ?? "")); the documents are intact: set key_kind back with sqlite3, and don't .repair meanwhile"))
                }
            } else {
                problems.append(CatalogProblem(table: collectionsTable, name: name,
                                               problem: "unknown key kind \(DocumentKey.quoted(row[1] ?? "NULL")) (integer, string or uuid expected)"))
            }
        }
        problems += try indexProblems(in: db)
        // A collection's table the catalog has lost: its documents are hidden
        // from every listing and copy, so say where they are.
        for table in try unrecordedTables(in: db) {
            problems.append(CatalogProblem(table: "sqlite_master", name: table,
                                           problem: "a table of documents (key, body) that the catalog does not record: its documents are hidden from DocStore; restore its docstore_collections row (name, key_kind) with sqlite3"))
        }
        // A search index's or field columns' objects whose catalog row is gone:
        // their triggers still run on every write.
        for orphan in try orphanObjects(in: db) {
            problems.append(CatalogProblem(table: "sqlite_master", name: orphan.name, problem: orphan.problem, repairedBy: orphan.collection))
        }
        problems += try foreignTriggerProblems(in: db)
        // Rows that the store's own reads would refuse (a blob name, fields that
        // are not DocStore's JSON): reported with the same words as those reads.
        func name(_ row: Row) -> String {
            let value = row[0] as DatabaseValue
            if case .string(let text) = value.storage { return text }
            return CatalogValue.describe(value)
        }
        for row in try Row.fetchAll(db, sql: "SELECT name, key_kind FROM \(collectionsTable) ORDER BY name") {
            do { _ = try collectionInfo(row, in: db) } catch let error as DocStoreError {
                guard case .damagedCatalog(_, _, _, let value, let reason) = error else { throw error }
                let reported = problems.contains { $0.table == collectionsTable && $0.name == name(row) }
                if !reported {
                    problems.append(CatalogProblem(table: collectionsTable, name: name(row), problem: "value \(value): \(reason)"))
                }
            }
        }
        for row in try Row.fetchAll(db, sql: "SELECT name, collection, fields, is_unique FROM \(indexesTable) ORDER BY name") {
            do { _ = try indexInfo(row, in: db) } catch let error as DocStoreError {
                guard case .damagedCatalog(_, _, _, let value, let reason) = error else { throw error }
                problems.append(CatalogProblem(table: indexesTable, name: name(row),
                                               problem: "value \(value): \(reason); drop the index and create it again"))
            }
        }
        return problems
    }

    /// The catalog's indexes against SQLite's, on every collection or on one:
    /// an index recorded but missing (a unique one then refuses nothing), one
    /// unique on one side only, and one of DocStore's the catalog lost.
    static func indexProblems(in db: Database, collection: String? = nil) throws -> [CatalogProblem] {
        var problems: [CatalogProblem] = []
        for row in try Row.fetchAll(db, sql: """
            SELECT CAST(i.name AS TEXT), CAST(i.collection AS TEXT)
            FROM \(indexesTable) i
            WHERE EXISTS (SELECT 1 FROM sqlite_master t WHERE t.type = 'table' AND t.name = i.collection)
              AND NOT EXISTS (SELECT 1 FROM sqlite_master m WHERE m.type = 'index' AND m.name = i.name AND m.tbl_name = i.collection)
              AND (?1 IS NULL OR i.collection = ?1)
            ORDER BY 1
            """, arguments: [collection]) {
            let collection: String = row[1] ?? ""
            problems.append(CatalogProblem(table: indexesTable, name: row[0] ?? "",
                                           problem: "recorded on collection \(DocumentKey.quoted(collection)), but SQLite has no such index on its table; drop the index and create it again"))
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT CAST(i.name AS TEXT), CAST(i.is_unique AS TEXT) FROM \(indexesTable) i
            JOIN sqlite_master m ON m.type = 'index' AND m.name = i.name AND m.tbl_name = i.collection
            WHERE (m.sql LIKE 'CREATE UNIQUE INDEX%') != (i.is_unique IS 1)
              AND (?1 IS NULL OR i.collection = ?1)
            ORDER BY 1
            """, arguments: [collection]) {
            let recorded: String = row[1] ?? "NULL"
            problems.append(CatalogProblem(table: indexesTable, name: row[0] ?? "",
                                           problem: "recorded with is_unique = \(recorded), but SQLite's index \(recorded == "1" ? "is not" : "is") unique; drop the index and create it again"))
        }
        for row in try Row.fetchAll(db, sql: """
            SELECT m.name, m.tbl_name FROM sqlite_master m
            WHERE m.type = 'index' AND m.name LIKE 'docstore\\_ix\\_%' ESCAPE '\\'
              AND NOT EXISTS (SELECT 1 FROM \(indexesTable) i WHERE i.name = m.name AND i.collection = m.tbl_name)
              AND (?1 IS NULL OR m.tbl_name = ?1)
            ORDER BY 1
            """, arguments: [collection]) {
            let table: String = row[1] ?? ""
            problems.append(CatalogProblem(table: "sqlite_master", name: row[0] ?? "",
                                           problem: "an index on \(DocumentKey.quoted(table)) that the catalog does not record (an orphan); it still slows writes"))
        }
        return problems
    }

    /// Tables of documents (a `key` and a `body`) that the catalog does not
    /// record: their documents are hidden from every listing and copy.
    static func unrecordedTables(in db: Database) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT m.name FROM sqlite_master m
            WHERE m.type = 'table' AND m.name NOT LIKE 'docstore\\_%' ESCAPE '\\' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
              AND m.name COLLATE NOCASE NOT IN (SELECT CAST(name AS TEXT) FROM \(collectionsTable) WHERE name IS NOT NULL)
              AND (SELECT count(*) FROM pragma_table_info(m.name) p WHERE p.name IN ('key', 'body')) = 2
            ORDER BY 1
            """)
    }

    /// SQLite's `PRAGMA integrity_check`: `["ok"]`, or its findings.
    static func integrityCheck(in db: Database) throws -> [String] {
        try findings(of: IntegritySQL.integrityCheck, in: db)
    }

    /// SQLite's integrity check of one table and its indexes: its findings,
    /// empty when they are sound.
    static func integrityCheck(in db: Database, table: String) throws -> [String] {
        try findings(of: IntegritySQL.integrityCheck(table: table), in: db).filter { $0 != "ok" }
    }

    /// The check's findings, one a line (SQLite puts a "*** in database main ***"
    /// header and one b-tree's findings in one row, a line each). On some damage
    /// the check itself stops with SQLITE_CORRUPT after its findings: that ends
    /// the list as one more finding instead of losing the others.
    private static func findings(of sql: String, in db: Database) throws -> [String] {
        var rows: [String] = []
        let cursor = try String?.fetchCursor(db, sql: sql)
        do {
            while let row = try cursor.next() { rows.append(row ?? "NULL") }
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode.primaryResultCode) {
            rows.append(error.message ?? "\(error)")
        }
        return rows.flatMap { $0.split(separator: "\n").map(String.init) }.filter { !$0.hasPrefix("*** in database") }
    }
}
