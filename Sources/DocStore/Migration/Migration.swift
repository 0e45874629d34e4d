/// The handle a ``DocumentMigrator`` step receives: the collections it changes,
/// and its transaction. Everything done through it commits with the step, or not
/// at all.
public final class Migration {
    /// The step's name.
    public let name: String
    /// The step's transaction, for reads and writes beyond field changes
    /// (inserting documents, creating indexes, reading the key/value area).
    public let transaction: StoreTransaction
    /// The field changes made so far, for the step's ``MigrationResult``.
    var changes: [FieldChangeSummary] = []

    init(name: String, transaction: StoreTransaction) {
        self.name = name
        self.transaction = transaction
    }

    /// The collection of `Model` values keyed by their `id`, to change.
    public func collection<Model: Codable & Identifiable>(
        _ type: Model.Type, named name: String? = nil
    ) -> MigrationCollection<Model> where Model.ID: DocumentKeyRepresentable {
        MigrationCollection(documents: transaction.collection(type, named: name), migration: self)
    }

    /// The collection of `Model` values whose `id` is optional, to change.
    public func collection<Model: Codable & Identifiable>(
        _ type: Model.Type, named name: String? = nil
    ) -> MigrationCollection<Model> where Model.ID: OptionalDocumentKeyRepresentable {
        MigrationCollection(documents: transaction.collection(type, named: name), migration: self)
    }

    /// The collection of `Model` values with generated keys, to change.
    public func collection<Model: Codable>(_ type: Model.Type, named name: String? = nil) -> MigrationCollection<Model> {
        MigrationCollection(documents: transaction.collection(type, named: name), migration: self)
    }

    /// The untyped collection named `name`, to change: paths as strings or
    /// ``FieldPath``s.
    public func collection(named name: String) -> MigrationCollection<JSONValue> {
        MigrationCollection(documents: transaction.collection(named: name), migration: self)
    }
}

/// A step did its work on the thread that runs it.
@available(*, unavailable)
extension Migration: Sendable {}

/// A collection inside a migration step: the field changes of
/// ``DocumentCollection`` (``DocumentCollection/renameField(_:to:)`` and the
/// others) under short names, with typed forms on `@Document` models, each
/// recorded in the step's ``MigrationResult``.
///
///     migrator.registerMigration("v2") { migration in
///         let players = migration.collection(Player.self)
///         try players.rename("nickName", to: \.nickname)       // the old name is gone from the model
///         try players.setDefault(\.active, true)
///         try players.convert(\.birthYear) { (text: String) in Int(text) ?? 0 }
///     }
///
/// A string names a top-level member (`"nickName"`); a ``FieldPath`` any path.
public struct MigrationCollection<Model: Codable> {
    /// The collection, in the step's transaction.
    public let documents: DocumentCollection<Model>
    let migration: Migration

    @discardableResult
    private func recorded(_ change: () throws -> FieldChangeSummary) throws -> FieldChangeSummary {
        let summary = try change()
        migration.changes.append(summary)
        return summary
    }

    /// Renames a field in every document that has it; indexes on it follow it
    /// (see ``DocumentCollection/renameField(_:to:)``).
    @discardableResult
    public func rename(_ old: FieldPath, to new: FieldPath) throws -> FieldChangeSummary {
        try recorded { try documents.renameField(old, to: new) }
    }

    /// Renames a top-level member.
    @discardableResult
    public func rename(_ old: String, to new: String) throws -> FieldChangeSummary {
        try rename(FieldPath(old), to: FieldPath(new))
    }

    /// Copies a field in every document that has it (see ``DocumentCollection/copyField(_:to:)``).
    @discardableResult
    public func copy(_ source: FieldPath, to target: FieldPath) throws -> FieldChangeSummary {
        try recorded { try documents.copyField(source, to: target) }
    }

    /// Copies a top-level member.
    @discardableResult
    public func copy(_ source: String, to target: String) throws -> FieldChangeSummary {
        try copy(FieldPath(source), to: FieldPath(target))
    }

    /// Removes a field from every document; indexes on it are dropped (see
    /// ``DocumentCollection/removeField(_:)``).
    @discardableResult
    public func remove(_ path: FieldPath) throws -> FieldChangeSummary {
        try recorded { try documents.removeField(path) }
    }

    /// Removes a top-level member.
    @discardableResult
    public func remove(_ name: String) throws -> FieldChangeSummary {
        try remove(FieldPath(name))
    }

    /// Sets a field where it is missing or null (see ``DocumentCollection/setDefault(_:to:)``).
    @discardableResult
    public func setDefault(_ path: FieldPath, _ value: JSONValue) throws -> FieldChangeSummary {
        try recorded { try documents.setDefault(path, to: value) }
    }

    /// Converts a field's values with a Swift closure, streamed in batches (see
    /// ``DocumentCollection/convertField(_:from:_:)``).
    @discardableResult
    public func convert<Old: Decodable, New: Encodable>(
        _ path: FieldPath, from oldType: Old.Type = Old.self, _ transform: (Old) throws -> New
    ) throws -> FieldChangeSummary {
        try recorded { try documents.convertField(path, from: oldType, transform) }
    }
}

extension MigrationCollection where Model: QueryableDocument {
    /// Renames a field the model still declares under its old name (a model
    /// frozen for the step).
    @discardableResult
    public func rename<Old, New>(_ old: KeyPath<Model.Fields, DocumentField<Old>>,
                                 to new: KeyPath<Model.Fields, DocumentField<New>>) throws -> FieldChangeSummary {
        try rename(Self.path(old), to: Self.path(new))
    }

    /// Renames a member the model no longer declares to one of its fields.
    @discardableResult
    public func rename<New>(_ old: String, to new: KeyPath<Model.Fields, DocumentField<New>>) throws -> FieldChangeSummary {
        try rename(FieldPath(old), to: Self.path(new))
    }

    /// Copies a member, declared or not, to one of the model's fields.
    @discardableResult
    public func copy<New>(_ source: String, to target: KeyPath<Model.Fields, DocumentField<New>>) throws -> FieldChangeSummary {
        try copy(FieldPath(source), to: Self.path(target))
    }

    /// Copies one of the model's fields to another.
    @discardableResult
    public func copy<Old, New>(_ source: KeyPath<Model.Fields, DocumentField<Old>>,
                               to target: KeyPath<Model.Fields, DocumentField<New>>) throws -> FieldChangeSummary {
        try copy(Self.path(source), to: Self.path(target))
    }

    /// Removes a field the model declares (a model frozen for the step).
    @discardableResult
    public func remove<Value>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) throws -> FieldChangeSummary {
        try remove(Self.path(field))
    }

    /// Sets one of the model's fields to `value` where it is missing or null.
    @discardableResult
    public func setDefault<Value: Encodable>(_ field: KeyPath<Model.Fields, DocumentField<Value>>, _ value: Value) throws -> FieldChangeSummary {
        let path = Self.path(field)
        switch QueryValue.encode(value, for: path) {
        case .success(let json): return try setDefault(path, json)
        case .failure(let problem):
            throw problem.error(collection: documents.name)
        }
    }

    /// Converts one of the model's fields from its stored type (`Old`, as the
    /// closure's parameter says) to the model's type for it.
    @discardableResult
    public func convert<Old: Decodable, New: Encodable>(
        _ field: KeyPath<Model.Fields, DocumentField<New>>, _ transform: (Old) throws -> New
    ) throws -> FieldChangeSummary {
        try convert(Self.path(field), from: Old.self, transform)
    }

    private static func path<Value>(_ field: KeyPath<Model.Fields, DocumentField<Value>>) -> FieldPath {
        Model.Fields(_path: .root)[keyPath: field].fieldPath
    }
}
