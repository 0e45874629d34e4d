import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

// The typed aggregates of a query of either backend, and the typed shorthands of
// a collection of either backend; each forwards to the backend's own method.

extension BackendQuery {
    func min<Value: Comparable & Decodable & SendableMetatype>(
        _ field: KeyPath<Model.Fields, DocumentField<Value>> & Sendable
    ) async throws -> Value? {
        switch self {
        case .sqlite(let query): try await query.min(field)
        case .postgres(let query): try await query.min(field)
        }
    }

    func max<Value: Comparable & Decodable & SendableMetatype>(
        _ field: KeyPath<Model.Fields, DocumentField<Value>> & Sendable
    ) async throws -> Value? {
        switch self {
        case .sqlite(let query): try await query.max(field)
        case .postgres(let query): try await query.max(field)
        }
    }

    func max<Value: Comparable & Decodable & SendableMetatype>(
        _ field: KeyPath<Model.Fields, DocumentField<Value?>> & Sendable
    ) async throws -> Value? {
        switch self {
        case .sqlite(let query): try await query.max(field)
        case .postgres(let query): try await query.max(field) ?? nil
        }
    }

    func sum<Value: Numeric & Decodable & SendableMetatype>(
        _ field: KeyPath<Model.Fields, DocumentField<Value>> & Sendable
    ) async throws -> Value {
        switch self {
        case .sqlite(let query): try await query.sum(field)
        case .postgres(let query): try await query.sum(field)
        }
    }

    func sum<Value: Numeric & Decodable & SendableMetatype>(
        _ field: KeyPath<Model.Fields, DocumentField<Value?>> & Sendable
    ) async throws -> Value {
        switch self {
        case .sqlite(let query): try await query.sum(field)
        case .postgres(let query): try await query.sum(field)
        }
    }

    func average<Value: Numeric & Decodable & SendableMetatype>(
        _ field: KeyPath<Model.Fields, DocumentField<Value>> & Sendable
    ) async throws -> Double? {
        switch self {
        case .sqlite(let query): try await query.average(field)
        case .postgres(let query): try await query.average(field)
        }
    }

    func distinctValues<Value: Decodable & SendableMetatype>(
        of field: KeyPath<Model.Fields, DocumentField<Value>> & Sendable
    ) async throws -> [Value] {
        switch self {
        case .sqlite(let query): try await query.distinctValues(of: field)
        case .postgres(let query): try await query.distinctValues(of: field)
        }
    }

    func count<Value: Hashable & Decodable>(groupedBy field: KeyPath<Model.Fields, DocumentField<Value>>) async throws -> [Value: Int] {
        switch self {
        case .sqlite(let query): try query.count(groupedBy: field)
        case .postgres(let query): try await query.count(groupedBy: field)
        }
    }
}

extension DocumentField {
    /// The field equals the key of a document the query selects (a subquery).
    func `in`<Other>(_ query: BackendQuery<Other>) -> DocumentCondition {
        switch query {
        case .sqlite(let query): self.in(query)
        case .postgres(let query): self.in(query)
        }
    }
}

extension BackendCollection where Model: QueryableDocument {
    var query: BackendQuery<Model> {
        switch storage {
        case .sqlite(let collection): .sqlite(collection.query)
        case .postgres(let collection): .postgres(collection.query)
        }
    }

    func filter(@ConditionBuilder<Model.Fields> _ body: (Model.Fields) -> [DocumentCondition]) -> BackendQuery<Model> {
        query.filter(body)
    }

    func sorted(@SortBuilder<Model.Fields> by body: (Model.Fields) -> [SortKey]) -> BackendQuery<Model> {
        query.sorted(by: body)
    }

    func count(@ConditionBuilder<Model.Fields> where condition: (Model.Fields) -> [DocumentCondition]) async throws -> Int {
        switch storage {
        case .sqlite(let collection): try collection.count(where: condition)
        case .postgres(let collection): try await collection.count(where: condition)
        }
    }

    func first(@ConditionBuilder<Model.Fields> where condition: (Model.Fields) -> [DocumentCondition]) async throws -> Model? {
        switch storage {
        case .sqlite(let collection): try collection.first(where: condition)
        case .postgres(let collection): try await collection.first(where: condition)
        }
    }

    func contains(@ConditionBuilder<Model.Fields> where condition: (Model.Fields) -> [DocumentCondition]) async throws -> Bool {
        switch storage {
        case .sqlite(let collection): try collection.contains(where: condition)
        case .postgres(let collection): try await collection.contains(where: condition)
        }
    }

    @discardableResult
    func delete(@ConditionBuilder<Model.Fields> where condition: (Model.Fields) -> [DocumentCondition]) async throws -> Int {
        switch storage {
        case .sqlite(let collection): try collection.delete(where: condition)
        case .postgres(let collection): try await collection.delete(where: condition)
        }
    }

    @discardableResult
    func createIndex<each Value>(
        on fields: repeat KeyPath<Model.Fields, DocumentField<each Value>>, unique: Bool = false
    ) async throws -> IndexInfo {
        switch storage {
        case .sqlite(let collection): try collection.createIndex(on: repeat each fields, unique: unique)
        case .postgres(let collection): try await collection.createIndex(on: repeat each fields, unique: unique)
        }
    }

    @discardableResult
    func dropIndex<each Value>(on fields: repeat KeyPath<Model.Fields, DocumentField<each Value>>) async throws -> Bool {
        switch storage {
        case .sqlite(let collection): try collection.dropIndex(on: repeat each fields)
        case .postgres(let collection): try await collection.dropIndex(on: repeat each fields)
        }
    }
}

extension BackendCollection {
    @discardableResult
    func insert(_ model: Model) async throws -> DocumentKey {
        try await run({ try $0.insert(model) }, { try await $0.insert(model) })
    }

    func indexes() async throws -> [IndexInfo] {
        try await run({ try $0.indexes() }, { try await $0.indexes() })
    }

    func count() async throws -> Int {
        try await run({ try $0.count() }, { try await $0.count() })
    }
}
