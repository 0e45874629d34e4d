@_spi(Backends) import DocStore
import DocStorePostgres

/// `.import` into a PostgreSQL database: the whole file in one transaction,
/// held open while the REPL's thread reads the file and hands it batches
/// (``HeldTransaction``); each batch in a savepoint, so that a bad document
/// undoes its batch only and the import can name it (or skip it).
struct PostgresImportDestination: ImportDestination {
    let store: PostgresDocumentStore

    func collectionExists(_ collection: String) throws -> Bool {
        let store = store
        return try PostgresBackend.wait { try await store.collections().contains { $0.name == collection } }
    }

    func write(_ collection: String, _ body: (any ImportTarget) throws -> Void) throws {
        try PostgresBackend.inHeldTransaction(of: store) { held in
            try body(PostgresImportTarget(held: held, collection: collection))
        }
    }
}

extension PostgresBackend {
    /// Runs `body` with one transaction of `store` held open across its calls
    /// (``HeldTransaction``), committed when `body` returns and rolled back when
    /// it throws (a server error as a ``PostgresFailure`` naming what failed).
    static func inHeldTransaction(of store: PostgresDocumentStore,
                                  _ body: (HeldTransaction<PostgresTransaction>) throws -> Void) throws {
        let held = HeldTransaction<PostgresTransaction> { work in
            try await store.transaction { try await work($0) }
        }
        do {
            try body(held)
            try held.commit()
        } catch let error as PostgresStoreError {
            held.rollBack()
            throw PostgresFailure(error)
        } catch {
            held.rollBack()
            throw error
        }
    }
}

/// A collection being imported into, in the import's held transaction.
final class PostgresImportTarget: ImportTarget {
    let held: HeldTransaction<PostgresTransaction>
    let collection: String
    /// The next generated key, carried from batch to batch.
    private var nextKey: Int64?

    init(held: HeldTransaction<PostgresTransaction>, collection: String) {
        self.held = held
        self.collection = collection
    }

    func insertAllOrNone(values: [JSONValue], texts: [DocumentCollection<JSONValue>.JSONObjectText]) throws {
        let collection = collection
        var documents = values
        for text in texts {
            documents.append(try BackendSupport.parse(text.text, collection: collection, key: text.key))
        }
        let start = nextKey
        do {
            nextKey = try held.run { [documents] transaction in
                let target = transaction.collection(named: collection)
                return try await transaction.savepoint {
                    var keys = GeneratedKeys(collection: target, next: start)
                    var keyed: [JSONValue] = []
                    keyed.reserveCapacity(documents.count)
                    for document in documents { keyed.append(try await keys.keyed(document)) }
                    try await target.insert(contentsOf: keyed)
                    return keys.next
                }
            }
        } catch let error as PostgresStoreError {
            throw PostgresFailure(error)
        }
    }
}
