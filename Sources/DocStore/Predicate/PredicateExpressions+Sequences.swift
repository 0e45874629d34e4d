import Foundation

// Arrays, strings and ranges: `contains`, `contains(where:)`, `allSatisfy`,
// `starts(with:)`, `(a...b).contains(x)`.

extension PredicateExpressions.SequenceContains: ConvertiblePredicateExpression {
    /// `$0.tags.contains("x")` (an array field holds the value) or
    /// `[1, 2].contains($0.teamId)` (the field equals one of the values).
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let (base, item) = (try converter.term(of: sequence), try converter.term(of: element))
        if let folded = try converter.folded(self, base, item) { return folded }
        switch (base, item) {
        case let (.field(path), .constant(value)) where LHS.Output.self is any PredicateArrayField.Type:
            let json = try PredicateConverter.json(of: value, at: path, self)
            if case .array = json { break }
            if case .object = json { break }
            return .condition(.arrayContains(path, json))
        case (.constant(let values), _):
            guard let sequence = values as? LHS.Output else { break }
            var parts: [Condition] = []
            for value in sequence {
                guard parts.count < PredicateConverter.maximumValues else {
                    throw PredicateConversionError(self, field: item.path, reason: "contains(_:) on more than \(PredicateConverter.maximumValues) values; store them in a collection and use in(…) with a subquery")
                }
                parts.append(try PredicateConverter.compare(item, .equal, .constant(value), self))
            }
            return .condition(parts.count == 1 ? parts[0] : .or(parts))
        default:
            break
        }
        throw PredicateConversionError(self, field: base.path ?? item.path, reason: """
            contains(_:) converts for an array field of scalars and a value, or for values known before \
            the query and a field
            """)
    }
}

extension PredicateExpressions.SequenceContainsWhere: ConvertiblePredicateExpression {
    /// `$0.games.contains { $0.runs > 2 }`: some element satisfies the test.
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        try PredicateConverter.elementTest(sequence, variable, test, of: self, any: true, in: &converter)
    }
}

extension PredicateExpressions.SequenceAllSatisfy: ConvertiblePredicateExpression {
    /// `$0.games.allSatisfy { $0.runs > 2 }`: every element does (true for none).
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        try PredicateConverter.elementTest(sequence, variable, test, of: self, any: false, in: &converter)
    }
}

extension PredicateConverter {
    /// The most values a sequence known before the query may hold: each becomes
    /// a term of the condition.
    static let maximumValues = 10_000

    /// `contains(where:)` (`any`) or `allSatisfy` on an array field, or on values
    /// known before the query (tested one by one).
    static func elementTest<Sequence: PredicateExpression, Test: PredicateExpression>(
        _ sequence: Sequence, _ variable: PredicateExpressions.Variable<Sequence.Output.Element>, _ test: Test,
        of expression: some PredicateExpression,
        any: Bool, in converter: inout PredicateConverter
    ) throws(PredicateConversionError) -> PredicateTerm where Sequence.Output: Swift.Sequence {
        let base = try converter.term(of: sequence)
        switch base {
        case .field(let path) where Sequence.Output.self is any PredicateArrayField.Type:
            let element = try converter.elementCondition(variable.key, of: test)
            return .condition(any ? .any(path, element) : .all(path, element))
        case .constant(let values):
            guard let values = values as? Sequence.Output else { break }
            var parts: [Condition] = []
            for value in values {
                guard parts.count < maximumValues else {
                    throw PredicateConversionError(expression, reason: "contains(where:) or allSatisfy on more than \(maximumValues) values")
                }
                parts.append(try converter.converting(variable, boundTo: value) { converter throws(PredicateConversionError) in
                    try converter.condition(of: test)
                })
            }
            return .condition(any ? .or(parts) : .and(parts))
        default:
            break
        }
        throw PredicateConversionError(expression, field: base.path, reason: "contains(where:) and allSatisfy convert on an array field or on values known before the query")
    }
}

extension PredicateExpressions.SequenceStartsWith: ConvertiblePredicateExpression {
    /// `$0.lastName.starts(with: "Ped")`: a prefix of a string field.
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let (text, prefixTerm) = (try converter.term(of: base), try converter.term(of: prefix))
        if let folded = try converter.folded(self, text, prefixTerm) { return folded }
        return .condition(try PredicateConverter.stringMatch(text, .hasPrefix, prefixTerm, isString: Base.Output.self is any StringProtocol.Type, in: self))
    }
}

extension PredicateExpressions.CollectionContainsCollection: ConvertiblePredicateExpression {
    /// `$0.lastName.contains("ort")`: a substring of a string field.
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let (text, needle) = (try converter.term(of: base), try converter.term(of: other))
        if let folded = try converter.folded(self, text, needle) { return folded }
        return .condition(try PredicateConverter.stringMatch(text, .contains, needle, isString: Base.Output.self is any StringProtocol.Type, in: self))
    }
}

extension PredicateConverter {
    /// A case-sensitive match of a string field (or `field ?? "text"`) with a string value.
    static func stringMatch(
        _ text: PredicateTerm, _ match: StringMatch, _ needle: PredicateTerm, isString: Bool, in expression: Any
    ) throws(PredicateConversionError) -> Condition {
        guard isString, case .constant(let value) = needle, let string = value as? any StringProtocol else {
            throw PredicateConversionError(expression, field: text.path ?? needle.path, reason: "\(match == .hasPrefix ? "starts(with:)" : "contains(_:)") converts for a string field and a string known before the query")
        }
        let needleText = String(string)
        switch text {
        case .field(let path):
            return .string(path, match, needleText, caseInsensitive: false)
        case let .defaulted(path, fallback):
            return try withDefault(path, fallback, expression) { .string($0, match, needleText, caseInsensitive: false) }
        default:
            throw PredicateConversionError(expression, field: text.path, reason: "the string matched is not a stored field")
        }
    }
}

extension PredicateExpressions.RangeExpressionContains: ConvertiblePredicateExpression {
    /// `(10...20).contains($0.number)`: bounds known before the query.
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let (bounds, item) = (try converter.term(of: range), try converter.term(of: element))
        if let folded = try converter.folded(self, bounds, item) { return folded }
        guard case .constant(let value) = bounds, let range = value as? any PredicateRangeBounds else {
            throw PredicateConversionError(self, field: item.path, reason: "a range converts when its bounds are known before the query")
        }
        var parts: [Condition] = []
        if let lower = range.lowerBoundValue {
            parts.append(try PredicateConverter.compare(item, .greaterOrEqual, .constant(lower), self))
        }
        if let upper = range.upperBoundValue {
            parts.append(try PredicateConverter.compare(item, range.includesUpperBound ? .lessOrEqual : .less, .constant(upper), self))
        }
        return .condition(DocumentCondition.conjunction(parts))
    }
}

/// The bounds of the standard library's ranges, seen through `Any`.
protocol PredicateRangeBounds {
    var lowerBoundValue: Any? { get }
    var upperBoundValue: Any? { get }
    var includesUpperBound: Bool { get }
}

extension ClosedRange: PredicateRangeBounds {
    var lowerBoundValue: Any? { lowerBound }
    var upperBoundValue: Any? { upperBound }
    var includesUpperBound: Bool { true }
}

extension Range: PredicateRangeBounds {
    var lowerBoundValue: Any? { lowerBound }
    var upperBoundValue: Any? { upperBound }
    var includesUpperBound: Bool { false }
}

extension PartialRangeFrom: PredicateRangeBounds {
    var lowerBoundValue: Any? { lowerBound }
    var upperBoundValue: Any? { nil }
    var includesUpperBound: Bool { false }
}

extension PartialRangeThrough: PredicateRangeBounds {
    var lowerBoundValue: Any? { nil }
    var upperBoundValue: Any? { upperBound }
    var includesUpperBound: Bool { true }
}

extension PartialRangeUpTo: PredicateRangeBounds {
    var lowerBoundValue: Any? { nil }
    var upperBoundValue: Any? { upperBound }
    var includesUpperBound: Bool { false }
}
