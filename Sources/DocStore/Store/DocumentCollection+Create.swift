extension DocumentCollection {
    /// Creates the collection, empty, with keys of `kind` when it doesn't exist;
    /// returns its key kind (the existing one's when it does). A copy of a store
    /// creates its empty collections this way, so that they keep their key kind.
    @discardableResult
    package func createIfMissing(keyKind kind: KeyKind) throws -> KeyKind {
        try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) { try store.ensureCollection(named: name, keyKind: kind, in: db).keyKind }
            }
        }
    }
}
