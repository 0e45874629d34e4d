import DocStore

/// Groups, joins and computed selects, written as in the Swift DSL:
///
///     batting.group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }
///     batting.join(people, on: \.playerID, as: \.player)
///     teams.select { ($0.name, pct: Double($0.W) / Double($0.W + $0.L)) }
extension CommandParser {
    /// `(by: \.a, \.b) { (name: $0.sum(\.x), n: $0.count()) }`; the block may be left out.
    /// Items may compute with aggregates (`rate: $0.sum(\.H) / $0.sum(\.AB)`): the
    /// group then computes the aggregates under hidden names and a select stage
    /// computes the items from them, with the keys.
    mutating func groupArguments() throws(REPLSyntaxError) -> (Grouping, [NamedExpression]?) {
        try expect(.leftParen)
        guard try acceptLabel("by") else {
            throw REPLSyntaxError("expected 'by:' as in group(by: \\.field), found \(current.shown)", at: current.location)
        }
        var keys: [FieldPath] = []
        repeat { keys.append(try keyPath()) } while try accept(.comma)
        try expect(.rightParen)
        guard current.isSymbol(.leftBrace) else { return (Grouping(keys: keys, aggregates: []), nil) }
        let open = current
        try advance()
        var items: [(label: String?, expression: ValueExpression, leaves: [GroupAggregate], token: Token)] = []
        func item(_ parser: inout CommandParser) throws(REPLSyntaxError) {
            let label = try parser.acceptAnyLabel()
            let token = parser.current
            parser.groupLeaves = []
            defer { parser.groupLeaves = nil }
            let expression = try parser.valueExpression()
            items.append((label, expression, parser.groupLeaves ?? [], token))
        }
        if try accept(.leftParen) {
            if !current.isSymbol(.rightParen) {
                repeat { try item(&self) } while try accept(.comma)
            }
            try expect(.rightParen, "to close the tuple of aggregates")
        } else if !current.isSymbol(.rightBrace) {
            try item(&self)
        }
        try closeBrace(openedAt: open)
        let plain = items.allSatisfy { $0.leaves.count == 1 && $0.expression == .field(FieldPath("#0")) }
        if plain {
            return (Grouping(keys: keys, aggregates: items.map { NamedAggregate($0.label ?? Self.name(of: $0.leaves[0]), $0.leaves[0]) }), nil)
        }
        // Computed items: hidden aggregates `#n`, then the keys and the items.
        if let nested = keys.first(where: { $0.components.count > 1 }) {
            throw REPLSyntaxError("values computed in the group need keys that are top-level fields (\(nested) isn't): compute them in a .select { … } after the group", at: open.location)
        }
        var aggregates: [NamedAggregate] = []
        var computed: [NamedExpression] = keys.map { NamedExpression($0.description, .field($0)) }
        for item in items {
            let offset = aggregates.count
            aggregates += item.leaves.enumerated().map { NamedAggregate("#\(offset + $0.offset)", $0.element) }
            let expression = Self.renumbered(item.expression, by: offset)
            if let label = item.label {
                computed.append(NamedExpression(label, expression))
            } else if item.leaves.count == 1, item.expression == .field(FieldPath("#0")) {
                computed.append(NamedExpression(Self.name(of: item.leaves[0]), expression))
            } else {
                throw REPLSyntaxError("name a computed value of the group: (rate: \u{2026})", at: item.token.location)
            }
        }
        return (Grouping(keys: keys, aggregates: aggregates), computed)
    }

    /// An unnamed aggregate's column name: its function's.
    static func name(of aggregate: GroupAggregate) -> String {
        switch aggregate {
        case .count, .countDistinct: "count"
        case .sum: "sum"
        case .average: "average"
        case .min: "min"
        case .max: "max"
        }
    }

    /// The expression with its hidden columns `#n` moved up by `offset`.
    static func renumbered(_ expression: ValueExpression, by offset: Int) -> ValueExpression {
        switch expression {
        case .field(let path):
            guard case .key(let name)? = path.components.first, name.hasPrefix("#"), let n = Int(name.dropFirst()) else { return expression }
            return .field(FieldPath("#\(n + offset)"))
        case .literal: return expression
        case let .arithmetic(op, lhs, rhs): return .arithmetic(op, renumbered(lhs, by: offset), renumbered(rhs, by: offset))
        case .double(let inner): return .double(renumbered(inner, by: offset))
        }
    }

    /// `$0.count()`, `$0.count(distinct: \.x)`, `$0.sum(\.x)`, `average`, `min`, `max`.
    mutating func groupAggregate() throws(REPLSyntaxError) -> GroupAggregate {
        let start = current
        guard start.kind == .dollarZero else {
            throw REPLSyntaxError("expected an aggregate of the group such as $0.count() or $0.sum(\\.field), found \(start.shown)", at: start.location)
        }
        try advance()
        try expect(.dot, "after $0 (the group)")
        let methodToken = current
        let method = try identifier("count, sum, average, min or max")
        switch method {
        case "count":
            try expect(.leftParen)
            let aggregate: GroupAggregate = try acceptLabel("distinct") ? .countDistinct(try keyPath()) : .count
            try expect(.rightParen)
            return aggregate
        case "sum": return .sum(try fieldArgument(method))
        case "average": return .average(try fieldArgument(method))
        case "min": return .min(try fieldArgument(method))
        case "max": return .max(try fieldArgument(method))
        default:
            throw REPLSyntaxError("a group offers count(), count(distinct:), sum, average, min and max, not '\(method)'", at: methodToken.location)
        }
    }

    /// `(other, on: \.field, as: \.name)` or `(other, on: \.field, equals: \.otherField, as: \.name)`;
    /// `equals: key` compares with the other collection's keys. `joinAll` (`many`)
    /// puts the array of every matching document in the member.
    mutating func joinArguments(many: Bool = false) throws(REPLSyntaxError) -> Join {
        try expect(.leftParen)
        let otherToken = current
        let other = try identifier("the collection to join")
        try checkCollectionExists(other, at: otherToken.location)
        try expect(.comma)
        guard try acceptLabel("on") else {
            throw REPLSyntaxError("expected 'on:' as in join(\(other), on: \\.field, as: \\.name), found \(current.shown)", at: current.location)
        }
        let field = try keyPath()
        guard try accept(.comma) else {
            throw REPLSyntaxError("expected ', as: \\.name' naming the member that holds the joined document, found \(current.shown)", at: current.location)
        }
        var target = Join.Target.field(field)
        if try acceptLabel("equals") {
            if current.identifier == "key" {
                try advance()
                target = .key
            } else {
                let outer = collection
                collection = other
                defer { collection = outer }
                target = .field(try keyPath())
            }
            try expect(.comma)
        }
        guard try acceptLabel("as") else {
            throw REPLSyntaxError("expected 'as:' naming the member that holds the joined document, found \(current.shown)", at: current.location)
        }
        let nameToken = current
        let outer = collection
        collection = nil  // a new member, not a field of either collection
        defer { collection = outer }
        let name = try keyPath()
        guard name.components.count == 1, case .key(let member) = name.components[0] else {
            throw REPLSyntaxError("the joined document goes in one member: as: \\.name", at: nameToken.location)
        }
        try expect(.rightParen)
        return Join(other, on: field, equals: target, as: member, many: many)
    }

    /// `{ ($0.a, name: $0.b * 2) }`, `{ $0.a }` or `(\.a, \.b)`.
    mutating func selectItems() throws(REPLSyntaxError) -> [NamedExpression] {
        if try accept(.leftParen) {
            var items: [NamedExpression] = []
            repeat {
                let path = try keyPath()
                items.append(NamedExpression(path.description, .field(path)))
            } while try accept(.comma)
            try expect(.rightParen)
            return items
        }
        let open = current
        try expect(.leftBrace, "or '(' after select")
        var items: [NamedExpression] = []
        if try accept(.leftParen) {
            repeat { items.append(try selectItem()) } while try accept(.comma)
            try expect(.rightParen, "to close the tuple")
        } else {
            items.append(try selectItem())
        }
        try closeBrace(openedAt: open)
        return items
    }

    /// `label: expression` or `expression` (named by its field path, or its text).
    mutating func selectItem() throws(REPLSyntaxError) -> NamedExpression {
        let label = try acceptAnyLabel()
        let expression = try valueExpression()
        if let label { return NamedExpression(label, expression) }
        if case .field(let path) = expression { return NamedExpression(path.description, expression) }
        return NamedExpression(expression.description, expression)
    }

    /// `a + b * c`, with `+ -` below `* /`, left to right, as in Swift.
    mutating func valueExpression() throws(REPLSyntaxError) -> ValueExpression {
        try nest()
        defer { unnest() }
        var result = try valueTerm()
        while case .symbol(let symbol) = current.kind, symbol == .plus || symbol == .minus {
            try advance()
            result = .arithmetic(symbol == .plus ? .add : .subtract, result, try valueTerm())
        }
        return result
    }

    private mutating func valueTerm() throws(REPLSyntaxError) -> ValueExpression {
        var result = try valueFactor()
        while case .symbol(let symbol) = current.kind, symbol == .star || symbol == .slash {
            try advance()
            result = .arithmetic(symbol == .star ? .multiply : .divide, result, try valueFactor())
        }
        return result
    }

    private mutating func valueFactor() throws(REPLSyntaxError) -> ValueExpression {
        switch current.kind {
        case .dollarZero where groupLeaves != nil:
            let aggregate = try groupAggregate()
            groupLeaves?.append(aggregate)
            return .field(FieldPath("#\((groupLeaves?.count ?? 1) - 1)"))
        case .dollarZero:
            // `$0.bats.count` read as a field named count: null for every row,
            // silently. The filter's array tests have no computed form.
            let names = Self.fieldMethods.union(Self.fieldProperties)
            let path = try fieldReference(stopAt: names)
            if current.isSymbol(.dot) {
                var probe = lexer
                let name = (try? probe.next())?.identifier ?? ""
                let prefix = path.components.isEmpty ? "$0" : "$0." + path.description
                throw REPLSyntaxError("\(prefix).\(name) is a test of a filter, which a computed value can't use; "
                    + "for a field named \(name) write \(prefix)[\"\(name)\"]", at: current.location)
            }
            return .field(path)
        case .symbol(.leftParen):
            try advance()
            let inner = try valueExpression()
            try expect(.rightParen)
            return inner
        case .identifier("Double"):
            try advance()
            try expect(.leftParen, "after Double")
            let inner = try valueExpression()
            try expect(.rightParen)
            return .double(inner)
        case .symbol(.minus):
            var probe = lexer
            if let next = try? probe.next(), next.kind == .dollarZero || next.isSymbol(.leftParen) || next.identifier == "Double" {
                try advance()
                return .arithmetic(.subtract, .literal(.integer(0)), try valueFactor())
            }
            return .literal(try scalarLiteral())
        default:
            return .literal(try scalarLiteral())
        }
    }

    /// `name:` when it comes next (an identifier then a colon): consumed, returned.
    mutating func acceptAnyLabel() throws(REPLSyntaxError) -> String? {
        guard let name = current.identifier else { return nil }
        return try acceptLabel(name) ? name : nil
    }

    /// The paths of a select of plain fields, each named by its path; nil otherwise.
    static func plainFields(_ items: [NamedExpression]) -> [FieldPath]? {
        var paths: [FieldPath] = []
        for item in items {
            guard case .field(let path) = item.expression, item.name == path.description else { return nil }
            paths.append(path)
        }
        return paths
    }
}
