// A repository layer in the shape apps commonly write over their store: one
// protocol with save/fetch/update/delete/reset, and an implementation over
// DocStore's async API. Callers (view models, server handlers) await it from any
// actor; the SQLite work runs on the store's own threads.
import DocStore
import Foundation

/// A model a ``Repository`` stores: a `@Document` model with a key, plus the
/// fields callers may sort by, named at run time ("lastName" from a settings
/// screen, a query string, a table header).
protocol RepositoryModel: QueryableDocument, Identifiable, Sendable where ID: DocumentKeyRepresentable & Sendable {
    /// The sortable fields by run-time name, each mapped to its typed field
    /// (`fields.lastName.ascending`), so a renamed property fails to compile here
    /// rather than sorting by nothing at run time.
    static var sortableFields: [String: SortKey] { get }
}

/// A sort order named at run time: `Sorted(key: "lastName", ascending: true)`.
struct Sorted: Sendable, Equatable {
    var key: String
    var ascending: Bool

    init(key: String, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }
}

/// A filter on a model's typed fields: `{ $0.teamId == 1 && $0.number > 10 }`.
typealias Filter<Model: QueryableDocument> = @Sendable (Model.Fields) -> DocumentCondition

/// What a repository refuses, with messages an app can show.
enum RepositoryError: Error, LocalizedError, Equatable {
    /// The sort key names no sortable field of the model.
    case unknownSortKey(String, model: String, known: [String])

    var errorDescription: String? {
        switch self {
        case let .unknownSortKey(key, model, known):
            "cannot sort \(model) by \"\(key)\": it has no such sortable field (known: \(known.joined(separator: ", ")))"
        }
    }
}

/// The usual repository protocol: what the app's code calls, whatever stores it.
protocol Repository: Sendable {
    /// Inserts the model, or replaces the one with the same id.
    func save<Model: RepositoryModel>(_ model: Model) async throws
    /// Saves all the models in one transaction: all of them, or none.
    func saveAll<Model: RepositoryModel>(_ models: [Model]) async throws
    /// Replaces the stored model with the same id; throws when there is none.
    func update<Model: RepositoryModel>(_ model: Model) async throws
    /// Deletes the model with the same id. Returns whether there was one.
    @discardableResult
    func delete<Model: RepositoryModel>(_ model: Model) async throws -> Bool
    /// Deletes every model of the type. Returns how many.
    @discardableResult
    func deleteAll<Model: RepositoryModel>(_ type: Model.Type) async throws -> Int
    /// The models matching `predicate` (all when nil), in `sorted` order (by id when nil).
    func fetch<Model: RepositoryModel>(_ type: Model.Type, predicate: Filter<Model>?, sorted: Sorted?) async throws -> [Model]
    /// Deletes everything the repository stores, in one transaction.
    func reset() async throws
}

extension Repository {
    /// Every model of the type, by id.
    func fetch<Model: RepositoryModel>(_ type: Model.Type) async throws -> [Model] {
        try await fetch(type, predicate: nil, sorted: nil)
    }

    /// Every model of the type, in `sorted` order.
    func fetch<Model: RepositoryModel>(_ type: Model.Type, sorted: Sorted) async throws -> [Model] {
        try await fetch(type, predicate: nil, sorted: sorted)
    }

    /// The models matching `predicate`, by id.
    func fetch<Model: RepositoryModel>(_ type: Model.Type, predicate: @escaping Filter<Model>) async throws -> [Model] {
        try await fetch(type, predicate: predicate, sorted: nil)
    }
}

/// The repository over a DocStore store: each model type in its default collection.
final class DocStoreRepository: Repository {
    let store: DocumentStore

    init(store: DocumentStore) {
        self.store = store
    }

    func collection<Model: RepositoryModel>(_ type: Model.Type) -> DocumentCollection<Model> {
        store.collection(type)
    }

    func save<Model: RepositoryModel>(_ model: Model) async throws {
        try await collection(Model.self).save(model)
    }

    func saveAll<Model: RepositoryModel>(_ models: [Model]) async throws {
        try await store.write { tx in
            let collection = tx.collection(Model.self)
            for model in models {
                try collection.save(model)
            }
        }
    }

    func update<Model: RepositoryModel>(_ model: Model) async throws {
        // An atomic read-modify-write: throws documentNotFound when there is none.
        try await collection(Model.self).update(model.id) { $0 = model }
    }

    @discardableResult
    func delete<Model: RepositoryModel>(_ model: Model) async throws -> Bool {
        try await collection(Model.self).delete(model.id)
    }

    @discardableResult
    func deleteAll<Model: RepositoryModel>(_ type: Model.Type) async throws -> Int {
        try await collection(type).deleteAll()
    }

    func fetch<Model: RepositoryModel>(_ type: Model.Type, predicate: Filter<Model>?, sorted: Sorted?) async throws -> [Model] {
        var query = collection(type).query
        if let predicate {
            query = query.filter(predicate(Model.Fields(_path: .root)))
        }
        if let sorted {
            guard let key = Model.sortableFields[sorted.key] else {
                throw RepositoryError.unknownSortKey(sorted.key, model: String(describing: Model.self),
                                                     known: Model.sortableFields.keys.sorted())
            }
            query = query.sorted { _ in SortKey(key.path, descending: !sorted.ascending) }
        }
        return try await query.fetch()
    }

    func reset() async throws {
        let names = try await store.collections().map(\.name)
        try await store.write { tx in
            for name in names {
                _ = try tx.collection(named: name).deleteAll()
            }
            for key in try tx.values.keys() {
                _ = try tx.values.remove(key)
            }
        }
    }
}
