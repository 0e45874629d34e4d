/// The statements of a check of a PostgreSQL store: what another tool may have
/// changed behind DocStore's back (a catalog row, a table, a document).
extension PostgresStoreSQL {
    /// Each catalog row with its table's key column type (`bigint`, `text`;
    /// NULL when the table is missing).
    /// (Not another program's table in the collection's place: its key column
    /// says nothing of the collection, and a mismatch made the store unopenable.)
    public static let catalogWithTables = """
        SELECT c.name, c.key_kind, CASE WHEN \(documentTableTest("to_regclass(quote_ident(c.name))")) THEN
            (SELECT format_type(a.atttypid, NULL) FROM pg_attribute a
             WHERE a.attrelid = to_regclass(quote_ident(c.name)) AND a.attname = 'key' AND NOT a.attisdropped) END
        FROM \(catalogTable) c ORDER BY c.name
        """

    /// Tables of documents (a `key` and a jsonb `body`) in the store's schema
    /// that the catalog does not record: their documents are hidden.
    public static let unrecordedTables = """
        SELECT t.relname::text FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE t.relkind = 'r' AND n.nspname = current_schema() AND t.relname::text NOT LIKE 'docstore\\_%'
          AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attname = 'key' AND NOT a.attisdropped)
          AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attname = 'body' AND a.atttypid = 'jsonb'::regtype AND NOT a.attisdropped)
          AND t.relname::text NOT IN (SELECT name FROM \(catalogTable))
        ORDER BY 1
        """

    /// Each recorded index of an existing collection: name, collection,
    /// uniqueness, and whether its btree and (for a unique one) its unique
    /// index exist. Nothing when the index catalog was never made.
    public static let indexesWithBuilt = """
        SELECT i.name, i.collection, i.is_unique, to_regclass(quote_ident(i.name)) IS NOT NULL,
               to_regclass(quote_ident(i.name || '_unique')) IS NOT NULL
        FROM \(indexTable) i WHERE EXISTS (SELECT 1 FROM \(catalogTable) c WHERE c.name = i.collection) ORDER BY i.id
        """

    /// Indexes named as DocStore names them that the index catalog doesn't
    /// record (a `_unique` one counts only beside a unique index): name, table,
    /// and whether it is unique (it then refuses writes).
    public static let unrecordedIndexes = """
        SELECT x.relname::text, t.relname::text, ix.indisunique FROM pg_index ix
        JOIN pg_class x ON x.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
        JOIN pg_namespace n ON n.oid = x.relnamespace
        WHERE n.nspname = current_schema() AND x.relname::text LIKE 'docstore\\_ix\\_%'
          AND NOT EXISTS (SELECT 1 FROM \(indexTable) i
                          WHERE i.name = x.relname::text OR (i.is_unique AND i.name || '_unique' = x.relname::text))
        ORDER BY 1
        """

    /// Indexes named as DocStore names a search index's
    /// (`docstore_search_<id>_<field>`) whose search index the search catalog
    /// doesn't record: name, table. They still slow every write. Run only when
    /// the search catalog exists (``hasSearchCatalog``).
    public static let unrecordedSearchIndexes = """
        SELECT x.relname::text, t.relname::text FROM pg_index ix
        JOIN pg_class x ON x.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
        JOIN pg_namespace n ON n.oid = x.relnamespace
        WHERE n.nspname = current_schema() AND x.relname::text ~ '^docstore_search_[0-9]+_[0-9]+$'
          AND NOT EXISTS (SELECT 1 FROM \(PostgresSearchSQL.catalogTable) s
                          WHERE left(x.relname::text, length(s.name) + 1) = s.name || '_')
        ORDER BY 1
        """

    /// Whether the search-index catalog exists.
    public static let hasSearchCatalog = "SELECT to_regclass('\(PostgresSearchSQL.catalogTable)') IS NOT NULL"

    /// Whether the index catalog exists.
    public static let hasIndexCatalog = "SELECT to_regclass('\(indexTable)') IS NOT NULL"

    /// Whether a table of the name `$1` exists (as an unqualified name would find it).
    public static let tableExists = "SELECT to_regclass(quote_ident($1)) IS NOT NULL"

    /// Whether the table `$1`, when there is one, is shaped as DocStore makes
    /// a collection's: one another program made in its place is not.
    public static let isDocumentTable = "SELECT to_regclass(quote_ident($1)) IS NULL OR " + documentTableTest("to_regclass(quote_ident($1))")

    /// The collections whose table another program replaced with one of its
    /// own: name.
    public static let foreignTables = """
        SELECT c.name FROM \(catalogTable) c
        WHERE to_regclass(quote_ident(c.name)) IS NOT NULL AND NOT \(documentTableTest("to_regclass(quote_ident(c.name))"))
        ORDER BY 1
        """

    /// Whether the relation `relation` (a regclass expression) is an ordinary
    /// table with a primary key `key` and a jsonb body and no other column: not a view, not
    /// another program's table (triggers added to one broke its writes, and
    /// dropping one with more columns lost them).
    static func documentTableTest(_ relation: String) -> String {
        "(coalesce((SELECT r.relkind = 'r' FROM pg_class r WHERE r.oid = \(relation)), false)"
            + " AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = \(relation) AND a.attname = 'key' AND NOT a.attisdropped)"
            + " AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = \(relation) AND a.attname = 'body' AND a.atttypid = 'jsonb'::regtype AND NOT a.attisdropped)"
            + " AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = \(relation) AND a.attnum > 0 AND NOT a.attisdropped"
            + " AND a.attname NOT IN ('key', 'body'))"
            // The key is the primary key: without it two rows may share a key.
            + " AND EXISTS (SELECT 1 FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]"
            + " WHERE i.indrelid = \(relation) AND i.indisprimary AND i.indnkeyatts = 1 AND a.attname = 'key'))"
    }

    /// The table's key column type a collection of `kind` keys is made with.
    public static func keyColumnType(_ kind: KeyKind) -> String {
        kind == .integer ? "bigint" : "text"
    }

    /// A collection's documents DocStore can't read as its own: a body that is
    /// not a JSON object, or whose `"id"` is not its key (one spelling the key
    /// another way, `5.0` or a lower-case UUID, is), or a UUID key not spelled
    /// as DocStore stores it. Rows: the key as text, the body's JSON type, the
    /// `"id"` as JSON text (NULL when it is not the fault), whether the key is
    /// the fault, and (`withBodies`) the body as text; in key order, at most `limit`.
    public static func damagedDocuments(_ collection: String, keyKind: KeyKind, withBodies: Bool, limit: Int?) -> String {
        let wrongId = wrongIdCondition(keyKind: keyKind), wrongKey = wrongKeyCondition(keyKind: keyKind)
        let table = quoteIdentifier(collection)
        // In the key column's order (`key` alone would sort the text of the
        // first output column: 1, 10, 100, 2).
        return "SELECT key::text, jsonb_typeof(body), CASE WHEN \(wrongId) THEN (body -> 'id')::text END, \(wrongKey)"
            + (withBodies ? ", body::text" : "")
            + " FROM \(table) WHERE \(damagedCondition(keyKind: keyKind)) ORDER BY \(table).key"
            + (limit.map { " LIMIT \($0)" } ?? "")
    }

    /// How many of a collection's documents ``damagedDocuments(_:keyKind:withBodies:limit:)`` finds.
    public static func countDamaged(_ collection: String, keyKind: KeyKind) -> String {
        "SELECT count(*) FROM \(quoteIdentifier(collection)) WHERE \(damagedCondition(keyKind: keyKind))"
    }

    /// A body that is an object whose `"id"` is not its key.
    private static func wrongIdCondition(keyKind: KeyKind) -> String {
        let otherId = switch keyKind {
        // A CASE: PostgreSQL may evaluate an OR's sides in any order, and a string can't be cast.
        case .integer: "CASE WHEN jsonb_typeof(body -> 'id') = 'number' THEN (body -> 'id')::numeric <> key ELSE true END"
        case .string: "jsonb_typeof(body -> 'id') <> 'string' OR (body ->> 'id') COLLATE \"C\" <> key"
        case .uuid: "jsonb_typeof(body -> 'id') <> 'string' OR lower(body ->> 'id') <> lower(key)"
        }
        return "(jsonb_typeof(body) = 'object' AND body ? 'id' AND (\(otherId)))"
    }

    /// A UUID key is stored as `uuidString` spells it (upper case): another
    /// spelling is found by no read by key.
    private static func wrongKeyCondition(keyKind: KeyKind) -> String {
        keyKind == .uuid ? "key !~ '^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$'" : "false"
    }

    private static func damagedCondition(keyKind: KeyKind) -> String {
        "jsonb_typeof(body) <> 'object' OR \(wrongIdCondition(keyKind: keyKind)) OR \(wrongKeyCondition(keyKind: keyKind))"
    }

    /// Deletes the rows whose keys, as text, are the strings of the JSON array
    /// bound to `$1` (damaged documents moved aside, their keys perhaps not in
    /// DocStore's form), in one statement; its one row is how many it deleted.
    public static func deleteStoredKeys(_ collection: String, keyKind: KeyKind) -> String {
        let keys = "SELECT jsonb_array_elements_text(CAST($1 AS jsonb))"
        let matched = keyKind == .integer ? "key IN (SELECT CAST(k AS bigint) FROM (\(keys)) AS stored(k))" : "key IN (\(keys))"
        return "WITH gone AS (DELETE FROM \(quoteIdentifier(collection)) WHERE \(matched) RETURNING 1) SELECT count(*) FROM gone"
    }

    /// The number of a collection's documents.
    public static func countAll(_ collection: String) -> String {
        "SELECT count(*) FROM \(quoteIdentifier(collection))"
    }
}
