/// The key/value area of a PostgreSQL store: one table beside the collections,
/// `key text COLLATE "C"` and `value jsonb`, as a DocStore file's values table.
extension PostgresStoreSQL {
    /// The area's table.
    public static let valuesTable = "docstore_values"

    /// Creates the area's table when it is missing.
    public static let createValues = "CREATE TABLE IF NOT EXISTS \(valuesTable) (key text COLLATE \"C\" PRIMARY KEY, value jsonb NOT NULL)"

    /// Stores `$2` (JSON text) under `$1`, replacing what was there.
    public static let setValue = "INSERT INTO \(valuesTable) (key, value) VALUES ($1, CAST($2 AS jsonb)) ON CONFLICT (key) DO UPDATE SET value = excluded.value"

    /// The value under `$1`, as JSON text.
    public static let getValue = "SELECT value::text FROM \(valuesTable) WHERE key = $1"

    /// Removes the value under `$1`, returning its key.
    public static let removeValue = "DELETE FROM \(valuesTable) WHERE key = $1 RETURNING key"

    /// Every key, sorted.
    public static let valueKeys = "SELECT key FROM \(valuesTable) ORDER BY key"
}
