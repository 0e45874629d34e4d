/// The fixed statements of a PostgreSQL store: its catalog and each collection's
/// table. A collection is one table, `key` (`bigint`, or `text COLLATE "C"` so
/// that string keys sort by Unicode scalars as on SQLite) and `body jsonb`.
@_spi(Backends)
public enum PostgresStoreSQL {
    /// The catalog: one row per collection and its key kind.
    public static let catalogTable = "docstore_collections"

    /// Creates the catalog when it is missing.
    public static let createCatalog = "CREATE TABLE IF NOT EXISTS \(catalogTable) (name text COLLATE \"C\" PRIMARY KEY, key_kind text NOT NULL)"

    /// A number that changes when a catalog row is added, deleted or written
    /// again (a row's `xmin` is the transaction that wrote it).
    public static let catalogVersion = """
        SELECT count(*) * 1000003 + coalesce(sum(hashtext(name || ':' || key_kind || ':' || xmin::text)), 0) FROM \(catalogTable)
        """

    /// Every collection and its key kind.
    public static let collections = "SELECT name, key_kind FROM \(catalogTable) ORDER BY name"

    /// Records a collection (`$1` name, `$2` key kind) unless another session did first.
    public static let recordCollection = "INSERT INTO \(catalogTable) (name, key_kind) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING"

    /// Removes a collection from the catalog (`$1` name).
    public static let forgetCollection = "DELETE FROM \(catalogTable) WHERE name = $1"

    /// Creates a collection's table.
    public static func createTable(_ collection: String, keyKind: KeyKind) -> String {
        let key = keyKind == .integer ? "bigint" : "text COLLATE \"C\""
        return "CREATE TABLE IF NOT EXISTS \(quoteIdentifier(collection)) (key \(key) PRIMARY KEY, body jsonb NOT NULL)"
    }

    /// Drops a collection's table.
    public static func dropTable(_ collection: String) -> String {
        "DROP TABLE IF EXISTS \(quoteIdentifier(collection))"
    }

    /// Inserts a document (`$1` key, `$2` JSON text); fails on a taken key.
    /// `alone`: the statement is its transaction's only one (see ``aloneMark``).
    public static func insert(_ collection: String, alone: Bool = false) -> String {
        insertRow(collection, alone: alone) + keyTypeCheck
    }

    private static func insertRow(_ collection: String, alone: Bool) -> String {
        alone
            ? "WITH \(aloneMark) INSERT INTO \(quoteIdentifier(collection)) (key, body) SELECT $1, CAST($2 AS jsonb) FROM docstore_alone"
            : "INSERT INTO \(quoteIdentifier(collection)) (key, body) VALUES ($1, CAST($2 AS jsonb))"
    }

    /// Ends a single-row write: a key bound as another type than the table's
    /// key column (a store whose catalog another session changed: the
    /// collection dropped and made anew with other keys) fails when the
    /// statement is parsed ("operator does not exist: text = bigint", SQLSTATE
    /// 42883), and the store reads its catalog again. The INSERT alone would
    /// take the integer 9 into a text column as "9", over a document stored
    /// under "9" when saving (helper-53).
    static let keyTypeCheck = " RETURNING key = $1"

    /// Fails when the collection's key column is not of `kind`'s type (SQLSTATE
    /// 42883, when parsed), reading no row: run once in a transaction before
    /// its first `COPY` into the table, which would take an integer key into a
    /// text column as its digits (see ``keyTypeCheck``).
    public static func keyColumnCheck(_ collection: String, keyKind: KeyKind) -> String {
        "SELECT FROM \(quoteIdentifier(collection)) WHERE key = CAST(NULL AS \(keyColumnType(keyKind))) AND false"
    }

    /// The common table expression that marks a single-row write sent outside
    /// a transaction: it sets `docstore.alone` for the statement's implicit
    /// transaction, and the live triggers then end the statement's notice as
    /// the transaction's last, with no commit mark to write, fire and delete
    /// at commit (about 12 µs of the server's time per write, a third of a
    /// one-row insert's). Only a statement that is its transaction's only one
    /// may carry it: a later statement's notices would be taken for another
    /// commit. The statement reads the expression's row, so it runs first.
    public static let aloneMark = "docstore_alone AS MATERIALIZED (SELECT set_config('docstore.alone', '1', true) AS flag)"

    /// The table name to hand postgres-nio's `copyFrom(table:)`, which writes
    /// `COPY "<name>"` with the name as given: the collection's quoted
    /// identifier without its outer quotes (inner quotes stay doubled).
    public static func copyTableName(_ collection: String) -> String {
        String(quoteIdentifier(collection).dropFirst().dropLast())
    }

    /// Inserts or replaces a document (`$1` key, `$2` JSON text). Of its two
    /// statement triggers (insert, update) only one sees the row, so `alone`
    /// still sends one notice.
    public static func save(_ collection: String, alone: Bool = false) -> String {
        insertRow(collection, alone: alone) + " ON CONFLICT (key) DO UPDATE SET body = excluded.body" + keyTypeCheck
    }

    /// Replaces an existing document (`$1` JSON text, `$2` key), returning its key.
    public static func replace(_ collection: String, alone: Bool = false) -> String {
        alone
            ? "WITH \(aloneMark) UPDATE \(quoteIdentifier(collection)) SET body = CAST($1 AS jsonb) FROM docstore_alone WHERE key = $2 RETURNING key"
            : "UPDATE \(quoteIdentifier(collection)) SET body = CAST($1 AS jsonb) WHERE key = $2 RETURNING key"
    }

    /// One document's body as JSON text (`$1` key).
    public static func get(_ collection: String) -> String {
        "SELECT body::text FROM \(quoteIdentifier(collection)) WHERE key = $1"
    }

    /// Deletes one document (`$1` key), returning its key.
    public static func delete(_ collection: String, alone: Bool = false) -> String {
        alone
            ? "WITH \(aloneMark) DELETE FROM \(quoteIdentifier(collection)) USING docstore_alone WHERE key = $1 RETURNING key"
            : "DELETE FROM \(quoteIdentifier(collection)) WHERE key = $1 RETURNING key"
    }

    // MARK: Indexes

    /// The index catalog: one row per DocStore index, its collection, fields
    /// (a JSON array of paths, each an array of member names and positions) and
    /// uniqueness. The index's name is `docstore_ix_<id>`.
    public static let indexTable = "docstore_indexes"

    /// Creates the index catalog when it is missing.
    public static let createIndexCatalog = "CREATE TABLE IF NOT EXISTS \(indexTable) (id bigserial PRIMARY KEY, name text COLLATE \"C\" UNIQUE NOT NULL, collection text COLLATE \"C\" NOT NULL, fields jsonb NOT NULL, is_unique boolean NOT NULL)"

    /// A collection's indexes (`$1` collection): name, fields as JSON text, uniqueness.
    public static let indexes = "SELECT name, fields::text, is_unique FROM \(indexTable) WHERE collection = $1 ORDER BY id"

    /// Records an index (`$1` collection, `$2` fields as JSON text, `$3` 1 when unique), returning its name.
    public static let recordIndex = "WITH n AS (SELECT nextval(pg_get_serial_sequence('\(indexTable)', 'id')) AS id) INSERT INTO \(indexTable) (id, name, collection, fields, is_unique) SELECT n.id, 'docstore_ix_' || n.id, $1, CAST($2 AS jsonb), $3 <> 0 FROM n RETURNING name"

    /// The collections with an index on the document itself (containment).
    public static let containmentIndexed = "SELECT DISTINCT collection FROM \(indexTable) WHERE fields = '[[]]'::jsonb"

    /// Every index's collection and fields (as JSON text).
    public static let indexedFields = "SELECT collection, fields::text FROM \(indexTable)"

    /// Records an index's new fields after a rename (`$1` name, `$2` fields as JSON text).
    public static let moveIndex = "UPDATE \(indexTable) SET fields = CAST($2 AS jsonb) WHERE name = $1"

    /// Forgets an index (`$1` name).
    public static let forgetIndex = "DELETE FROM \(indexTable) WHERE name = $1"

    /// Forgets a collection's indexes (`$1` collection).
    public static let forgetIndexes = "DELETE FROM \(indexTable) WHERE collection = $1"

    /// Drops a PostgreSQL index.
    public static func dropIndex(_ name: String) -> String {
        "DROP INDEX IF EXISTS \(quoteIdentifier(name))"
    }
}
