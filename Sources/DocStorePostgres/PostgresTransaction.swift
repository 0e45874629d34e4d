@_spi(Backends) import DocStore
import PostgresNIO
import Synchronization

/// One transaction of a ``PostgresDocumentStore``: collections from it read and
/// write on the transaction's connection. Only valid inside
/// ``PostgresDocumentStore/transaction(_:)``'s closure.
public final class PostgresTransaction: Sendable {
    let store: PostgresDocumentStore
    /// The transaction's connection (`COPY` runs on it directly).
    let connection: PostgresConnection
    /// Where the transaction's statements run: its connection.
    var session: PostgresSession { .transaction(connection) }
    /// Collections created or dropped in the transaction: the store's catalog
    /// learns them only when it commits.
    private let changes = Mutex<[ExactText: KeyKind?]>([:])
    /// Tables whose key column the transaction found of the kind it writes
    /// (``PostgresStoreSQL/keyColumnCheck(_:keyKind:)``), before a `COPY`.
    private let checkedKeyColumns = Mutex<Set<ExactText>>([])

    init(store: PostgresDocumentStore, connection: PostgresConnection) {
        self.store = store
        self.connection = connection
    }

    /// The collection of `Model` documents named `name`, in this transaction.
    public func collection<Model: Codable & Sendable & Identifiable>(
        _ type: Model.Type, named name: String
    ) -> PostgresCollection<Model> where Model.ID: DocumentKeyRepresentable {
        PostgresCollection(name: name, store: store, transaction: self, keyOf: { $0.id.documentKey })
    }

    /// An untyped collection of JSON documents, in this transaction.
    public func collection(named name: String) -> PostgresCollection<JSONValue> {
        PostgresCollection(name: name, store: store, transaction: self, keyOf: { BackendSupport.key(of: $0, kind: nil) }, keySource: .untypedId)
    }

    /// The collection of `Model` documents whose `id` is optional, in this
    /// transaction (a nil `id` gets a generated key).
    public func collection<Model: Codable & Sendable & Identifiable>(
        _ type: Model.Type, named name: String
    ) -> PostgresCollection<Model> where Model.ID: OptionalDocumentKeyRepresentable {
        PostgresCollection(name: name, store: store, transaction: self, keyOf: { $0.id.optionalDocumentKey },
                           keySource: .writingId(collection: name))
    }

    /// The collection of `Model` documents that have no `id`, in this transaction.
    public func collection<Model: Codable & Sendable>(_ type: Model.Type, named name: String) -> PostgresCollection<Model> {
        PostgresCollection(name: name, store: store, transaction: self, keyOf: { _ in nil }, keySource: .generated)
    }

    /// The key kind of a collection as this transaction sees it.
    func keyKind(of name: String) -> KeyKind?? {
        changes.withLock { $0[ExactText(name)] }
    }

    func created(_ name: String, kind: KeyKind) {
        changes.withLock { $0[ExactText(name)] = .some(kind) }
    }

    func dropped(_ name: String) {
        changes.withLock { $0[ExactText(name)] = .some(nil) }
    }

    /// Checks, once in the transaction, that `name`'s key column holds `kind`'s
    /// keys: `COPY` checks no type, and a store whose catalog is out of date
    /// would write integer keys into a text column as their digits.
    func checkKeyColumn(of name: String, kind: KeyKind) async throws {
        guard !checkedKeyColumns.withLock({ $0.contains(ExactText(name)) }) else { return }
        try await session.rows(PostgresStoreSQL.keyColumnCheck(name, keyKind: kind), [], collection: name)
        checkedKeyColumns.withLock { _ = $0.insert(ExactText(name)) }
    }

    /// Hands the transaction's catalog changes to the store, after `COMMIT`.
    func committed() {
        let changes = changes.withLock { $0 }
        store.catalog.withLock { catalog in
            for (name, kind) in changes { catalog[name] = kind }
        }
    }
}
