@_spi(Backends) import DocStore

/// Versioned migrations for a PostgreSQL store's documents: the same named
/// steps, run once each in order, in their own transaction, and recorded in
/// the store, as ``DocStore/DocumentMigrator`` does for a file store.
///
///     var migrator = PostgresDocumentMigrator()
///     migrator.registerMigration("nickname") { migration in
///         try await migration.collection(Player.self, named: "players").rename("nickName", to: \.nickname)
///     }
///     try await migrator.migrate(store)      // runs what the store hasn't run yet
///
/// The steps are async (each operation is a statement sent to the server), so a
/// migrator is written for one backend; the names a store records are the same
/// on both, and `docstore copy` carries them, so a store moved from a file to
/// PostgreSQL (or back) doesn't run its steps again. Never change a step that
/// has shipped: a store records the names it has run, not what they did. A step
/// that throws leaves the store as it was before the step, and ``migrate(_:upTo:)``
/// rethrows its error; the steps before it stay applied.
public struct PostgresDocumentMigrator: Sendable {
    private var steps: [(name: String, body: @Sendable (PostgresMigration) async throws -> Void)] = []

    /// An empty migrator.
    public init() {}

    /// Registers a step after those registered before.
    ///
    /// - Parameters:
    ///   - name: The step's name, recorded in the store; unique in this migrator.
    ///   - migrate: The step. Its ``PostgresMigration`` gives the collections to
    ///     change and the step's transaction for any other read or write.
    public mutating func registerMigration(_ name: String, migrate: @escaping @Sendable (PostgresMigration) async throws -> Void) {
        steps.append((name: name, body: migrate))
    }

    /// The names of the registered steps, in order.
    public var registeredMigrations: [String] { steps.map(\.name) }

    /// The steps the store has run, in the order it ran them.
    public func appliedMigrations(in store: PostgresDocumentStore) async throws -> [AppliedMigration] {
        try await store.appliedMigrations()
    }

    /// The registered steps the store has not run yet, in order.
    ///
    /// - Throws: ``DocStore/DocStoreError/unknownMigrations(path:names:)`` when the
    ///   store has run a step this migrator does not register.
    public func pendingMigrations(in store: PostgresDocumentStore) async throws -> [String] {
        try checkRegistration()
        let applied = try await store.appliedMigrations()
        try refuseUnknown(applied, in: store)
        let names = Set(applied.map(\.name))
        return steps.map(\.name).filter { !names.contains($0) }
    }

    /// Runs the registered steps the store has not run yet, in order, each in its
    /// own transaction, up to and including `target` (all of them when nil).
    /// Another process migrating the same store at the same time waits for it:
    /// each step runs under a lock and checks, inside its transaction, that it
    /// has not run yet.
    ///
    /// - Returns: The steps run now, with what their field changes did.
    /// - Throws: ``DocStore/DocStoreError/unknownMigrations(path:names:)`` (before
    ///   running anything) when the store has run a step this migrator does not
    ///   register; ``DocStore/DocStoreError/invalidMigration(name:reason:)`` for two
    ///   steps with one name, an empty name, or an unknown `target`; the error of a
    ///   failed step, after rolling that step back whole.
    @discardableResult
    public func migrate(_ store: PostgresDocumentStore, upTo target: String? = nil) async throws -> [MigrationResult] {
        try checkRegistration()
        let steps = self.steps.prefix(try MigrationRules.stepCount(upTo: target, of: registeredMigrations))
        let pending = Set(try await pendingMigrations(in: store))
        var results: [MigrationResult] = []
        for step in steps where pending.contains(step.name) {
            let result = try await store.transaction { transaction -> MigrationResult? in
                let session = transaction.session
                try await session.rows(PostgresStoreSQL.lockMigrations, [], collection: nil)
                // Another process may have migrated since the check above.
                let applied = try await PostgresDocumentStore.appliedMigrations(in: session)
                try refuseUnknown(applied, in: store)
                if applied.contains(where: { $0.name == step.name }) { return nil }
                let migration = PostgresMigration(name: step.name, transaction: transaction)
                try await step.body(migration)
                try await session.rows(PostgresStoreSQL.recordMigration, [.text(step.name), .null], collection: nil)
                return MigrationResult(name: step.name, changes: migration.changes)
            }
            if let result { results.append(result) }
        }
        return results
    }

    /// Whether the store has run every registered step.
    public func hasCompletedMigrations(in store: PostgresDocumentStore) async throws -> Bool {
        try await pendingMigrations(in: store).isEmpty
    }

    private func checkRegistration() throws {
        try MigrationRules.checkRegistration(registeredMigrations)
    }

    private func refuseUnknown(_ applied: [AppliedMigration], in store: PostgresDocumentStore) throws {
        try MigrationRules.refuseUnknown(applied, registered: registeredMigrations, path: store.label)
    }
}
