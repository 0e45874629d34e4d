@_spi(Backends) import DocStore

extension PostgresDocumentStore {
    /// The migration steps this store has run, in the order it ran them (see
    /// ``PostgresDocumentMigrator``); none for a store never migrated.
    public func appliedMigrations() async throws -> [AppliedMigration] {
        try await Self.appliedMigrations(in: .pool(client))
    }

    /// Records steps as run, after those recorded before, keeping their times:
    /// for a copy of a store (`docstore copy`), whose documents are already
    /// migrated, so that its app doesn't run the steps again on them. All or
    /// none; a name recorded already is an error.
    @_spi(Backends)
    public func recordAppliedMigrations(_ migrations: [AppliedMigration]) async throws {
        guard !migrations.isEmpty else { return }
        try await transaction { transaction in
            let session = transaction.session
            try await session.rows(PostgresStoreSQL.lockMigrations, [], collection: nil)
            let recorded = Set(try await Self.appliedMigrations(in: session).map(\.name))
            for migration in migrations {
                if recorded.contains(migration.name) {
                    throw DocStoreError.invalidMigration(name: migration.name, reason: "the store has already recorded this step")
                }
                try await session.rows(PostgresStoreSQL.recordMigration, [.text(migration.name), .text(migration.appliedAt)], collection: nil)
            }
        }
    }

    static func appliedMigrations(in session: PostgresSession) async throws -> [AppliedMigration] {
        try await session.rows(PostgresStoreSQL.appliedMigrations, [], collection: nil).map { row in
            let (name, appliedAt) = try row.decode((String, String).self)
            return AppliedMigration(name: name, appliedAt: appliedAt)
        }
    }
}

extension PostgresTransaction {
    /// The migration steps the store has run, as this transaction sees them.
    @_spi(Backends)
    public func appliedMigrations() async throws -> [AppliedMigration] {
        try await PostgresDocumentStore.appliedMigrations(in: session)
    }
}
