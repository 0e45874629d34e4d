import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

/// A grouped query of either backend (`GroupedQuery` or `PostgresGroupedQuery`),
/// built with the same closures; each method forwards to the backend's own.
enum BackendGroupedQuery<Model: QueryableDocument & Sendable, Columns> {
    case sqlite(GroupedQuery<Model, Columns>)
    case postgres(PostgresGroupedQuery<Model, Columns>)

    func filter(
        @ConditionBuilder<Model.Fields> _ body: (GroupColumns<Model, Columns>) -> [DocumentCondition]
    ) -> BackendGroupedQuery {
        switch self {
        case .sqlite(let query): .sqlite(query.filter(body))
        case .postgres(let query): .postgres(query.filter(body))
        }
    }

    func sorted(@SortBuilder<Model.Fields> by body: (GroupColumns<Model, Columns>) -> [SortKey]) -> BackendGroupedQuery {
        switch self {
        case .sqlite(let query): .sqlite(query.sorted(by: body))
        case .postgres(let query): .postgres(query.sorted(by: body))
        }
    }

    func limit(_ limit: Int, offset: Int? = nil) -> BackendGroupedQuery {
        switch self {
        case .sqlite(let query): .sqlite(query.limit(limit, offset: offset))
        case .postgres(let query): .postgres(query.limit(limit, offset: offset))
        }
    }

    func select<Selected>(_ body: (GroupColumns<Model, Columns>) -> Selected) -> BackendGroupedQuery<Model, Selected> {
        switch self {
        case .sqlite(let query): .sqlite(query.select(body))
        case .postgres(let query): .postgres(query.select(body))
        }
    }

    func join<Other: QueryableDocument & Sendable, Value>(
        _ other: BackendCollection<Other>,
        on field: KeyPath<Model.Fields, DocumentField<Value>>,
        equals otherField: KeyPath<Other.Fields, DocumentField<Value>>,
        as member: KeyPath<Model.Fields, DocumentField<Other?>>
    ) -> BackendGroupedQuery {
        switch (self, other.storage) {
        case (.sqlite(let query), .sqlite(let other)): .sqlite(query.join(other, on: field, equals: otherField, as: member))
        case (.postgres(let query), .postgres(let other)): .postgres(query.join(other, on: field, equals: otherField, as: member))
        default: preconditionFailure("a join between collections of two backends")
        }
    }

    func queryPipeline() throws -> QueryPipeline {
        switch self {
        case .sqlite(let query): try query.queryPipeline()
        case .postgres(let query): try query.queryPipeline()
        }
    }

    func fetch() async throws -> [GroupRow<Model, Columns>] {
        switch self {
        case .sqlite(let query): try await query.fetch()
        case .postgres(let query): try await query.fetch()
        }
    }

    func fetch<Row: Decodable & SendableMetatype>(as type: Row.Type) async throws -> [Row] {
        switch self {
        case .sqlite(let query): try await query.fetch(as: type)
        case .postgres(let query): try await query.fetch(as: type)
        }
    }

    func first() async throws -> GroupRow<Model, Columns>? {
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

    func explain() async throws -> QueryExplanation {
        switch self {
        case .sqlite(let query): try await query.explain()
        case .postgres(let query): try await query.explain()
        }
    }
}

extension BackendGroupedQuery: Sendable where Columns: Sendable {}
