import Foundation

/// Comparisons between converted terms, with Swift's meaning on the decoded model:
/// `nil` for a missing or null field, `!=` true for it, no ordering of `nil`.
extension PredicateConverter {
    /// `lhs <op> rhs`, where one side depends on the document and the other doesn't.
    static func compare(
        _ lhs: PredicateTerm, _ op: ComparisonOperator, _ rhs: PredicateTerm, _ expression: Any
    ) throws(PredicateConversionError) -> Condition {
        switch (lhs, rhs) {
        case let (.field(path), .constant(value)):
            return try comparison(path, op, value, expression)
        case let (.arrayCount(path), .constant(value)):
            guard let count = value as? Int else {
                throw PredicateConversionError(expression, field: path, reason: "an element count is compared with \(type(of: value))")
            }
            return .arrayCount(path, op, count)
        case let (.defaulted(path, fallback), .constant(value)):
            return try withDefault(path, fallback, expression) { path throws(PredicateConversionError) in
                try comparison(path, op, value, expression)
            }
        case let (.condition(condition), .constant(value)) where op == .equal || op == .notEqual:
            guard let bool = value as? Bool else { break }
            return (bool == (op == .equal)) ? condition : .not(condition)
        case let (.condition(left), .condition(right)) where op == .equal || op == .notEqual:
            let same = Condition.or([.and([left, right]), .and([.not(left), .not(right)])])
            return op == .equal ? same : .not(same)
        case (.constant, .field), (.constant, .arrayCount), (.constant, .defaulted), (.constant, .condition):
            return try compare(rhs, op.mirrored, lhs, expression)
        default:
            break
        }
        throw PredicateConversionError(expression, field: lhs.path ?? rhs.path, reason: """
            both sides depend on the document; a DocStore condition compares a field with a value \
            (compute the value before the predicate and capture it)
            """)
    }

    /// `field <op> value` for a Swift value: `nil` is a null test, an array a test
    /// of the count and each element; a nested document has no comparison.
    static func comparison(
        _ path: FieldPath, _ op: ComparisonOperator, _ value: Any, _ expression: Any
    ) throws(PredicateConversionError) -> Condition {
        let json = try json(of: value, at: path, expression)
        switch json {
        case .null:
            guard op == .equal || op == .notEqual else { break }
            return op == .equal ? .isNull(path) : .not(.isNull(path))
        case .array(let elements) where op == .equal || op == .notEqual:
            // Arrays are equal when they have the same count and equal elements;
            // a set's stored order is not its order, so it has no such test.
            guard unwrapped(value) is any PredicateOrderedArray else {
                throw PredicateConversionError(expression, field: path, reason: "a \(type(of: unwrapped(value))) is compared as a whole; test its elements with contains(_:)")
            }
            var parts: [Condition] = [.arrayCount(path, .equal, elements.count)]
            for (index, element) in elements.enumerated() {
                let elementPath = path.appending(index: index)
                switch element {
                case .null: parts.append(.isNull(elementPath))
                case .array, .object:
                    throw PredicateConversionError(expression, field: path, reason: "an array of arrays or documents is compared as a whole; compare its elements' members instead")
                default: parts.append(.compare(elementPath, .equal, element))
                }
            }
            return op == .equal ? .and(parts) : .not(.and(parts))
        case .object:
            throw PredicateConversionError(expression, field: path, reason: "a nested document is compared as a whole; compare its members instead")
        default:
            return .compare(path, op, json)
        }
        throw PredicateConversionError(expression, field: path, reason: "\(json.typeName) is ordered; only == and != apply to it")
    }

    /// The condition `make` builds for the field, with the field replaced by
    /// `fallback` when it is `nil` (`(field ?? fallback) <op> value`): whether the
    /// condition holds for the fallback is worked out here, by the evaluator.
    static func withDefault(
        _ path: FieldPath, _ fallback: Any, _ expression: Any,
        _ make: (FieldPath) throws(PredicateConversionError) -> Condition
    ) throws(PredicateConversionError) -> Condition {
        let fallbackJSON = try json(of: fallback, at: path, expression)
        let onField = try make(path)
        let onFallback = try make(.root)
        let holdsForFallback = ConditionEvaluator(subqueryValues: { _ in [] }).matches(onFallback, fallbackJSON)
        return holdsForFallback ? .or([.isNull(path), onField]) : .and([.not(.isNull(path)), onField])
    }

    /// The JSON form of a Swift value, exactly as the document codec stores it
    /// (an enum's raw value, a date's stored form); `nil` is JSON null.
    static func json(of value: Any, at path: FieldPath?, _ expression: Any) throws(PredicateConversionError) -> JSONValue {
        if let optional = value as? any PredicateOptionalValue {
            guard let wrapped = optional.wrappedAny else { return .null }
            return try json(of: wrapped, at: path, expression)
        }
        guard let encodable = value as? any Encodable else {
            throw PredicateConversionError(expression, field: path, reason: "\(type(of: value)) is not Encodable, so it has no stored form to compare with")
        }
        switch QueryValue.encode(encodable, for: path ?? .root) {
        case .success(let json): return json
        case .failure(let failure): throw PredicateConversionError(expression, field: path, reason: failure.reason)
        }
    }
}

extension PredicateTerm {
    /// The field a term reads, when it reads one.
    var path: FieldPath? {
        switch self {
        case .field(let path), .arrayCount(let path), .defaulted(let path, _): path
        case .constant, .condition: nil
        }
    }
}

extension ComparisonOperator {
    /// The operator with its operands swapped: `5 < x` is `x > 5`.
    var mirrored: ComparisonOperator {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        }
    }
}

/// The wrapped value of a (possibly nested) optional, or the value itself.
private func unwrapped(_ value: Any) -> Any {
    guard let optional = value as? any PredicateOptionalValue, let wrapped = optional.wrappedAny else { return value }
    return unwrapped(wrapped)
}

/// Arrays: stored in their own order, so comparable element by element.
protocol PredicateOrderedArray {}

extension Array: PredicateOrderedArray {}

/// `Optional`, seen through `Any`: a captured optional value, or `nil`.
protocol PredicateOptionalValue {
    var wrappedAny: Any? { get }
}

extension Optional: PredicateOptionalValue {
    var wrappedAny: Any? {
        switch self {
        case .some(let wrapped): wrapped
        case .none: nil
        }
    }
}
