import Foundation

// Values, variables, comparisons and logic: the expressions every predicate has.

extension PredicateExpressions.Value: ConvertiblePredicateExpression {
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        .constant(value)
    }
}

extension PredicateExpressions.Variable: ConvertiblePredicateExpression {
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        try converter.variable(key, in: self)
    }
}

extension PredicateExpressions.Equal: ConvertiblePredicateExpression {
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let (left, right) = (try converter.term(of: lhs), try converter.term(of: rhs))
        if let folded = try converter.folded(self, left, right) { return folded }
        return .condition(try PredicateConverter.compare(left, .equal, right, self))
    }
}

extension PredicateExpressions.NotEqual: ConvertiblePredicateExpression {
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let (left, right) = (try converter.term(of: lhs), try converter.term(of: rhs))
        if let folded = try converter.folded(self, left, right) { return folded }
        return .condition(try PredicateConverter.compare(left, .notEqual, right, self))
    }
}

extension PredicateExpressions.Comparison: ConvertiblePredicateExpression {
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let (left, right) = (try converter.term(of: lhs), try converter.term(of: rhs))
        if let folded = try converter.folded(self, left, right) { return folded }
        let comparison: ComparisonOperator = switch op {
        case .lessThan: .less
        case .lessThanOrEqual: .lessOrEqual
        case .greaterThan: .greater
        case .greaterThanOrEqual: .greaterOrEqual
        @unknown default: .equal
        }
        guard comparison != .equal else {
            throw PredicateConversionError(self, reason: "the comparison operator \(op) is not one DocStore knows")
        }
        return .condition(try PredicateConverter.compare(left, comparison, right, self))
    }
}

extension PredicateExpressions.Conjunction: ConvertiblePredicateExpression {
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let (left, right) = (try converter.condition(of: lhs), try converter.condition(of: rhs))
        return .condition(DocumentCondition.conjunction([left, right]))
    }
}

extension PredicateExpressions.Disjunction: ConvertiblePredicateExpression {
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let (left, right) = (try converter.condition(of: lhs), try converter.condition(of: rhs))
        let parts = [left, right].flatMap { part -> [Condition] in
            if case .or(let inner) = part { return inner }
            return [part]
        }
        return .condition(.or(parts))
    }
}

extension PredicateExpressions.Negation: ConvertiblePredicateExpression {
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let inner = try converter.condition(of: wrapped)
        if case .not(let original) = inner { return .condition(original) }
        return .condition(.not(inner))
    }
}

extension PredicateExpressions.Conditional: ConvertiblePredicateExpression {
    /// `test ? a : b` for conditions: `(test && a) || (!test && b)`.
    func convert(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> PredicateTerm {
        let test = try converter.term(of: self.test)
        if case .constant(let value) = test, let chosen = value as? Bool {
            return chosen ? try converter.term(of: trueBranch) : try converter.term(of: falseBranch)
        }
        guard If.Output.self == Bool.self else {
            throw PredicateConversionError(self, reason: "a conditional (?:) that depends on the document chooses a value; only a choice between conditions converts")
        }
        let condition = try converter.condition(from: test, of: self)
        let (whenTrue, whenFalse) = (try converter.condition(of: trueBranch), try converter.condition(of: falseBranch))
        return .condition(.or([.and([condition, whenTrue]), .and([.not(condition), whenFalse])]))
    }
}
