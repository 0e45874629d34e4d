/// The fixed statements of a PostgreSQL store: its catalog and each collection's
/// table. A collection is one table, `key` (`bigint`, or `text COLLATE "C"` so
/// that string keys sort by Unicode scalars as on SQLite) and `body jsonb`.
@_spi(Backends)
public enum PostgresStoreSQL {
    /// The catalog: one row per collection and its key kind.
    public static let catalogTable = "docstore_collections"

    /// Creates the catalog when it is missing.
    public static let createCatalog = "CREATE TABLE IF NOT EXISTS \(catalogTable) (name text COLLATE \"C\" PRIMARY KEY, key_kind text NOT NULL)"

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
    public static func insert(_ collection: String) -> String {
        "INSERT INTO \(quoteIdentifier(collection)) (key, body) VALUES ($1, CAST($2 AS jsonb))"
    }

    /// Inserts or replaces a document (`$1` key, `$2` JSON text).
    public static func save(_ collection: String) -> String {
        "INSERT INTO \(quoteIdentifier(collection)) (key, body) VALUES ($1, CAST($2 AS jsonb)) ON CONFLICT (key) DO UPDATE SET body = excluded.body"
    }

    /// Replaces an existing document (`$1` JSON text, `$2` key), returning its key.
    public static func replace(_ collection: String) -> String {
        "UPDATE \(quoteIdentifier(collection)) SET body = CAST($1 AS jsonb) WHERE key = $2 RETURNING key"
    }

    /// One document's body as JSON text (`$1` key).
    public static func get(_ collection: String) -> String {
        "SELECT body::text FROM \(quoteIdentifier(collection)) WHERE key = $1"
    }

    /// Deletes one document (`$1` key), returning its key.
    public static func delete(_ collection: String) -> String {
        "DELETE FROM \(quoteIdentifier(collection)) WHERE key = $1 RETURNING key"
    }
}
