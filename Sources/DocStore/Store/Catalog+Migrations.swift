import GRDB

/// One migration a store has run, as its catalog records it.
public struct AppliedMigration: Sendable, Hashable {
    /// The migration's name, as registered.
    public var name: String
    /// When it committed: ISO 8601 in UTC (`2026-11-23T10:15:02.123Z`).
    public var appliedAt: String

    /// A record of a step that ran at `appliedAt`.
    public init(name: String, appliedAt: String) {
        self.name = name
        self.appliedAt = appliedAt
    }
}

extension Catalog {
    /// The migrations a store has run, in the order it ran them. Created by the
    /// first migration, so stores without migrations (and DocStores that predate
    /// them) never see it.
    static let migrationsTable = "docstore_migrations"

    /// Creates the migrations table when it does not exist yet.
    static func installMigrations(in db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(migrationsTable) (
                name TEXT PRIMARY KEY NOT NULL,
                position INTEGER NOT NULL,
                applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            ) WITHOUT ROWID
            """)
    }

    /// The migrations the store has run, in order; none when it never ran one.
    static func appliedMigrations(in db: Database) throws -> [AppliedMigration] {
        guard try db.tableExists(migrationsTable) else { return [] }
        return try Row.fetchAll(db, sql: "SELECT name, applied_at FROM \(migrationsTable) ORDER BY position, name").map { row in
            let rowName = CatalogValue.rowName(row)
            return AppliedMigration(
                name: try CatalogValue(row, 0, table: migrationsTable, rowName: rowName, db: db).text(),
                appliedAt: try CatalogValue(row, 1, table: migrationsTable, rowName: rowName, db: db).text())
        }
    }

    /// Records that the migration `name` ran, after every one recorded before.
    /// `appliedAt` keeps a copied record's time; nil records now.
    static func recordMigration(named name: String, appliedAt: String? = nil, in db: Database) throws {
        try installMigrations(in: db)
        try db.execute(sql: """
            INSERT INTO \(migrationsTable) (name, position, applied_at)
            VALUES (?, (SELECT coalesce(max(position), 0) + 1 FROM \(migrationsTable)),
                    coalesce(?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))
            """, arguments: [name, appliedAt])
    }

    /// Rewrites the fields of a recorded index (its SQLite index is re-created by
    /// the caller).
    static func updateIndexFields(named name: String, to fields: [FieldPath], in db: Database) throws {
        try db.execute(sql: "UPDATE \(indexesTable) SET fields = ? WHERE name = ?", arguments: [encodeFields(fields), name])
    }
}
