@_spi(Backends) import DocStore
import Synchronization

/// The handle a ``PostgresDocumentMigrator`` step receives: the collections it
/// changes, and its transaction. Everything done through it commits with the
/// step, or not at all.
public final class PostgresMigration: Sendable {
    /// The step's name.
    public let name: String
    /// The step's transaction, for reads and writes beyond field changes
    /// (inserting documents, creating indexes, reading the key/value area).
    public let transaction: PostgresTransaction
    private let recorded = Mutex<[FieldChangeSummary]>([])

    init(name: String, transaction: PostgresTransaction) {
        self.name = name
        self.transaction = transaction
    }

    /// The field changes made so far, for the step's ``DocStore/MigrationResult``.
    var changes: [FieldChangeSummary] { recorded.withLock { $0 } }

    func record(_ change: FieldChangeSummary) { recorded.withLock { $0.append(change) } }

    /// The collection of `Model` values keyed by their `id`, to change.
    public func collection<Model: Codable & Sendable & Identifiable>(
        _ type: Model.Type, named name: String
    ) -> PostgresMigrationCollection<Model> where Model.ID: DocumentKeyRepresentable {
        PostgresMigrationCollection(documents: transaction.collection(type, named: name), migration: self)
    }

    /// The collection of `Model` values whose `id` is optional, to change.
    public func collection<Model: Codable & Sendable & Identifiable>(
        _ type: Model.Type, named name: String
    ) -> PostgresMigrationCollection<Model> where Model.ID: OptionalDocumentKeyRepresentable {
        PostgresMigrationCollection(documents: transaction.collection(type, named: name), migration: self)
    }

    /// The collection of `Model` values with generated keys, to change.
    public func collection<Model: Codable & Sendable>(_ type: Model.Type, named name: String) -> PostgresMigrationCollection<Model> {
        PostgresMigrationCollection(documents: transaction.collection(type, named: name), migration: self)
    }

    /// The untyped collection named `name`, to change: paths as strings or
    /// ``DocStore/FieldPath``s.
    public func collection(named name: String) -> PostgresMigrationCollection<JSONValue> {
        PostgresMigrationCollection(documents: transaction.collection(named: name), migration: self)
    }
}

/// A collection inside a migration step: the field changes of
/// ``PostgresCollection`` under the short names of a file store's
/// ``DocStore/MigrationCollection``, with typed forms on `@Document` models,
/// each recorded in the step's result.
///
///     migrator.registerMigration("v2") { migration in
///         let players = migration.collection(Player.self, named: "players")
///         try await players.rename("nickName", to: \.nickname)
///         try await players.setDefault(\.active, true)
///         try await players.convert(\.birthYear) { (text: String) in Int(text) ?? 0 }
///     }
public struct PostgresMigrationCollection<Model: Codable & Sendable>: Sendable {
    /// The collection, in the step's transaction.
    public let documents: PostgresCollection<Model>
    let migration: PostgresMigration

    private func recorded(_ summary: FieldChangeSummary) -> FieldChangeSummary {
        migration.record(summary)
        return summary
    }

    /// Renames a field in every document that has it; indexes on it follow it
    /// (see ``PostgresCollection/renameField(_:to:)``).
    @discardableResult
    public func rename(_ old: FieldPath, to new: FieldPath) async throws -> FieldChangeSummary {
        recorded(try await documents.renameField(old, to: new))
    }

    /// Renames a top-level member.
    @discardableResult
    public func rename(_ old: String, to new: String) async throws -> FieldChangeSummary {
        try await rename(FieldPath(old), to: FieldPath(new))
    }

    /// Copies a field in every document that has it.
    @discardableResult
    public func copy(_ source: FieldPath, to target: FieldPath) async throws -> FieldChangeSummary {
        recorded(try await documents.copyField(source, to: target))
    }

    /// Copies a top-level member.
    @discardableResult
    public func copy(_ source: String, to target: String) async throws -> FieldChangeSummary {
        try await copy(FieldPath(source), to: FieldPath(target))
    }

    /// Removes a field from every document; indexes on it are dropped.
    @discardableResult
    public func remove(_ path: FieldPath) async throws -> FieldChangeSummary {
        recorded(try await documents.removeField(path))
    }

    /// Removes a top-level member.
    @discardableResult
    public func remove(_ name: String) async throws -> FieldChangeSummary {
        try await remove(FieldPath(name))
    }

    /// Sets a field where it is missing or null.
    @discardableResult
    public func setDefault(_ path: FieldPath, _ value: JSONValue) async throws -> FieldChangeSummary {
        recorded(try await documents.setDefault(path, to: value))
    }

    /// Converts a field's values with a Swift closure, streamed in batches (see
    /// ``PostgresCollection/convertField(_:from:_:)``).
    @discardableResult
    public func convert<Old: Decodable, New: Encodable>(
        _ path: FieldPath, from oldType: Old.Type = Old.self, _ transform: (Old) throws -> New
    ) async throws -> FieldChangeSummary {
        recorded(try await documents.convertField(path, from: oldType, transform))
    }
}

extension PostgresMigrationCollection where Model: QueryableDocument {
    /// Renames a field the model still declares under its old name.
    @discardableResult
    public func rename<Old, New>(_ old: KeyPath<Model.Fields, DocumentField<Old>>,
                                 to new: KeyPath<Model.Fields, DocumentField<New>>) async throws -> FieldChangeSummary {
        try await rename(Self.path(old), to: Self.path(new))
    }

    /// Renames a member the model no longer declares to one of its fields.
    @discardableResult
    public func rename<New>(_ old: String, to new: KeyPath<Model.Fields, DocumentField<New>>) async throws -> FieldChangeSummary {
        try await rename(FieldPath(old), to: Self.path(new))
    }

    /// Copies a member, declared or not, to one of the model's fields.
    @discardableResult
    public func copy<New>(_ source: String, to target: KeyPath<Model.Fields, DocumentField<New>>) async throws -> FieldChangeSummary {
        try await copy(FieldPath(source), to: Self.path(target))
    }

    /// Removes a field the model declares.
    @discardableResult
    public func remove<Value>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) async throws -> FieldChangeSummary {
        try await remove(Self.path(field))
    }

    /// Sets one of the model's fields to `value` where it is missing or null.
    @discardableResult
    public func setDefault<Value: Encodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>, _ value: Value) async throws -> FieldChangeSummary {
        let path = Self.path(field)
        return try await setDefault(path, try BackendSupport.fieldValue(value, at: path, collection: documents.name))
    }

    /// Converts one of the model's fields from its stored type (`Old`, as the
    /// closure's parameter says) to the model's type for it.
    @discardableResult
    public func convert<Old: Decodable, New: Encodable>(
        _ field: KeyPath<Model.Fields, DocumentField<New>>, _ transform: (Old) throws -> New
    ) async throws -> FieldChangeSummary {
        try await convert(Self.path(field), from: Old.self, transform)
    }

    private static func path<Value>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) -> FieldPath {
        Model.Fields(_path: .root)[keyPath: field].fieldPath
    }
}
