import Foundation

extension Condition {
    /// The condition a Foundation `Predicate` on a model stands for: the documents
    /// it selects are exactly the models for which `predicate.evaluate` is true.
    ///
    /// - Throws: ``PredicateConversionError`` naming the first expression with no
    ///   DocStore equivalent; a predicate is never converted with a part left out.
    public init<Model: QueryableDocument>(_ predicate: Predicate<Model>) throws(PredicateConversionError) {
        self = try PredicateConverter.condition(predicate)
    }
}

extension DocumentCondition {
    /// The condition a Foundation `Predicate` on a model stands for, or, when it
    /// has no DocStore equivalent, a condition that makes its query throw
    /// ``DocStoreError/invalidQuery(collection:field:reason:)`` when it runs.
    public init<Model: QueryableDocument>(_ predicate: Predicate<Model>) {
        do throws(PredicateConversionError) {
            self.init(try Condition(predicate))
        } catch {
            self.init(invalid: error.invalidQuery)
        }
    }
}

extension CollectionQuery {
    /// The documents for which a Foundation `#Predicate` is true too, as it would
    /// be on the decoded models:
    ///
    ///     players.query.filter(#Predicate { $0.teamId == 1 && $0.number > 10 })
    ///
    /// A predicate with an expression DocStore has no equivalent for (arithmetic
    /// on a field, a computed property, …) makes the query throw
    /// ``DocStoreError/invalidQuery(collection:field:reason:)`` naming it.
    public func filter(_ predicate: Predicate<Model>) -> CollectionQuery {
        filter(DocumentCondition(predicate))
    }
}

extension DocumentCollection where Model: QueryableDocument {
    /// The documents for which a Foundation `#Predicate` is true, as it would be
    /// on the decoded models; refine, sort, count or delete them like any filter:
    ///
    ///     try players.filter(#Predicate { $0.teamId == 1 && $0.number > 10 })
    ///         .sorted { $0.number }
    ///         .fetch()
    ///
    /// What converts is listed in the README, "Coming from SwiftData".
    public func filter(_ predicate: Predicate<Model>) -> CollectionQuery<Model> {
        query.filter(predicate)
    }
}
