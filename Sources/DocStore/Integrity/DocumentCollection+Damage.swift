import GRDB

/// SQLite's message when a JSON function meets text that is not JSON.
let sqliteMalformedJSONMessage = "malformed JSON"

extension DocumentCollection {
    /// How many damaged keys a query error names at most.
    static var damagedKeysReported: Int { 500 }

    /// Runs `body`, which steps statements of this collection's queries, and turns
    /// SQLite's bare "malformed JSON" (a document written by another tool) into
    /// ``DocStoreError/damagedDocuments(collection:keys:)`` naming the damaged
    /// keys. The `json_valid` scan runs only after such a failure, so queries on
    /// well-formed collections cost nothing more.
    func diagnosingDamage<R>(in db: Database, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let failure as SQLiteFailure where failure.message.contains(sqliteMalformedJSONMessage) {
            throw try damageError(in: db) ?? failure
        } catch let error as DatabaseError where error.message?.contains(sqliteMalformedJSONMessage) == true {
            throw try damageError(in: db) ?? error
        }
    }

    /// The damaged-documents error for this collection, or nil when every body is
    /// valid JSON to SQLite (the malformed JSON then came from elsewhere).
    private func damageError(in db: Database) throws -> DocStoreError? {
        guard let info = try store.knownCollection(named: name, in: db) else { return nil }
        let statement = try RawStatement(db, sql: IntegritySQL.invalidBodyKeys(collection: name), cached: false)
        defer { statement.finish() }
        statement.bind(Int64(Self.damagedKeysReported), at: 1)
        var keys: [DocumentKey] = []
        while try statement.step() { keys.append(statement.key(at: 0, kind: info.keyKind)) }
        return keys.isEmpty ? nil : .damagedDocuments(collection: name, keys: keys)
    }
}
