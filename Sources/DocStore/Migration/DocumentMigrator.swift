/// Versioned migrations for a store's documents, in the spirit of GRDB's
/// `DatabaseMigrator`: named steps, registered in order, each run once, in its
/// own transaction, and recorded in the store's catalog.
///
///     var migrator = DocumentMigrator()
///     migrator.registerMigration("nickname") { migration in
///         try migration.collection(Player.self).rename("nickName", to: \.nickname)
///     }
///     try migrator.migrate(store)        // runs what the store hasn't run yet
///
/// Register steps once and never change a step that has shipped: a store records
/// the names it has run, not what they did. A step that throws leaves the store
/// as it was before the step (documents, indexes and catalog), and ``migrate(_:upTo:)``
/// rethrows its error; the steps before it stay applied.
public struct DocumentMigrator {
    private var steps: [(name: String, body: (Migration) throws -> Void)] = []

    /// An empty migrator.
    public init() {}

    /// Registers a step after those registered before.
    ///
    /// - Parameters:
    ///   - name: The step's name, recorded in the store; unique in this migrator.
    ///   - migrate: The step. Its ``Migration`` gives the collections to change
    ///     (``Migration/collection(named:)`` and its typed forms) and the step's
    ///     transaction for any other read or write.
    public mutating func registerMigration(_ name: String, migrate: @escaping (Migration) throws -> Void) {
        steps.append((name: name, body: migrate))
    }

    /// The names of the registered steps, in order.
    public var registeredMigrations: [String] { steps.map(\.name) }

    /// The steps the store has run, in the order it ran them.
    public func appliedMigrations(in store: DocumentStore) throws -> [AppliedMigration] {
        try store.appliedMigrations()
    }

    /// The registered steps the store has not run yet, in order.
    ///
    /// - Throws: ``DocStoreError/unknownMigrations(path:names:)`` when the store
    ///   has run a step this migrator does not register.
    public func pendingMigrations(in store: DocumentStore) throws -> [String] {
        try checkRegistration()
        let applied = try appliedMigrations(in: store)
        try refuseUnknown(applied, in: store)
        let names = Set(applied.map(\.name))
        return steps.map(\.name).filter { !names.contains($0) }
    }

    /// Runs the registered steps the store has not run yet, in order, each in its
    /// own transaction, up to and including `target` (all of them when nil).
    /// Another process migrating the same store at the same time is harmless:
    /// each step checks, inside its transaction, that it has not run yet.
    ///
    /// - Returns: The steps run now, with what their field changes did.
    /// - Throws: ``DocStoreError/unknownMigrations(path:names:)`` (before running
    ///   anything) when the store has run a step this migrator does not register;
    ///   ``DocStoreError/invalidMigration(name:reason:)`` for two steps with one
    ///   name, an empty name, or an unknown `target`; the error of a failed step,
    ///   after rolling that step back whole.
    @discardableResult
    public func migrate(_ store: DocumentStore, upTo target: String? = nil) throws -> [MigrationResult] {
        try checkRegistration()
        let steps = self.steps.prefix(try MigrationRules.stepCount(upTo: target, of: registeredMigrations))
        let pending = Set(try pendingMigrations(in: store))
        var results: [MigrationResult] = []
        for step in steps where pending.contains(step.name) {
            let result = try store.write { transaction -> MigrationResult? in
                // Another process may have migrated since the check above.
                let applied = try store.readAccess { db in try Catalog.appliedMigrations(in: db) }
                try refuseUnknown(applied, in: store)
                if applied.contains(where: { $0.name == step.name }) { return nil }
                let migration = Migration(name: step.name, transaction: transaction)
                try step.body(migration)
                try store.writeAccess { db in try Catalog.recordMigration(named: step.name, in: db) }
                return MigrationResult(name: step.name, changes: migration.changes)
            }
            if let result { results.append(result) }
        }
        return results
    }

    /// Whether the store has run every registered step.
    public func hasCompletedMigrations(in store: DocumentStore) throws -> Bool {
        try pendingMigrations(in: store).isEmpty
    }

    private func checkRegistration() throws {
        try MigrationRules.checkRegistration(registeredMigrations)
    }

    private func refuseUnknown(_ applied: [AppliedMigration], in store: DocumentStore) throws {
        try MigrationRules.refuseUnknown(applied, registered: registeredMigrations, path: store.path ?? ":memory:")
    }
}

/// One step that ``DocumentMigrator/migrate(_:upTo:)`` ran, and what it changed.
public struct MigrationResult: Sendable, Hashable {
    /// The step's name.
    public var name: String
    /// The field changes it made, in order.
    public var changes: [FieldChangeSummary]

    /// The result of the step `name`, which made `changes`.
    public init(name: String, changes: [FieldChangeSummary]) {
        self.name = name
        self.changes = changes
    }
}
