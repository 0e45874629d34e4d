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

extension PostgresCollection {
    /// Refuses a new collection whose name equals an existing one's as a Swift
    /// string but not in bytes (a composed "é" and "e" with a combining
    /// accent), as a file store does: PostgreSQL would make two tables, which
    /// every `String`-keyed map of collections — a copy's, a user's — takes
    /// for one. Read in the creating transaction, under the schema lock.
    func refuseOtherForm(in session: PostgresSession) async throws {
        for row in try await session.rows(PostgresStoreSQL.collections, [], collection: name) {
            let existing = try row.decode((String, String).self).0
            guard existing == name, !ExactText.same(existing, name) else { continue }
            throw DocStoreError.invalidCollectionName(
                name, reason: "the store already has a collection named \(DocumentKey.quotedForMessages(existing)), the same name written with other Unicode characters (\(ExactText.scalarList(existing)) there, \(ExactText.scalarList(name)) here); use that name, or another")
        }
    }
}
