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
        // The body's "id", which must be the key, read only from valid JSON
        // (json_extract fails the statement on text that isn't).
        let id = quoteJSONPath([.key("id")])!
        return "SELECT key, body, typeof(key), CASE WHEN json_valid(body) THEN json_type(body, \(id)) END, "
            + "CASE WHEN json_valid(body) THEN json_extract(body, \(id)) END FROM \(quoteIdentifier(collection)) ORDER BY key"
    }

    /// Every row in key order, from the key bound to `?` on (inclusive) when
    /// `from`: a salvage's reading, restarted past each damaged page.
    static func salvageRows(collection: String, from: Bool) -> String {
        "SELECT key, body FROM \(quoteIdentifier(collection))\(from ? " WHERE key >= ?" : "") ORDER BY key"
    }

    /// Seeks to the first key at or after `?`: whether a salvage can read on from there.
    static func salvageProbe(collection: String) -> String {
        "SELECT key FROM \(quoteIdentifier(collection)) WHERE key >= ? ORDER BY key LIMIT 1"
    }

    /// The keys below `?`, descending: a salvage reads back from a readable
    /// key to the damaged page before it.
    static func salvageKeysBefore(collection: String) -> String {
        "SELECT key FROM \(quoteIdentifier(collection)) WHERE key < ? ORDER BY key DESC"
    }

    /// Deletes one row by its key exactly as stored (bound as read).
    static func deleteRow(collection: String) -> String {
        "DELETE FROM \(quoteIdentifier(collection)) WHERE key = ?"
    }

    /// Every entry of the key/value area (``KeyValueArea``), keys as text.
    static let valueRows = "SELECT CAST(key AS TEXT), body FROM \(Catalog.valuesTable) ORDER BY key"

    /// SQLite's own check of the whole file: one row "ok", or one row per problem.
    static let integrityCheck = "PRAGMA integrity_check"

    /// The same check limited to one table and its indexes (SQLite 3.33+).
    static func integrityCheck(table: String) -> String {
        "PRAGMA integrity_check(\(quoteIdentifier(table)))"
    }
}
