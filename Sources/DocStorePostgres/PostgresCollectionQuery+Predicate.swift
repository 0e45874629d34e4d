@_spi(Backends) import DocStore
import Foundation

extension PostgresCollectionQuery {
    /// Keeps the documents for which a Foundation `#Predicate` is true, as on
    /// SQLite (see DocStore's `CollectionQuery.filter(_:)`): the predicate
    /// becomes the same query AST, or the query throws
    /// ``DocStore/DocStoreError/invalidQuery(collection:field:reason:)`` naming
    /// the expression that has no equivalent.
    public func filter(_ predicate: Predicate<Model>) -> PostgresCollectionQuery {
        filter { _ in DocumentCondition(predicate) }
    }
}

extension PostgresCollection where Model: QueryableDocument {
    /// The documents for which a Foundation `#Predicate` is true.
    public func filter(_ predicate: Predicate<Model>) -> PostgresCollectionQuery<Model> {
        query.filter(predicate)
    }
}
