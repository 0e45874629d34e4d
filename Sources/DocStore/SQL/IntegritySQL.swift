/// The SQL of DocStore's integrity checks and repairs of a collection's documents
/// (the catalog's own checks are in `Catalog+Validation.swift`).
enum IntegritySQL {
    /// The keys of the documents SQLite's JSON functions can't read, in key
    /// order, at most `?` of them. Only run after a query failed with SQLite's
    /// "malformed JSON", so that well-formed collections never pay for it.
    static func invalidBodyKeys(collection: String) -> String {
        "SELECT key FROM \(quoteIdentifier(collection)) WHERE json_valid(body) = 0 ORDER BY key LIMIT ?"
    }

    /// Every row with the storage class of its key, for the full check (which
    /// validates each body with DocStore's own parser).
    static func rowsWithKeyType(collection: String) -> String {
        "SELECT key, body, typeof(key) FROM \(quoteIdentifier(collection)) ORDER BY key"
    }

    /// Deletes one row by its key exactly as stored (bound as read).
    static func deleteRow(collection: String) -> String {
        "DELETE FROM \(quoteIdentifier(collection)) WHERE key = ?"
    }

    /// Every entry of the key/value area (``KeyValueArea``), keys as text.
    static let valueRows = "SELECT CAST(key AS TEXT), body FROM \(Catalog.valuesTable) ORDER BY key"

    /// SQLite's own check of the whole file: one row "ok", or one row per problem.
    static let integrityCheck = "PRAGMA integrity_check"
}
