@_spi(Backends) import DocStore

/// Models with an optional `id` (`var id: Int64?`, GRDB's auto-increment
/// idiom), as on SQLite: a model whose `id` is nil gets a generated key, written
/// into the stored document as its `id`, and into your model by these methods.
extension PostgresCollection where Model: Identifiable, Model.ID: OptionalDocumentKeyRepresentable {
    /// Inserts a model and sets its `id` to the generated key when it was nil.
    /// Returns the key. A model whose `id` is set is inserted under it.
    ///
    ///     var player = Player(id: nil, name: "Arthur")
    ///     try await players.insert(&player)      // player.id == 1
    ///
    /// - Throws: what `insert(_:)` throws; `model` is unchanged then.
    @discardableResult
    public func insert(_ model: inout Model) async throws -> DocumentKey {
        let inserted = try await insertOne(model)
        model = inserted.model
        return inserted.key
    }

    /// Inserts a model and returns it as stored: with its generated key as `id`
    /// when its `id` was nil.
    public func inserted(_ model: Model) async throws -> Model {
        try await insertOne(model).model
    }

    /// Inserts models in one transaction, all of them or none, and sets the `id`
    /// of each whose `id` was nil. Returns their keys in order.
    ///
    /// - Throws: what `insert(contentsOf:)` throws; `models` is unchanged then.
    @discardableResult
    public func insert(contentsOf models: inout [Model]) async throws -> [DocumentKey] {
        let inserted = try await insertAll(models)
        models = inserted.stored
        return inserted.keys
    }

    /// Inserts models in one transaction, all of them or none, and returns them
    /// as stored: each with its generated key as `id` when its `id` was nil.
    public func inserted(contentsOf models: [Model]) async throws -> [Model] {
        try await insertAll(models).stored
    }

    /// Replaces the document stored under the model's `id`, or inserts it; a
    /// model whose `id` is nil is inserted with a generated key, which is then
    /// set as its `id`.
    public func save(_ model: inout Model) async throws {
        if model.id.optionalDocumentKey == nil {
            try await insert(&model)
        } else {
            try await save(model)
        }
    }
}
