import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

// Field changes (migrations) and indexes on a collection of either backend;
// each forwards to the backend's own.

extension BackendCollection {
    @discardableResult
    func renameField(_ old: FieldPath, to new: FieldPath) async throws -> FieldChangeSummary {
        try await run({ try $0.renameField(old, to: new) }, { try await $0.renameField(old, to: new) })
    }

    @discardableResult
    func copyField(_ source: FieldPath, to target: FieldPath) async throws -> FieldChangeSummary {
        try await run({ try $0.copyField(source, to: target) }, { try await $0.copyField(source, to: target) })
    }

    @discardableResult
    func removeField(_ path: FieldPath) async throws -> FieldChangeSummary {
        try await run({ try $0.removeField(path) }, { try await $0.removeField(path) })
    }

    @discardableResult
    func setDefault(_ path: FieldPath, to value: JSONValue) async throws -> FieldChangeSummary {
        try await run({ try $0.setDefault(path, to: value) }, { try await $0.setDefault(path, to: value) })
    }

    @discardableResult
    func createIndex(on fields: [FieldPath], unique: Bool = false) async throws -> IndexInfo {
        try await run({ try $0.createIndex(on: fields, unique: unique) }, { try await $0.createIndex(on: fields, unique: unique) })
    }

    @discardableResult
    func createIndex(on field: FieldPath, unique: Bool = false) async throws -> IndexInfo {
        try await createIndex(on: [field], unique: unique)
    }
}

extension BackendStore {
    /// The names of the store's collections, sorted.
    func collectionNames() async throws -> [String] {
        if let sqlite { return try await sqlite.collections().map(\.name) }
        return try await postgres?.collectionNames() ?? []
    }
}
