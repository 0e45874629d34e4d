/// The SQL text of a collection's fixed statements, built once per collection
/// value so the hot path only looks up GRDB's statement cache.
struct CollectionSQL: Sendable {
    let insert: String
    let insertGenerated: String
    let upsert: String
    let selectBody: String
    let selectBodies: String
    let exists: String
    let count: String
    let delete: String
    let deleteAll: String
    let selectAll: String
    let selectKeys: String
    let maxKey: String
    let replaceBody: String

    init(collection name: String) {
        let table = quoteIdentifier(name)
        insert = "INSERT INTO \(table) (key, body) VALUES (?, ?)"
        insertGenerated = "INSERT INTO \(table) (body) VALUES (?)"
        upsert = "INSERT INTO \(table) (key, body) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET body = excluded.body"
        selectBody = "SELECT body FROM \(table) WHERE key = ?"
        // One statement for many keys: the keys travel as one bound JSON array.
        selectBodies = "SELECT key, body FROM \(table) WHERE key IN (SELECT value FROM json_each(?))"
        exists = "SELECT 1 FROM \(table) WHERE key = ?"
        count = "SELECT count(*) FROM \(table)"
        delete = "DELETE FROM \(table) WHERE key = ?"
        deleteAll = "DELETE FROM \(table)"
        selectAll = "SELECT key, body FROM \(table) ORDER BY key"
        selectKeys = "SELECT key FROM \(table) ORDER BY key"
        maxKey = "SELECT max(key) FROM \(table)"
        replaceBody = "UPDATE \(table) SET body = ? WHERE key = ?"
    }
}
