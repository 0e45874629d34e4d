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

    /// The damaged-documents error for this collection or, when all its bodies
    /// are valid JSON to SQLite, for the first other collection with damaged
    /// documents (a subquery reads it); nil when there is none (the malformed
    /// JSON then came from elsewhere, and the caller rethrows SQLite's error).
    private func damageError(in db: Database) throws -> DocStoreError? {
        var collections = try Catalog.collections(in: db)
        if let own = collections.firstIndex(where: { $0.name == name }) {
            collections.insert(collections.remove(at: own), at: 0)
        }
        for info in collections {
            // A collection that can't be scanned (its table is missing) can't be
            // the one that stopped the query.
            let keys = (try? invalidBodyKeys(of: info, in: db)) ?? []
            if !keys.isEmpty { return .damagedDocuments(collection: info.name, keys: keys) }
        }
        return nil
    }

    /// The first keys of `info`'s documents that SQLite's JSON functions can't read.
    private func invalidBodyKeys(of info: CollectionInfo, in db: Database) throws -> [DocumentKey] {
        let statement = try RawStatement(db, sql: IntegritySQL.invalidBodyKeys(collection: info.name), cached: false)
        defer { statement.finish() }
        statement.bind(Int64(Self.damagedKeysReported), at: 1)
        var keys: [DocumentKey] = []
        while try statement.step() { keys.append(statement.key(at: 0, kind: info.keyKind)) }
        return keys
    }
}
