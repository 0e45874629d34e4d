@_spi(Backends) import DocStore

extension PostgresDocumentStore {
    /// Installs the live triggers' functions when they are missing or of
    /// another version, and adds the triggers to every collection table that
    /// lacks them (a store made before live queries existed): a process
    /// writing to an old store must not leave observers unaware. One
    /// transaction, serialized between processes opening the store at once;
    /// nothing is written when all is in place.
    func installLiveTriggers() async throws {
        let session = PostgresSession.pool(client)
        let version = try await session.rows(PostgresStoreSQL.installedLiveTriggersVersion, [], collection: nil)
            .first?.decode(String?.self)
        let bare = try await session.rows(PostgresStoreSQL.collectionsWithoutLiveTriggers, [], collection: nil)
        guard version != PostgresStoreSQL.liveTriggersVersion || !bare.isEmpty else { return }
        try await transaction { transaction in
            let session = transaction.session
            try await session.rows(PostgresStoreSQL.lockLiveTriggers, [], collection: nil)
            // While this waited, another process may have installed the functions.
            // The version is read through the catalog cache, which an advisory
            // lock doesn't refresh (a table lock does): without this, the stale
            // cache said "not installed", and replacing the catalog's trigger
            // then deadlocked against that process's first writes.
            try await session.rows(PostgresStoreSQL.refreshCatalogCache, [], collection: nil)
            let version = try await session.rows(PostgresStoreSQL.installedLiveTriggersVersion, [], collection: nil)
                .first?.decode(String?.self)
            if version != PostgresStoreSQL.liveTriggersVersion {
                let schema = try await session.rows(PostgresStoreSQL.currentSchema, [], collection: nil).first?.decode(String.self) ?? "public"
                for statement in PostgresStoreSQL.createLiveFunctions(schema: schema) { try await session.rows(statement, [], collection: nil) }
            }
            for row in try await session.rows(PostgresStoreSQL.collectionsWithoutLiveTriggers, [], collection: nil) {
                let name = try row.decode(String.self)
                for statement in PostgresStoreSQL.createLiveTriggers(name) { try await session.rows(statement, [], collection: name) }
            }
        }
    }
}
