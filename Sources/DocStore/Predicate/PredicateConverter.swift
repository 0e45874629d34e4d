import Foundation

/// What a predicate expression stands for once converted: a value known without
/// the document, a stored field, or a condition on the document.
enum PredicateTerm {
    /// A Swift value known without reading a document: a literal, a captured
    /// variable, or an expression of them (evaluated by Foundation itself).
    case constant(Any)
    /// The stored value at a path (from the document, or from the array element
    /// a `contains(where:)` or `allSatisfy` tests).
    case field(FieldPath)
    /// `field ?? constant`: the field, or the Swift value when the field is `nil`.
    case defaulted(FieldPath, Any)
    /// The number of elements of an array field: `$0.tags.count`.
    case arrayCount(FieldPath)
    /// A `Bool` that depends on the document.
    case condition(Condition)

    var isConstant: Bool {
        if case .constant = self { return true }
        return false
    }
}

/// A `PredicateExpressions` type the converter knows: it turns itself into a
/// ``PredicateTerm``, converting its operands through the converter.
protocol ConvertiblePredicateExpression {
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm
}

/// Turns the expression tree of a Foundation `Predicate` into a ``Condition``
/// that means the same on the stored documents as the predicate on the decoded
/// models, or throws naming the first expression that has no such equivalent.
///
/// Expressions are recognised by dynamic casts to the `PredicateExpressions`
/// types (each conforms to ``ConvertiblePredicateExpression``); an expression
/// that doesn't depend on the document is evaluated by Foundation, whatever its type.
struct PredicateConverter {
    /// What a predicate variable stands for.
    enum Binding {
        /// A path, in the element scope it was bound in.
        case path(FieldPath, scope: Int)
        /// A Swift value (the element of a constant sequence being tested).
        case constant(Any)
    }

    private var bindings: [PredicateExpressions.VariableID: Binding] = [:]
    /// The variables bound to values, for Foundation to evaluate the expressions
    /// that use them (`[1, 2].contains { $0 + 1 == k }` tests each value).
    private var values = PredicateBindings()
    /// How many `contains(where:)`/`allSatisfy` closures on array fields enclose
    /// the expression being converted: paths inside are relative to the element.
    private var scope = 0

    /// The condition `predicate` stands for on a document of `Model`.
    static func condition<Model>(_ predicate: Predicate<Model>) throws(PredicateConversionError) -> Condition {
        var converter = PredicateConverter()
        converter.bindings[predicate.variable.key] = .path(.root, scope: 0)
        return try converter.condition(of: predicate.expression)
    }

    // MARK: Terms

    /// The term an expression stands for.
    mutating func term<E: PredicateExpression>(of expression: E) throws(PredicateConversionError) -> PredicateTerm {
        if let convertible = expression as? any ConvertiblePredicateExpression {
            return try convertible.convert(&self)
        }
        if let value = try? expression.evaluate(values) {
            return .constant(value)
        }
        throw PredicateConversionError(expression, reason: UnsupportedExpressionHint.reason(for: expression))
    }

    /// The condition a `Bool` expression stands for.
    mutating func condition<E: PredicateExpression>(of expression: E) throws(PredicateConversionError) -> Condition {
        try condition(from: term(of: expression), of: expression)
    }

    /// The condition a `Bool` term stands for.
    func condition(from term: PredicateTerm, of expression: Any) throws(PredicateConversionError) -> Condition {
        switch term {
        case .condition(let condition):
            return condition
        case .constant(let value):
            guard let bool = value as? Bool else {
                throw PredicateConversionError(expression, reason: "a \(type(of: value)) value is used as a condition")
            }
            return bool ? .always : .or([])
        case .field(let path):
            return .compare(path, .equal, .bool(true))
        case let .defaulted(path, fallback):
            return try Self.withDefault(path, fallback, expression) { .compare($0, .equal, .bool(true)) }
        case .arrayCount(let path):
            throw PredicateConversionError(expression, field: path, reason: "an element count is used as a condition")
        }
    }

    /// The term of an expression whose operands are all constants: its value,
    /// evaluated by Foundation. `nil` when an operand depends on the document.
    func folded<E: PredicateExpression>(_ expression: E, _ operands: PredicateTerm...) throws(PredicateConversionError) -> PredicateTerm? {
        guard operands.allSatisfy(\.isConstant) else { return nil }
        do {
            return .constant(try expression.evaluate(values))
        } catch {
            throw PredicateConversionError(expression, reason: "evaluating it failed: \(error)")
        }
    }

    // MARK: Variables

    /// The term a variable stands for where it is used.
    func variable(_ key: PredicateExpressions.VariableID, in expression: Any) throws(PredicateConversionError) -> PredicateTerm {
        switch bindings[key] {
        case .constant(let value)?:
            return .constant(value)
        case let .path(path, bound)?:
            guard bound == scope else {
                throw PredicateConversionError(expression, field: path, reason: """
                    a contains(where:) or allSatisfy closure on an array field refers to something other than its \
                    element; DocStore compares an array's elements with values only
                    """)
            }
            return .field(path)
        case nil:
            throw PredicateConversionError(expression, reason: "the variable is not one of the predicate's")
        }
    }

    /// The condition `test` stands for with `key` standing for an element of an
    /// array field: its paths are relative to the element, and it may not refer
    /// to the document or to enclosing elements (the AST compares elements with values).
    mutating func elementCondition<E: PredicateExpression>(
        _ key: PredicateExpressions.VariableID, of test: E
    ) throws(PredicateConversionError) -> Condition {
        scope += 1
        defer { scope -= 1 }
        return try converting(key, boundTo: .root) { converter throws(PredicateConversionError) in
            try converter.condition(of: test)
        }
    }

    /// `body` converted with `variable` standing for the stored value at `path`.
    mutating func converting<T>(
        _ key: PredicateExpressions.VariableID, boundTo path: FieldPath,
        _ body: (inout PredicateConverter) throws(PredicateConversionError) -> T
    ) throws(PredicateConversionError) -> T {
        let previous = bindings[key]
        bindings[key] = .path(path, scope: scope)
        defer { bindings[key] = previous }
        return try body(&self)
    }

    /// `body` converted with `variable` standing for `value`, known before the query.
    mutating func converting<Value, T>(
        _ variable: PredicateExpressions.Variable<Value>, boundTo value: Value,
        _ body: (inout PredicateConverter) throws(PredicateConversionError) -> T
    ) throws(PredicateConversionError) -> T {
        let (previous, previousValue) = (bindings[variable.key], values[variable])
        bindings[variable.key] = .constant(value)
        values[variable] = value
        defer {
            bindings[variable.key] = previous
            values[variable] = previousValue
        }
        return try body(&self)
    }

}
