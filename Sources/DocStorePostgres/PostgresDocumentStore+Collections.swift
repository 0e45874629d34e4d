@_spi(Backends) import DocStore

extension PostgresDocumentStore {
    /// The store's collections and their key kinds, sorted by name, as the
    /// catalog records them now (another process may have created some).
    public func collections() async throws -> [CollectionInfo] {
        try await reloadCatalog()
        return catalog.withLock { catalog in
            catalog.map { CollectionInfo(name: $0.key.text, keyKind: $0.value) }.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        }
    }

    /// A number that changes when any session creates or drops a collection
    /// (or makes one anew): one read of the catalog, for callers that cache
    /// what the store holds (the REPL's names and samples).
    @_spi(Backends) public func catalogVersion() async throws -> Int64 {
        let rows = try await PostgresSession.pool(client).rows(PostgresStoreSQL.catalogVersion, [], collection: nil)
        return try rows.first?.decode(Int64.self) ?? 0
    }
}

extension PostgresDocumentStore {
    /// The collection of `Model` documents whose `id` is optional (`var id:
    /// Int64?`): a model whose `id` is nil gets a generated integer key, written
    /// into the stored document as its `id`, as on SQLite. `insert(&model)`,
    /// `inserted(_:)` and `save(&model)` also write it back into your model:
    ///
    ///     var player = Player(id: nil, name: "Arthur")
    ///     try await players.insert(&player)      // player.id == 1
    public func collection<Model: Codable & Sendable & Identifiable>(
        _ type: Model.Type, named name: String
    ) -> PostgresCollection<Model> where Model.ID: OptionalDocumentKeyRepresentable {
        PostgresCollection(name: name, store: self, transaction: nil, keyOf: { $0.id.optionalDocumentKey },
                           keySource: .writingId(collection: name))
    }

    /// The collection of `Model` documents that have no `id`: `insert` generates
    /// an integer key and returns it, as on SQLite.
    public func collection<Model: Codable & Sendable>(_ type: Model.Type, named name: String) -> PostgresCollection<Model> {
        PostgresCollection(name: name, store: self, transaction: nil, keyOf: { _ in nil }, keySource: .generated)
    }
}
