import GRDB

extension DocumentStore {
    /// The migration steps this store has run, in the order it ran them (see
    /// ``DocumentMigrator``); none for a store never migrated.
    public func appliedMigrations() throws -> [AppliedMigration] {
        try access(collection: nil) {
            try readAccess { db in try Catalog.appliedMigrations(in: db) }
        }
    }

    /// Records steps as run, after those recorded before, keeping their times:
    /// for a copy of a store (`docstore copy`), whose documents are already
    /// migrated, so that its app doesn't run the steps again on them. All or
    /// none; a name recorded already is an error.
    @_spi(Backends)
    public func recordAppliedMigrations(_ migrations: [AppliedMigration]) throws {
        guard !migrations.isEmpty else { return }
        try write { _ in
            try writeAccess { db in
                let recorded = Set(try Catalog.appliedMigrations(in: db).map(\.name))
                for migration in migrations {
                    if recorded.contains(migration.name) {
                        throw DocStoreError.invalidMigration(name: migration.name, reason: "the store has already recorded this step")
                    }
                    try Catalog.recordMigration(named: migration.name, appliedAt: migration.appliedAt, in: db)
                }
            }
        }
    }
}
