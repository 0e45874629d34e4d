/// The handle a ``DocumentStore/write(_:)`` or ``DocumentStore/read(_:)`` block
/// receives. Collections taken from it run inside that block's transaction.
public struct StoreTransaction {
    let store: DocumentStore

    /// The collection of `Model` values keyed by their `id`, in this transaction.
    public func collection<Model: Codable & Identifiable>(
        _ type: Model.Type, named name: String? = nil
    ) -> DocumentCollection<Model> where Model.ID: DocumentKeyRepresentable {
        store.collection(type, named: name)
    }

    /// The collection of `Model` values whose `id` is optional (`var id: Int64?`),
    /// in this transaction: a nil `id` gets a generated key.
    public func collection<Model: Codable & Identifiable>(
        _ type: Model.Type, named name: String? = nil
    ) -> DocumentCollection<Model> where Model.ID: OptionalDocumentKeyRepresentable {
        store.collection(type, named: name)
    }

    /// The collection of `Model` values with generated keys, in this transaction.
    public func collection<Model: Codable>(_ type: Model.Type, named name: String? = nil) -> DocumentCollection<Model> {
        store.collection(type, named: name)
    }

    /// The untyped collection named `name`, in this transaction.
    public func collection(named name: String) -> DocumentCollection<JSONValue> {
        store.collection(named: name)
    }

    /// The store's key/value area, in this transaction.
    public var values: KeyValueArea { store.values }
}

/// A transaction belongs to the thread that runs its block.
@available(*, unavailable)
extension StoreTransaction: Sendable {}
