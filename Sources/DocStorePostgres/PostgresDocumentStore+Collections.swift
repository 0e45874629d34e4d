import DocStore

extension PostgresDocumentStore {
    /// The store's collections and their key kinds, sorted by name, as the
    /// catalog records them now (another process may have created some).
    public func collections() async throws -> [CollectionInfo] {
        try await reloadCatalog()
        return catalog.withLock { catalog in
            catalog.map { CollectionInfo(name: $0.key, keyKind: $0.value) }.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        }
    }
}
