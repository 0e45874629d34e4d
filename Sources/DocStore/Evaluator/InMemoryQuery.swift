import Foundation

extension Condition {
    /// Whether `document` satisfies the condition, exactly as a query on a
    /// collection would decide: use it to filter plain arrays of JSON values.
    ///
    ///     let adults = people.filter { Condition.compare(FieldPath("age"), .greaterOrEqual, 18).matches($0) }
    ///
    /// - Parameter subqueryValues: The values each ``Condition/isInSubquery(_:_:)``
    ///   selects (keys as JSON values, or the field's values); a subquery not
    ///   given selects nothing.
    public func matches(_ document: JSONValue, subqueryValues: (Subquery) -> [JSONValue] = { _ in [] }) -> Bool {
        withoutActuallyEscaping(subqueryValues) { values in
            ConditionEvaluator(subqueryValues: values).matches(self, document)
        }
    }
}

extension SortKey {
    /// Orders two documents by this key alone, in DocStore's total order across
    /// types (missing = null < false < true < numbers < strings < arrays < objects).
    public func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> ComparisonResult {
        let order = JSONOrder.compare(lhs.value(at: path), rhs.value(at: path))
        return descending ? order.reversed : order
    }
}

extension Sequence {
    /// The documents sorted by the keys, ties kept in their original order (a
    /// collection breaks ties by document key instead).
    public func sorted(by keys: [SortKey]) -> [JSONValue] where Element == JSONValue {
        Array(self).enumerated().sorted { a, b in
            for key in keys {
                switch key.compare(a.element, b.element) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return a.offset < b.offset
        }.map(\.element)
    }
}

extension DocumentQuery {
    /// Runs the query on documents in memory: filters, sorts (by relevance first
    /// when asked, scoring against all of `documents`; ties by key), skips the
    /// offset and keeps the limit. The same result as the query on a collection
    /// holding these documents under these keys.
    public func run(
        on documents: [(key: DocumentKey, document: JSONValue)],
        subqueryValues: (Subquery) -> [JSONValue] = { _ in [] }
    ) -> [(key: DocumentKey, document: JSONValue)] {
        // Relevance scores the text against every document, as a search index does.
        let scores = relevance?.scores(of: documents.map(\.document))
        let selected = documents.indices.filter { condition.matches(documents[$0].document, subqueryValues: subqueryValues) }
        let sorted = selected.sorted { a, b in
            if let scores {
                switch (scores[a], scores[b]) {
                case let (x?, y?) where x != y: return x < y
                case (nil, _?): return false
                case (_?, nil): return true
                default: break
                }
            }
            for key in sort {
                switch key.compare(documents[a].document, documents[b].document) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return JSONOrder.compare(documents[a].key, documents[b].key) == .orderedAscending
        }.map { documents[$0] }
        let start = Swift.min(Swift.max(offset ?? 0, 0), sorted.count)
        let remaining = sorted[start...]
        guard let limit, limit >= 0 else { return Array(remaining) }
        return Array(remaining.prefix(limit))
    }

    /// Runs the query on documents in memory, using their positions as keys.
    public func run(on documents: [JSONValue]) -> [JSONValue] {
        run(on: documents.enumerated().map { (DocumentKey.integer(Int64($0.offset)), $0.element) }).map(\.document)
    }

    /// Computes an aggregate on documents in memory, as
    /// ``DocumentCollection/aggregate(_:_:)`` does on a collection.
    public func aggregate(
        _ aggregate: Aggregate, on documents: [(key: DocumentKey, document: JSONValue)],
        subqueryValues: (Subquery) -> [JSONValue] = { _ in [] }
    ) throws(AggregateOverflow) -> JSONValue {
        let selected = run(on: documents, subqueryValues: subqueryValues).sorted {
            JSONOrder.compare($0.key, $1.key) == .orderedAscending
        }
        let values = selected.map { $0.document.value(at: aggregate.field ?? .root) }
        switch aggregate {
        case .count:
            return .integer(Int64(selected.count))
        case .min, .max:
            let present = values.compactMap { $0?.asQueried }.filter { !$0.isNull }
            let isMin = if case .min = aggregate { true } else { false }
            let best = present.reduce(nil as JSONValue?) { best, value in
                guard let best else { return value }
                let order = JSONOrder.compare(value, best)
                return (isMin ? order == .orderedAscending : order == .orderedDescending) ? value : best
            }
            return best ?? .null
        case .sum, .average:
            let isAverage = if case .average = aggregate { true } else { false }
            return try MirroredSum.of(values.compactMap { $0 }, average: isAverage)
        case .distinct, .countBy:
            let ordered = values.sorted { JSONOrder.compare($0, $1) == .orderedAscending }
            var groups: [(value: JSONValue, count: Int)] = []
            for value in ordered {
                if let last = groups.last, JSONOrder.equal(last.value, value) {
                    groups[groups.count - 1].count += 1
                } else {
                    groups.append((value ?? .null, 1))
                }
            }
            if case .distinct = aggregate { return .array(groups.map(\.value)) }
            return .array(groups.map { ["value": $0.value, "count": .integer(Int64($0.count))] })
        }
    }
}

/// An integer sum that doesn't fit in 64 bits.
public struct AggregateOverflow: Error, Sendable {}
