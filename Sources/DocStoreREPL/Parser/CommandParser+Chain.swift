import DocStore

/// Query chains: `coll.filter { … }.sorted { … }.limit(n).<action>`.
extension CommandParser {
    /// Methods that end a chain (nothing may follow them).
    static let terminalMethods: Set<String> = [
        "all", "fetch", "first", "count", "exists", "contains", "keys", "min", "max", "sum",
        "average", "distinctValues", "distinct", "countBy", "delete", "update", "explain",
    ]
    /// Every method a collection or a chain offers, for suggestions and completion.
    public static let methodNames: [String] = [
        "filter", "sorted", "limit", "offset", "query", "group", "join", "joinAll", "all", "first", "count", "exists", "contains", "keys", "select",
        "min", "max", "sum", "average", "distinctValues", "distinct", "countBy", "delete", "update", "explain",
        "get", "insert", "save", "deleteAll", "createIndex", "dropIndex", "indexes",
        "createSearchIndex", "dropSearchIndex", "rebuildSearchIndexes", "createFieldColumns", "dropFieldColumns",
        "renameField", "copyField", "removeField", "setDefault",
    ]

    mutating func chain(collection name: String, firstMethod: Token) throws(REPLSyntaxError) -> REPLCommand {
        // `query` is the segment of filters, sorts and limits being read: the
        // collection's, or (once a group, join or select has begun a pipeline)
        // the one after the last stage.
        var query = DocumentQuery()
        var source: DocumentQuery?
        var stages: [PipelineStage] = []
        func begin(_ stage: PipelineStage) {
            if source == nil {
                source = query
            } else if query != DocumentQuery() {
                stages.append(.refine(query))
            }
            query = DocumentQuery()
            stages.append(stage)
        }
        var action = QueryAction.fetch
        var methodToken = firstMethod
        var terminal: String?
        while true {
            guard let method = methodToken.identifier else {
                throw REPLSyntaxError("expected a method name, found \(methodToken.shown)", at: methodToken.location)
            }
            if let terminal {
                throw REPLSyntaxError(".\(terminal)() ends the query: nothing can follow it", at: methodToken.location)
            }
            if Self.terminalMethods.contains(method) { terminal = method }
            switch method {
            case "filter":
                query.condition = Self.conjunction(query.condition, try conditionBlock())
            case "sorted":
                if current.isSymbol(.leftParen), try labelAfterParenthesis(["byRelevanceTo"]) != nil {
                    // `sorted(byRelevanceTo: "text")`, `sorted(byRelevanceTo: "text", in: \.field)`
                    query.relevance = try relevanceArguments(query.condition, at: methodToken, pipelineStarted: source != nil)
                } else {
                    // As in the DSL (and Swift's stable sort): a later sort decides first.
                    query.sort = try sortArguments() + query.sort
                }
            case "limit":
                try expect(.leftParen)
                query.limit = try count("limit")
                if try accept(.comma) {
                    guard try acceptLabel("offset") else {
                        throw REPLSyntaxError("expected 'offset:', found \(current.shown)", at: current.location)
                    }
                    query.offset = try count("offset")
                }
                try expect(.rightParen)
            case "offset":
                try expect(.leftParen)
                query.offset = try count("offset")
                try expect(.rightParen)
            case "all", "fetch":
                try emptyArguments(method)
            case "query":
                break  // `players.query.max(\.number)`: the DSL's whole-collection query.
            case "first", "count", "exists", "contains":
                // `contains { … }` is the DSL's collection-level `exists`.
                action = method == "first" ? .first : method == "count" ? .count : .exists
                if current.isSymbol(.leftBrace) {
                    query.condition = Self.conjunction(query.condition, try conditionBlock())
                } else if method == "count", current.isSymbol(.leftParen), let label = try labelAfterParenthesis(["groupedBy", "by"]) {
                    _ = label
                    action = .aggregate(.countBy(try keyPath()))
                    try expect(.rightParen)
                } else if method == "contains" {
                    throw REPLSyntaxError("contains takes a condition block: \(name).contains { $0.field == value }", at: current.location)
                } else {
                    try emptyArguments(method)
                }
            case "keys":
                try emptyArguments(method)
                action = .keys
            case "select":
                begin(.select(try selectItems()))
                collection = nil  // the rows now have the selected names only
            case "group":
                let (grouping, computed) = try groupArguments()
                begin(.group(grouping))
                if let computed { begin(.select(computed)) }
                collection = nil
            case "join", "joinAll":
                begin(.join(try joinArguments(many: method == "joinAll")))
                collection = nil
            case "distinctValues":
                try expect(.leftParen)
                guard try acceptLabel("of") else {
                    throw REPLSyntaxError("expected 'of:' as in distinctValues(of: \\.field), found \(current.shown)", at: current.location)
                }
                let field = try keyPath()
                try expect(.rightParen)
                action = .aggregate(.distinct(field))
            case "min", "max", "sum", "average", "distinct", "countBy":
                let field = try fieldArgument(method)
                let aggregate: Aggregate = switch method {
                case "min": .min(field)
                case "max": .max(field)
                case "sum": .sum(field)
                case "average": .average(field)
                case "distinct": .distinct(field)
                default: .countBy(field)
                }
                action = .aggregate(aggregate)
            case "delete":
                if current.isSymbol(.leftBrace) {
                    query.condition = Self.conjunction(query.condition, try conditionBlock())
                } else {
                    try emptyArguments(method)
                }
                action = .delete
            case "update":
                action = .update(try updateBlock())
            case "explain":
                try emptyArguments(method)
                action = .explain
            case "get", "insert", "save", "deleteAll", "createIndex", "dropIndex", "indexes",
                 "createSearchIndex", "dropSearchIndex", "rebuildSearchIndexes", "createFieldColumns", "dropFieldColumns",
                 "renameField", "copyField", "removeField", "setDefault":
                throw REPLSyntaxError(".\(method) works on the collection itself: \(name).\(method)(…), not after a query", at: methodToken.location)
            default:
                var message = "unknown method '\(method)'"
                if let suggestion = NameSuggestion.closest(to: method, in: Self.methodNames) {
                    message += "; did you mean '\(suggestion)'?"
                } else {
                    message += " (.help lists the methods)"
                }
                throw REPLSyntaxError(message, at: methodToken.location)
            }
            if current.kind == .end { break }
            if case .symbol(let symbol) = current.kind, [.rightBrace, .rightParen, .rightBracket].contains(symbol) {
                throw REPLSyntaxError("unexpected '\(symbol.rawValue)': nothing is open here", at: current.location)
            }
            try expect(.dot, "before the next method")
            methodToken = current
            try advance()
        }
        guard let source else { return .query(collection: name, query, action) }
        if query != DocumentQuery() { stages.append(.refine(query)) }
        // A select of plain fields alone is the collection's own select.
        // Not when two columns would have one name as a string (a composed and
        // a decomposed "é"): printed as objects they were one member, one value
        // lost (helper-47); the pipeline refuses such columns by name.
        if stages.count == 1, case .select(let items) = stages[0], action == .fetch,
           let paths = Self.plainFields(items), Set(paths.map(\.description)).count == Set(paths).count {
            return .query(collection: name, source, .select(paths))
        }
        let pipeline = QueryPipeline(source, stages: stages)
        switch action {
        case .fetch: return .pipeline(collection: name, pipeline, .rows)
        case .first: return .pipeline(collection: name, pipeline, .first)
        case .count: return .pipeline(collection: name, pipeline, .count)
        case .explain: return .pipeline(collection: name, pipeline, .explain)
        default:
            throw REPLSyntaxError("after group, join or select, a query ends with .count(), .first() or .explain() (or nothing)", at: methodToken.location)
        }
    }

    /// `(label: ` with one of `labels`, consumed when present; returns the label.
    mutating func labelAfterParenthesis(_ labels: [String]) throws(REPLSyntaxError) -> String? {
        let saved = (lexer, current)
        try advance()
        for label in labels where try acceptLabel(label) { return label }
        (lexer, current) = saved
        return nil
    }

    // The typed DSL's combinators, mirrored so that the same text builds the same
    // AST (Sources/DocStore/DSL/DocumentCondition.swift): ANDs flatten and drop
    // `.always`, ORs flatten, one condition stands for itself, `!!c` is `c`.

    /// Every condition: `.always` for none, the condition itself for one.
    static func conjunction(_ parts: [Condition]) -> Condition {
        let parts = parts.flatMap { part -> [Condition] in
            switch part {
            case .always: []
            case .and(let inner): inner
            default: [part]
            }
        }
        return parts.isEmpty ? .always : parts.count == 1 ? parts[0] : .and(parts)
    }

    /// Two filters on one chain mean both.
    static func conjunction(_ a: Condition, _ b: Condition) -> Condition {
        conjunction([a, b])
    }

    /// Any of the conditions: `.or([])` (false) for none, the condition itself for one.
    static func disjunction(_ parts: [Condition]) -> Condition {
        let parts = parts.flatMap { part -> [Condition] in
            if case .or(let inner) = part, !inner.isEmpty { return inner }
            return [part]
        }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    /// The opposite: `!!c` is `c`.
    static func negation(_ condition: Condition) -> Condition {
        if case .not(let inner) = condition { return inner }
        return .not(condition)
    }

    /// A non-negative integer argument.
    mutating func count(_ what: String) throws(REPLSyntaxError) -> Int {
        let token = current
        guard case .integer(let value) = token.kind, let result = Int(exactly: value) else {
            throw REPLSyntaxError("\(what) takes a non-negative integer, found \(token.shown)", at: token.location)
        }
        try advance()
        return result
    }

    /// `{ $0.a; $0.b.descending }` or `(by: \.a)`.
    mutating func sortArguments() throws(REPLSyntaxError) -> [SortKey] {
        if try accept(.leftParen) {
            _ = try acceptLabel("by")
            var keys: [SortKey] = []
            repeat { keys.append(SortKey(try keyPath())) } while try accept(.comma)
            try expect(.rightParen)
            return keys
        }
        return try block("sort keys") { (parser: inout CommandParser) throws(REPLSyntaxError) -> SortKey in
            let path = try parser.fieldReference(stopAt: ["descending", "ascending"])
            var descending = false
            if parser.current.isSymbol(.dot) {
                try parser.advance()
                let word = try parser.identifier("'descending' or 'ascending'")
                descending = word == "descending"
            }
            return SortKey(path, descending: descending)
        }
    }

    /// `(\.x)` or `{ $0.x }`.
    mutating func fieldArgument(_ method: String) throws(REPLSyntaxError) -> FieldPath {
        if try accept(.leftParen) {
            let path = try keyPath()
            try expect(.rightParen)
            return path
        }
        let open = current
        guard current.isSymbol(.leftBrace) else {
            throw REPLSyntaxError("\(method) takes a field: \(method)(\\.field) or \(method) { $0.field }", at: current.location)
        }
        try advance()
        let path = try fieldReference(stopAt: [])
        try closeBrace(openedAt: open)
        return path
    }

    /// The DSL's `{ $0.a.set(to: 1); $0.n.increment(by: 2); $0.b.remove() }`, or the
    /// REPL's shorthand `{ $0.a = 1; $0.n += 2; $0.n -= 1; $0.b = nil }` (`= nil`
    /// removes the field, as assigning nil to an optional drops it when encoded;
    /// `set(to: nil)` stores null, as in the DSL).
    mutating func updateBlock() throws(REPLSyntaxError) -> [FieldUpdate] {
        let updates = try block("changes") { (parser: inout CommandParser) throws(REPLSyntaxError) -> FieldUpdate in
            let path = try parser.fieldReference(stopAt: ["set", "increment", "remove"])
            if parser.current.isSymbol(.dot) {
                try parser.advance()
                let method = try parser.identifier("set, increment or remove")
                try parser.expect(.leftParen)
                let update: FieldUpdate
                switch method {
                case "set":
                    guard try parser.acceptLabel("to") else {
                        throw REPLSyntaxError("expected 'to:' as in set(to: value), found \(parser.current.shown)", at: parser.current.location)
                    }
                    update = .set(path, try parser.valueArgument())
                case "increment":
                    guard try parser.acceptLabel("by") else {
                        throw REPLSyntaxError("expected 'by:' as in increment(by: 1), found \(parser.current.shown)", at: parser.current.location)
                    }
                    let valueToken = parser.current
                    let amount = try parser.literal()
                    guard amount.numberValue != nil else {
                        throw REPLSyntaxError("increment takes a number, found \(amount.typeName)", at: valueToken.location)
                    }
                    update = .increment(path, amount)
                default:
                    update = .remove(path)
                }
                try parser.expect(.rightParen)
                return update
            }
            let operatorToken = parser.current
            guard case .symbol(let symbol) = operatorToken.kind, [.assign, .plusAssign, .minusAssign].contains(symbol) else {
                throw REPLSyntaxError("expected .set(to:), .increment(by:), .remove(), '=', '+=' or '-=' after the field, found \(operatorToken.shown)", at: operatorToken.location)
            }
            try parser.advance()
            let valueToken = parser.current
            let value = symbol == .assign ? try parser.valueArgument() : try parser.literal()
            switch symbol {
            case .assign:
                return value.isNull ? .remove(path) : .set(path, value)
            default:
                guard value.numberValue != nil else {
                    throw REPLSyntaxError("\(symbol.rawValue) takes a number, found \(value.typeName)", at: valueToken.location)
                }
                if case .exactNumber(let number) = value {
                    // An increment adds in Int64 or Double arithmetic, which would round it.
                    throw REPLSyntaxError("\(symbol.rawValue) adds an integer or a Double, and \(number) is neither exactly (a Double would round it); set the field to the value you want instead", at: valueToken.location)
                }
                if symbol == .plusAssign { return .increment(path, value) }
                switch value {
                case .integer(let i) where i != .min: return .increment(path, .integer(-i))
                case .double(let d): return .increment(path, .double(-d))
                default: throw REPLSyntaxError("number out of range", at: valueToken.location)
                }
            }
        }
        guard !updates.isEmpty else {
            throw REPLSyntaxError("update needs at least one change: update { $0.field.set(to: value) }", at: current.location)
        }
        return updates
    }

    /// `{ item; item \n item }`: items separated by `;` or line breaks.
    mutating func block<Item>(_ what: String, _ item: (inout CommandParser) throws(REPLSyntaxError) -> Item) throws(REPLSyntaxError) -> [Item] {
        let open = current
        try expect(.leftBrace, "to open the \(what)")
        try nest()
        defer { unnest() }
        var items: [Item] = []
        while true {
            while try accept(.semicolon) {}
            if current.isSymbol(.rightBrace) || current.kind == .end { break }
            items.append(try item(&self))
            if current.kind == .end { break }
            if current.isSymbol(.semicolon) || current.followsNewline || current.isSymbol(.rightBrace) { continue }
            throw REPLSyntaxError("expected ';', a new line or '}' after the \(what.hasSuffix("s") ? String(what.dropLast()) : what), found \(current.shown)", at: current.location)
        }
        try closeBrace(openedAt: open)
        return items
    }

    mutating func closeBrace(openedAt open: Token) throws(REPLSyntaxError) {
        guard current.isSymbol(.rightBrace) else {
            let whereOpened = open.location.line == current.location.line
                ? "column \(open.location.column)" : "\(open.location)"
            throw REPLSyntaxError("expected '}' to close the '{' at \(whereOpened), found \(current.shown)", at: current.location)
        }
        try advance()
    }
}
