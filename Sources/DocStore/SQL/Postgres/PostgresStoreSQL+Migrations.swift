@_spi(Backends)
extension PostgresStoreSQL {
    /// The migrations a PostgreSQL store has run, as a file store's catalog
    /// records them: name, order, and when (ISO 8601 in UTC).
    public static let migrationsTable = "docstore_migrations"

    /// Creates the migrations table when it is missing.
    public static let createMigrations = """
        CREATE TABLE IF NOT EXISTS \(migrationsTable) (name text COLLATE "C" PRIMARY KEY, position bigint NOT NULL, applied_at text NOT NULL)
        """

    /// Every recorded migration, `name, applied_at`, in the order they ran.
    public static let appliedMigrations = "SELECT name, applied_at FROM \(migrationsTable) ORDER BY position, name"

    /// Records migration `$1` after every one recorded before, applied at `$2`
    /// (now, in the file store's format, when `$2` is NULL).
    public static let recordMigration = """
        INSERT INTO \(migrationsTable) (name, position, applied_at) \
        SELECT $1, coalesce(max(position), 0) + 1, coalesce($2, to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) \
        FROM \(migrationsTable)
        """

    /// Whether every table of DocStore's catalog exists (one boolean).
    public static var catalogInstalled: String {
        let tables = [catalogTable, indexTable, PostgresSearchSQL.catalogTable, valuesTable, migrationsTable]
        return "SELECT " + tables.map { "to_regclass('\($0)') IS NOT NULL" }.joined(separator: " AND ")
    }

    /// Waits for, then holds until its transaction ends, the lock under which
    /// migration steps run: two processes migrating one store run each step once.
    public static let lockMigrations = "SELECT pg_advisory_xact_lock(hashtextextended('docstore.migrations', 0))"
}
