@_spi(Backends) import DocStore

/// The names a PostgreSQL store accepts for collections, which become table names.
enum PostgresCollectionName {
    /// PostgreSQL cuts identifiers at 63 bytes: longer names would silently meet.
    static let maximumBytes = 63

    static func validate(_ name: String) throws {
        let reason: String? =
            if name.isEmpty { "a collection needs a name" }
            else if name.utf8.contains(0) { "a name can't contain NUL" }
            else if name.utf8.count > maximumBytes { "PostgreSQL table names hold at most \(maximumBytes) bytes of UTF-8; this one has \(name.utf8.count)" }
            else if name.lowercased().hasPrefix("docstore_") || name.lowercased().hasPrefix("pg_") { "names starting with docstore_ or pg_ are reserved" }
            else { nil }
        if let reason { throw DocStoreError.invalidCollectionName(name, reason: reason) }
    }
}

extension PostgresDocumentStore {
    /// Throws ``DocStore/DocStoreError/invalidCollectionName(_:reason:)`` when
    /// the store can't have a collection of that name (63 bytes at most, no
    /// NUL, not `docstore_…` or `pg_…`): for a copy, before it writes anything.
    @_spi(Backends) public static func checkCollectionName(_ name: String) throws {
        try PostgresCollectionName.validate(name)
    }
}
