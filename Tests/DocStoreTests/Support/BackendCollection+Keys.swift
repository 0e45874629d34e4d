import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

// Collections whose keys may be generated, on either backend: models with an
// optional `id` (the key written back), models without one, and the calls that
// write a generated key back into a model. Each forwards to the backend's own.

extension BackendStore {
    func collection<Model: Codable & Sendable & Identifiable>(
        _ type: Model.Type, named name: String
    ) -> BackendCollection<Model> where Model.ID: OptionalDocumentKeyRepresentable {
        BackendCollection(name: name, sqlite: sqlite?.collection(type, named: name), postgres: postgres?.collection(type, named: name))
    }

    func collection<Model: Codable & Sendable>(_ type: Model.Type, named name: String) -> BackendCollection<Model> {
        BackendCollection(name: name, sqlite: sqlite?.collection(type, named: name), postgres: postgres?.collection(type, named: name))
    }
}

extension BackendCollection where Model: Identifiable, Model.ID: OptionalDocumentKeyRepresentable {
    @discardableResult
    func insert(_ model: inout Model) async throws -> DocumentKey {
        switch storage {
        case .sqlite(let collection): try await collection.insert(&model)
        case .postgres(let collection): try await collection.insert(&model)
        }
    }

    func inserted(_ model: Model) async throws -> Model {
        switch storage {
        case .sqlite(let collection): try await collection.inserted(model)
        case .postgres(let collection): try await collection.inserted(model)
        }
    }

    @discardableResult
    func insert(contentsOf models: inout [Model]) async throws -> [DocumentKey] {
        switch storage {
        case .sqlite(let collection): try collection.insert(contentsOf: &models)
        case .postgres(let collection): try await collection.insert(contentsOf: &models)
        }
    }

    func inserted(contentsOf models: [Model]) async throws -> [Model] {
        switch storage {
        case .sqlite(let collection): try await collection.inserted(contentsOf: models)
        case .postgres(let collection): try await collection.inserted(contentsOf: models)
        }
    }

    func save(_ model: inout Model) async throws {
        switch storage {
        case .sqlite(let collection): try await collection.save(&model)
        case .postgres(let collection): try await collection.save(&model)
        }
    }
}

extension BackendCollection {
    func save(_ model: Model) async throws {
        try await run({ try $0.save(model) }, { _ = try await $0.save(model) })
    }

    @discardableResult
    func delete(_ key: some DocumentKeyRepresentable & Sendable) async throws -> Bool {
        try await run({ try $0.delete(key) }, { try await $0.delete(key) })
    }
}
