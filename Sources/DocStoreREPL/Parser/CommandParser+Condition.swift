import DocStore

/// Conditions: the body of `filter { … }`, in the typed DSL's syntax.
///
///     $0.teamId == 1; $0.number > 10              // lines (or ;) are ANDed
///     AnyOf { $0.position == "Shortstop"; $0.lastName.hasPrefix("O") }
///     Not { $0.tags.contains("injured") }
///     $0.nickname == nil || !$0.tags.isEmpty
///     $0.roster.any { $0.number > 10 }
extension CommandParser {
    /// Field methods that take arguments or a closure.
    static let fieldMethods: Set<String> = ["hasPrefix", "hasSuffix", "contains", "arrayContains", "in", "any", "all", "matches"]
    /// Field properties that end a condition (`isEmpty`, `exists`) or start one (`count`).
    static let fieldProperties: Set<String> = ["isEmpty", "exists", "count"]

    /// `{ condition; condition }`: true when all hold.
    mutating func conditionBlock() throws(REPLSyntaxError) -> Condition {
        let conditions = try block("conditions") { (parser: inout CommandParser) throws(REPLSyntaxError) -> Condition in
            try parser.condition()
        }
        return Self.conjunction(conditions)
    }

    /// `a || b`
    mutating func condition() throws(REPLSyntaxError) -> Condition {
        try nest()
        defer { unnest() }
        var terms = [try conjunctionTerm()]
        while try accept(.or) { terms.append(try conjunctionTerm()) }
        return terms.count == 1 ? terms[0] : Self.disjunction(terms)
    }

    /// `a && b`
    mutating func conjunctionTerm() throws(REPLSyntaxError) -> Condition {
        var factors = [try unaryCondition()]
        while try accept(.and) { factors.append(try unaryCondition()) }
        return factors.count == 1 ? factors[0] : Self.conjunction(factors)
    }

    /// `!a`, `(a)`, `AnyOf { }`, `AllOf { }`, `Not { }`, or a condition on a field.
    mutating func unaryCondition() throws(REPLSyntaxError) -> Condition {
        if try accept(.not) {
            try nest()
            defer { unnest() }
            return Self.negation(try unaryCondition())
        }
        if try accept(.leftParen) {
            let inner = try condition()
            try expect(.rightParen, "to close the parenthesis")
            return inner
        }
        switch current.identifier {
        case "AnyOf":
            try advance()
            let conditions = try block("conditions") { (parser: inout CommandParser) throws(REPLSyntaxError) -> Condition in try parser.condition() }
            return Self.disjunction(conditions)
        case "AllOf":
            try advance()
            return try conditionBlock()
        case "Not":
            try advance()
            return Self.negation(try conditionBlock())
        case "true":
            try advance()
            return .always
        case "false":
            try advance()
            return .or([])
        default:
            return try fieldCondition()
        }
    }

    /// `$0.path <op> value`, `$0.path.method(…)`, `$0.path.isEmpty`, …
    mutating func fieldCondition() throws(REPLSyntaxError) -> Condition {
        guard current.kind == .dollarZero else {
            if case .identifier(let name) = current.kind {
                throw REPLSyntaxError("expected a condition on a field such as $0.\(name) == …, found \(current.shown)", at: current.location)
            }
            if isLiteralToken {
                throw REPLSyntaxError("put the field on the left: $0.field == value (found \(current.shown))", at: current.location)
            }
            throw REPLSyntaxError("expected a condition such as $0.field == value, found \(current.shown)", at: current.location)
        }
        let pathStart = current.location
        lastComponent = nil
        let path = try fieldReference(stopAt: Self.fieldMethods.union(Self.fieldProperties))
        if current.isSymbol(.leftParen) || current.isSymbol(.leftBrace), let method = lastComponent, let name = method.identifier {
            return try fieldMethod(name, on: path, at: method, pathStart: pathStart)
        }
        if current.isSymbol(.dot) {
            try advance()
            let methodToken = current
            let method = try identifier("a method")
            return try fieldMethod(method, on: path, at: methodToken, pathStart: pathStart)
        }
        return try comparison(path)
    }

    var isLiteralToken: Bool {
        switch current.kind {
        case .integer, .real, .string: true
        case .symbol(.minus): true
        default: false
        }
    }

    /// `<op> value` after a field.
    mutating func comparison(_ path: FieldPath) throws(REPLSyntaxError) -> Condition {
        let operatorToken = current
        guard case .symbol(let symbol) = operatorToken.kind, let op = ComparisonOperator(rawValue: symbol.rawValue) else {
            if operatorToken.isSymbol(.assign) {
                throw REPLSyntaxError("'=' assigns: compare with '=='", at: operatorToken.location)
            }
            throw REPLSyntaxError("expected a comparison (==, !=, <, <=, >, >=) or a method after \(path.components.isEmpty ? "$0" : "$0." + path.description), found \(operatorToken.shown)", at: operatorToken.location)
        }
        try advance()
        let valueToken = current
        if valueToken.kind == .dollarZero {
            // `$0.H == $0.AB` said only "expected a value … found '$0'" (helper-59).
            throw REPLSyntaxError("a condition compares a field with a constant: comparing two fields of a document "
                + "isn't supported; compare each with a value, or select both and read them side by side", at: valueToken.location)
        }
        let value = try literal()
        switch value {
        case .null:
            switch op {
            case .equal: return .isNull(path)
            case .notEqual: return .not(.isNull(path))  // as the DSL builds `!= nil`
            default: throw REPLSyntaxError("nil can only be compared with == or !=", at: valueToken.location)
            }
        case .array, .object:
            throw REPLSyntaxError("compare with a single value; for arrays use .contains(…) or .in([…])", at: valueToken.location)
        case .exactNumber:
            noteRounded([value], at: valueToken.location)
            return .compare(path, op, value)
        default:
            return .compare(path, op, value)
        }
    }

    /// `.hasPrefix("x")`, `.contains(v)`, `.in([…])`, `.any { }`, `.isEmpty`, `.count > 2`, `.exists`
    mutating func fieldMethod(_ method: String, on path: FieldPath, at token: Token, pathStart: SourceLocation) throws(REPLSyntaxError) -> Condition {
        if Self.fieldProperties.contains(method) { try checkPropertyMeantAsField(method, on: path, at: token) }
        if Self.fieldMethods.contains(method), case .symbol(let symbol) = current.kind, ComparisonOperator(rawValue: symbol.rawValue) != nil {
            // `$0.all == true`: a method's name used as a field's.
            let prefix = path.components.isEmpty ? "$0" : "$0." + path.description
            throw REPLSyntaxError("\(prefix).\(method) is the method \(method)\(["any", "all"].contains(method) ? " { … }" : "(…)"), not a field: "
                + "for a field named \(method) write \(prefix)[\"\(method)\"]", at: token.location)
        }
        switch method {
        case "isEmpty":
            return .arrayCount(path, .equal, 0)
        case "exists":
            return .exists(path)
        case "count":
            let operatorToken = current
            guard case .symbol(let symbol) = operatorToken.kind, let op = ComparisonOperator(rawValue: symbol.rawValue) else {
                throw REPLSyntaxError("expected a comparison after .count (such as .count > 2), found \(operatorToken.shown)", at: operatorToken.location)
            }
            try advance()
            let valueToken = current
            guard case .integer(let value) = try literal(), let count = Int(exactly: value) else {
                throw REPLSyntaxError(".count compares with an integer", at: valueToken.location)
            }
            return .arrayCount(path, op, count)
        case "hasPrefix", "hasSuffix":
            try expect(.leftParen)
            let text = try stringArgument(method)
            let caseInsensitive = try caseInsensitiveOption()
            try expect(.rightParen)
            return .string(path, method == "hasPrefix" ? .hasPrefix : .hasSuffix, text, caseInsensitive: caseInsensitive)
        case "matches":
            // Full-text search: the text is checked (quotes balanced, some word)
            // when the query runs, with the collection and field in the error.
            try expect(.leftParen)
            let text = try stringArgument(method)
            try expect(.rightParen)
            return .matches(path, text)
        case "arrayContains":
            try expect(.leftParen)
            let valueToken = current
            let value = try literal()
            noteRounded([value], at: valueToken.location)
            try expect(.rightParen)
            return .arrayContains(path, value)
        case "contains":
            try expect(.leftParen)
            let valueToken = current
            let value = try literal()
            noteRounded([value], at: valueToken.location)
            let caseInsensitive = try caseInsensitiveOption()
            try expect(.rightParen)
            return try contains(value, in: path, caseInsensitive: caseInsensitive, at: valueToken)
        case "in":
            try expect(.leftParen)
            let listToken = current
            let condition = try inArgument(path)
            if case .isIn(_, let values) = condition { noteRounded(values, at: listToken.location) }
            try expect(.rightParen)
            return condition
        case "any", "all":
            // Inside the closure `$0` is the element: its paths are relative to it,
            // and the collection's fields no longer apply.
            let outer = collection
            collection = nil
            defer { collection = outer }
            let inner = try conditionBlock()
            return method == "any" ? .any(path, inner) : .all(path, inner)
        default:
            var message = "unknown method '\(method)' on a field"
            let all = Self.fieldMethods.union(Self.fieldProperties)
            if let suggestion = NameSuggestion.closest(to: method, in: all.sorted()) {
                message += "; did you mean '\(suggestion)'?"
            } else {
                message += " (fields have hasPrefix, hasSuffix, contains, matches, in, any, all, isEmpty, count, exists)"
            }
            throw REPLSyntaxError(message, at: token.location)
        }
    }

    /// `count`, `isEmpty` and `exists` after a field are the DSL's array and
    /// existence tests, never a field of that name: on `$0` itself (a document,
    /// not an array) that is an error, and where the sampled documents have a
    /// field of that name, a warning. Both show how to name the field.
    mutating func checkPropertyMeantAsField(_ name: String, on path: FieldPath, at token: Token) throws(REPLSyntaxError) {
        let prefix = path.components.isEmpty ? "$0" : "$0." + path.description
        let field = "\(prefix)[\"\(name)\"]"
        let test = switch name {
        case "count": "counts the elements of an array"
        case "isEmpty": "tests for an empty array"
        default: "tests whether a field exists"
        }
        if path.components.isEmpty {
            throw REPLSyntaxError("$0.\(name) \(test), and $0 is the whole document: for a field named \(name) write \(field)", at: token.location)
        }
        if let collection, schema.fieldTypes(in: collection)[path.appending(FieldPath([.key(name)]))] != nil {
            warnings.append(REPLSyntaxError("\(prefix).\(name) \(test) (\(prefix)), not the field named \(name) that sampled documents have: write \(field) for the field", at: token.location))
        }
    }

    mutating func stringArgument(_ method: String) throws(REPLSyntaxError) -> String {
        guard case .string(let text) = current.kind else {
            throw REPLSyntaxError("\(method) takes a string, found \(current.shown)", at: current.location)
        }
        try advance()
        return text
    }

    /// `, caseInsensitive: true`
    mutating func caseInsensitiveOption() throws(REPLSyntaxError) -> Bool {
        guard try accept(.comma) else { return false }
        guard try acceptLabel("caseInsensitive") else {
            throw REPLSyntaxError("expected 'caseInsensitive:', found \(current.shown)", at: current.location)
        }
        return try boolLiteral()
    }

    /// `contains` is a string's substring test or an array's membership test. The
    /// typed DSL knows which from the field's type; here the sampled documents tell.
    /// When they don't (a field never seen, or seen as both), the condition tests
    /// both ways, which means the same: a substring test is false on an array and
    /// a membership test false on a string.
    func contains(_ value: JSONValue, in path: FieldPath, caseInsensitive: Bool, at token: Token) throws(REPLSyntaxError) -> Condition {
        guard case .string(let text) = value else {
            if caseInsensitive {
                throw REPLSyntaxError("caseInsensitive applies to strings only", at: token.location)
            }
            return .arrayContains(path, value)
        }
        let types = collection.map { schema.fieldTypes(in: $0)[path] ?? [] } ?? []
        let isString = types.contains("text"), isArray = types.contains("array")
        if caseInsensitive || (isString && !isArray) {
            return .string(path, .contains, text, caseInsensitive: caseInsensitive)
        }
        if isArray && !isString { return .arrayContains(path, value) }
        return .or([.string(path, .contains, text, caseInsensitive: false), .arrayContains(path, value)])
    }

    /// `[1, 2]` (a `nil` among them also matches a missing field, as in the DSL),
    /// or a subquery as the DSL writes it: `teams.filter { … }` (its keys) or
    /// `teams.filter { … }, selecting: \.city` (that field's values).
    mutating func inArgument(_ path: FieldPath) throws(REPLSyntaxError) -> Condition {
        if let name = current.identifier, !["true", "false", "nil"].contains(name) {
            let nameToken = current
            try advance()
            try checkCollectionExists(name, at: nameToken.location)
            let outer = collection
            collection = name
            defer { collection = outer }
            var condition = Condition.always
            while try accept(.dot) {
                let methodToken = current
                let method = try identifier("filter")
                switch method {
                case "filter": condition = Self.conjunction(condition, try conditionBlock())
                case "query": continue
                default:
                    throw REPLSyntaxError("a subquery is coll.filter { … } (its keys), optionally followed by , selecting: \\.field; '\(method)' can't be used here", at: methodToken.location)
                }
            }
            var field: FieldPath?
            if try accept(.comma) {
                guard try acceptLabel("selecting") else {
                    throw REPLSyntaxError("expected 'selecting:', found \(current.shown)", at: current.location)
                }
                field = try keyPath()
            }
            return .isInSubquery(path, Subquery(collection: name, condition: condition, field: field))
        }
        let valueToken = current
        guard case .array(let values) = try literal() else {
            throw REPLSyntaxError("in takes an array of values: .in([1, 2])", at: valueToken.location)
        }
        let isIn = Condition.isIn(path, values.filter { !$0.isNull })
        return values.contains(where: \.isNull) ? .or([isIn, .isNull(path)]) : isIn
    }
}
