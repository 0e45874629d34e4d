/// The SQL text of a collection's fixed statements, built once per collection
/// value so the hot path only looks up GRDB's statement cache.
struct CollectionSQL: Sendable {
    let insert: String
    let insertGenerated: String
    let upsert: String
    let selectBody: String
    let table: String
    let exists: String
    let count: String
    let delete: String
    let deleteAll: String
    let selectAll: String
    let selectKeys: String
    let maxKey: String
    let replaceBody: String
    /// `delete` and `deleteAll` returning what they delete, for change observation.
    let deleteReturningBody: String
    let deleteAllReturning: String

    init(collection name: String) {
        let table = quoteIdentifier(name)
        insert = "INSERT INTO \(table) (key, body) VALUES (?, ?)"
        insertGenerated = "INSERT INTO \(table) (body) VALUES (?)"
        upsert = "INSERT INTO \(table) (key, body) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET body = excluded.body"
        selectBody = "SELECT body FROM \(table) WHERE key = ?"
        self.table = table
        exists = "SELECT 1 FROM \(table) WHERE key = ?"
        count = "SELECT count(*) FROM \(table)"
        delete = "DELETE FROM \(table) WHERE key = ?"
        deleteAll = "DELETE FROM \(table)"
        selectAll = "SELECT key, body FROM \(table) ORDER BY key"
        selectKeys = "SELECT key FROM \(table) ORDER BY key"
        maxKey = "SELECT max(key) FROM \(table)"
        replaceBody = "UPDATE \(table) SET body = ? WHERE key = ?"
        deleteReturningBody = "DELETE FROM \(table) WHERE key = ? RETURNING body"
        deleteAllReturning = "DELETE FROM \(table) RETURNING key, body"
    }
}

extension CollectionSQL {
    /// The largest number of keys one `get(_:)` statement binds.
    static let maximumKeysPerStatement = 512

    /// `SELECT … WHERE key IN (?, …)` for a number of placeholders rounded up to a
    /// power of two, so that GRDB's statement cache holds at most ten of them; the
    /// caller pads with a repeated key. (A bound JSON array would be one statement,
    /// but SQLite's JSON functions cut strings at NUL, which keys may contain.)
    func selectBodies(placeholders count: Int) -> String {
        let list = Array(repeating: "?", count: count).joined(separator: ",")
        return "SELECT key, body FROM \(table) WHERE key IN (\(list))"
    }

    static func placeholderCount(for keyCount: Int) -> Int {
        var count = 1
        while count < keyCount { count *= 2 }
        return min(count, maximumKeysPerStatement)
    }
}
