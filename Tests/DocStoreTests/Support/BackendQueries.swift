import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

// The typed DSL on either backend, for tests written once and run on both: a
// query of the SQLite store (`CollectionQuery`, whose async forms run on the
// store's threads) or of the PostgreSQL store (`PostgresCollectionQuery`), with
// the same building methods taking the same closures. Each method forwards to
// the backend's own; nothing here computes an answer.

/// A typed query of either backend.
enum BackendQuery<Model: QueryableDocument & Sendable>: Sendable {
    case sqlite(CollectionQuery<Model>)
    case postgres(PostgresCollectionQuery<Model>)

    private func map(_ onSQLite: (CollectionQuery<Model>) -> CollectionQuery<Model>,
                     _ onPostgres: (PostgresCollectionQuery<Model>) -> PostgresCollectionQuery<Model>) -> BackendQuery {
        switch self {
        case .sqlite(let query): .sqlite(onSQLite(query))
        case .postgres(let query): .postgres(onPostgres(query))
        }
    }

    // MARK: Building

    func filter(@ConditionBuilder<Model.Fields> _ body: (Model.Fields) -> [DocumentCondition]) -> BackendQuery {
        map({ $0.filter(body) }, { $0.filter(body) })
    }

    func filter(_ condition: DocumentCondition) -> BackendQuery {
        map({ $0.filter(condition) }, { $0.filter(condition) })
    }

    func sorted(@SortBuilder<Model.Fields> by body: (Model.Fields) -> [SortKey]) -> BackendQuery {
        map({ $0.sorted(by: body) }, { $0.sorted(by: body) })
    }

    func limit(_ limit: Int, offset: Int? = nil) -> BackendQuery {
        map({ $0.limit(limit, offset: offset) }, { $0.limit(limit, offset: offset) })
    }

    func join<Other: QueryableDocument & Sendable, Value>(
        _ other: BackendCollection<Other>,
        on field: KeyPath<Model.Fields, DocumentField<Value>>,
        equals otherField: KeyPath<Other.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<Other?>>
    ) -> BackendQuery {
        switch (self, other.storage) {
        case (.sqlite(let query), .sqlite(let other)): .sqlite(query.join(other, on: field, equals: otherField, as: member))
        case (.postgres(let query), .postgres(let other)): .postgres(query.join(other, on: field, equals: otherField, as: member))
        default: preconditionFailure("a join between collections of two backends")
        }
    }

    func join<Other: QueryableDocument & Sendable, Value>(
        _ other: BackendCollection<Other>,
        onKey field: KeyPath<Model.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<Other?>>
    ) -> BackendQuery {
        switch (self, other.storage) {
        case (.sqlite(let query), .sqlite(let other)): .sqlite(query.join(other, onKey: field, as: member))
        case (.postgres(let query), .postgres(let other)): .postgres(query.join(other, onKey: field, as: member))
        default: preconditionFailure("a join between collections of two backends")
        }
    }

    func joinAll<Other: QueryableDocument & Sendable, Value>(
        _ other: BackendCollection<Other>,
        on field: KeyPath<Model.Fields, DocumentField<Value>>,
        equals otherField: KeyPath<Other.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<[Other]?>>
    ) -> BackendQuery {
        switch (self, other.storage) {
        case (.sqlite(let query), .sqlite(let other)): .sqlite(query.joinAll(other, on: field, equals: otherField, as: member))
        case (.postgres(let query), .postgres(let other)): .postgres(query.joinAll(other, on: field, equals: otherField, as: member))
        default: preconditionFailure("a join between collections of two backends")
        }
    }

    func group<each Key: Decodable, Columns>(
        by keys: repeat KeyPath<Model.Fields, DocumentField<each Key>>,
        aggregates: (GroupAggregates<Model>) -> Columns
    ) -> BackendGroupedQuery<Model, Columns> {
        switch self {
        case .sqlite(let query): .sqlite(query.group(by: repeat each keys, aggregates: aggregates))
        case .postgres(let query): .postgres(query.group(by: repeat each keys, aggregates: aggregates))
        }
    }

    func documentQuery() throws -> DocumentQuery {
        switch self {
        case .sqlite(let query): try query.documentQuery()
        case .postgres(let query): try query.documentQuery()
        }
    }

    // MARK: Running

    func fetch() async throws -> [Model] {
        switch self {
        case .sqlite(let query): try await query.fetch()
        case .postgres(let query): try await query.fetch()
        }
    }

    func first() async throws -> Model? {
        switch self {
        case .sqlite(let query): try await query.first()
        case .postgres(let query): try await query.first()
        }
    }

    func count() async throws -> Int {
        switch self {
        case .sqlite(let query): try await query.count()
        case .postgres(let query): try await query.count()
        }
    }

    func exists() async throws -> Bool {
        switch self {
        case .sqlite(let query): try await query.exists()
        case .postgres(let query): try await query.exists()
        }
    }

    func keys() async throws -> [DocumentKey] {
        switch self {
        case .sqlite(let query): try await query.keys()
        case .postgres(let query): try await query.keys()
        }
    }

    @discardableResult
    func delete() async throws -> Int {
        switch self {
        case .sqlite(let query): try await query.delete()
        case .postgres(let query): try await query.delete()
        }
    }

    @discardableResult
    func update(@UpdateBuilder<Model.Fields> _ body: (Model.Fields) -> [DocumentFieldUpdate]) async throws -> Int {
        switch self {
        case .sqlite(let query): try await query.update(body)
        case .postgres(let query): try await query.update(body)
        }
    }

    func explain() async throws -> QueryExplanation {
        switch self {
        case .sqlite(let query): try await query.explain()
        case .postgres(let query): try await query.explain()
        }
    }

    func select<each Column: QueryExpression>(
        _ body: (Model.Fields) -> (repeat each Column)
    ) async throws -> [(repeat (each Column).Value)] where repeat (each Column).Value: Decodable {
        switch self {
        case .sqlite(let query): try query.select(body)
        case .postgres(let query): try await query.select(body)
        }
    }
}
