@_spi(Backends) import DocStore
import OrderedCollections

/// Literals, field references (`$0.a.b[0]`), key paths (`\.a.b`) and JSON arguments.
extension CommandParser {
    /// A literal value: a string, a number, `true`, `false`, `nil`, or Swift's
    /// collection literals `[1, 2]` and `["key": value]` (`[:]` is an empty object).
    mutating func literal() throws(REPLSyntaxError) -> JSONValue {
        guard current.isSymbol(.leftBracket) else { return try scalarLiteral() }
        try nest()
        defer { unnest() }
        let open = current
        try advance()
        if try accept(.colon) {
            try expect(.rightBracket, "to close the empty dictionary [:]")
            return .object([:])
        }
        if try accept(.rightBracket) { return .array([]) }
        let first = try literal()
        if try accept(.colon) {
            var members = OrderedDictionary<String, JSONValue>()
            var key = first
            var keyToken = open
            while true {
                guard case .string(let name) = key else {
                    throw REPLSyntaxError("dictionary keys are strings", at: keyToken.location)
                }
                // As Swift refuses a literal with a key twice; a key equal as a
                // string but not in bytes (composed and decomposed "é") too,
                // since the document could keep only one of them.
                if let index = members.index(forKey: name) {
                    let earlier = members.keys[index]
                    throw REPLSyntaxError(ExactText.same(earlier, name)
                        ? "duplicate dictionary key \"\(name)\": a dictionary (a JSON object) holds each key once"
                        : JanssonJSON.canonicalRepeatReason(earlier, name), at: keyToken.location)
                }
                members[name] = try literal()
                guard try accept(.comma), !current.isSymbol(.rightBracket) else { break }
                keyToken = current
                key = try literal()
                try expect(.colon, "after the dictionary key")
            }
            try expect(.rightBracket, "to close the dictionary opened at \(open.location)")
            return .object(members)
        }
        var elements = [first]
        while try accept(.comma), !current.isSymbol(.rightBracket) {
            elements.append(try literal())
        }
        try expect(.rightBracket, "to close the array opened at \(open.location)")
        return .array(elements)
    }

    /// A value to store (`set(to:)`, `=`): a ``literal()``, or JSON text for an
    /// object or an array (`{"hr": 73}`, `[{"year": 2001}]`), parsed by jansson.
    mutating func valueArgument() throws(REPLSyntaxError) -> JSONValue {
        if current.isSymbol(.leftBracket) {
            // Swift's `[1, 2]` and `["k": v]` first; JSON (objects inside) otherwise.
            var probe = self
            if let value = try? probe.literal() {
                self = probe
                return value
            }
        } else if !current.isSymbol(.leftBrace) {
            return try literal()
        }
        lexer.rewind(to: current.offset)
        let (text, start) = try lexer.rawJSON(endingAtClose: true)
        let value: JSONValue
        do {
            value = try JanssonJSON.parse(text)
        } catch {
            throw REPLSyntaxError("invalid JSON: \(error.reason)", at: Self.offset(error.location, from: start))
        }
        try advance()
        return value
    }

    /// `-value` for a number literal; exact digits keep their sign in their
    /// text, and become an integer when they fit one (`-9223372036854775808`).
    static func negated(_ value: JSONValue) -> JSONValue {
        switch value {
        case .double(let number): .double(-number)
        case .exactNumber(let number):
            JSONNumberLiteral(number.text.hasPrefix("-") ? String(number.text.dropFirst()) : "-" + number.text)?.value ?? value
        default: value
        }
    }

    /// A string, number, `true`, `false` or `nil`.
    mutating func scalarLiteral() throws(REPLSyntaxError) -> JSONValue {
        let token = current
        switch token.kind {
        case .string(let text):
            try advance()
            return .string(text)
        case .integer(let value):
            try advance()
            return .integer(value)
        case .real(let value):
            try advance()
            return value
        case .symbol(.minus):
            try advance()
            let number = current
            switch number.kind {
            case .integer(let value):
                try advance()
                return .integer(-value)
            case .real(let value):
                try advance()
                return Self.negated(value)
            default:
                throw REPLSyntaxError("expected a number after '-', found \(number.shown)", at: number.location)
            }
        case .identifier("true"):
            try advance()
            return .bool(true)
        case .identifier("false"):
            try advance()
            return .bool(false)
        case .identifier("nil"):
            try advance()
            return .null
        case .identifier("null"):
            throw REPLSyntaxError("write nil, as in Swift, not null", at: token.location)
        case .symbol(.dot):
            // `.shortstop`: an enum case of the typed DSL.
            var probe = lexer
            if let next = try? probe.next(), let name = next.identifier {
                throw REPLSyntaxError("the REPL has no Swift types: write the enum case as a string literal, \"\(name)\" (its raw value)", at: token.location)
            }
            throw REPLSyntaxError("expected a value, found \(token.shown)", at: token.location)
        default:
            throw REPLSyntaxError("expected a value (a string, a number, true, false or nil), found \(token.shown)", at: token.location)
        }
    }

    /// `$0.a.b[0]["odd key"]`, stopping before `.word` when `word` is in `stopAt`
    /// (a method or property such as `hasPrefix`, `isEmpty`, `descending`).
    mutating func fieldReference(stopAt: Set<String>) throws(REPLSyntaxError) -> FieldPath {
        let start = current
        guard start.kind == .dollarZero else {
            if let name = start.identifier {
                throw REPLSyntaxError("expected a field such as $0.\(name), found \(start.shown)", at: start.location)
            }
            throw REPLSyntaxError("expected a field such as $0.name, found \(start.shown)", at: start.location)
        }
        try advance()
        let path = try pathComponents(stopAt: stopAt)
        checkField(path, at: start.location)
        return path
    }

    /// `\.a.b[0]`: a Swift key path.
    mutating func keyPath() throws(REPLSyntaxError) -> FieldPath {
        let start = current
        guard start.isSymbol(.backslash) else {
            if start.kind == .dollarZero {
                throw REPLSyntaxError("write a key path here: \\.field (or use the closure form { $0.field })", at: start.location)
            }
            throw REPLSyntaxError("expected a key path such as \\.field, found \(start.shown)", at: start.location)
        }
        try advance()
        guard current.isSymbol(.dot) || current.isSymbol(.leftBracket) else {
            throw REPLSyntaxError("expected '.' after '\\' in a key path, found \(current.shown)", at: current.location)
        }
        let path = try pathComponents(stopAt: [])
        guard !path.components.isEmpty else {
            throw REPLSyntaxError("a key path needs a field: \\.field", at: start.location)
        }
        checkField(path, at: start.location)
        return path
    }

    /// `.name`, `[0]`, `["key"]`, repeated.
    mutating func pathComponents(stopAt: Set<String>) throws(REPLSyntaxError) -> FieldPath {
        var components: [FieldPath.Component] = []
        while true {
            if current.isSymbol(.dot) {
                var probe = lexer
                let next = try probe.next()
                guard let name = next.identifier else {
                    throw REPLSyntaxError("expected a field name after '.', found \(next.shown)", at: next.location)
                }
                if stopAt.contains(name), !next.isEscaped { break }
                try advance()
                lastComponent = current
                try advance()
                components.append(.key(name))
            } else if current.isSymbol(.leftBracket), !current.followsNewline {
                try advance()
                let token = current
                switch token.kind {
                case .integer(let index):
                    guard let position = Int(exactly: index) else {
                        throw REPLSyntaxError("array position out of range", at: token.location)
                    }
                    components.append(.index(position))
                case .string(let key):
                    components.append(.key(key))
                default:
                    throw REPLSyntaxError("expected an array position or a quoted member name in brackets, found \(token.shown)", at: token.location)
                }
                try advance()
                try expect(.rightBracket)
            } else {
                break
            }
        }
        return FieldPath(components)
    }

    /// Warns about a field that no sampled document of the collection has and no
    /// index is on, suggesting the closest field that exists (`FieldWarning`).
    /// Only a warning: sampling can't prove a field absent, and
    /// `$0.nickname == nil` on a missing field is valid.
    mutating func checkField(_ path: FieldPath, at location: SourceLocation) {
        guard let collection, !path.components.isEmpty else { return }
        if let warning = FieldWarning.check(path, collection: collection, knownFields: schema.fieldTypes(in: collection).keys,
                                            indexedFields: schema.indexedFields(in: collection),
                                            sampledEveryDocument: schema.sampledEveryDocument(in: collection)) {
            warnings.append(REPLSyntaxError(warning.description, at: location))
        }
    }

    /// `({…})` or `([{…}, {…}])`: JSON documents, parsed by jansson (so the text
    /// is real JSON, and its errors come back at the right line and column).
    mutating func documentsArgument() throws(REPLSyntaxError) -> [JSONValue] {
        guard current.isSymbol(.leftParen) else {
            throw REPLSyntaxError("expected '(' and a JSON document, found \(current.shown)", at: current.location)
        }
        let (text, start) = try lexer.rawJSON()
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw REPLSyntaxError("expected a JSON document: insert({\"id\": 1, …})", at: start)
        }
        let value: JSONValue
        do {
            value = try JanssonJSON.parse(text)
        } catch {
            throw REPLSyntaxError("invalid JSON: \(error.reason)", at: Self.offset(error.location, from: start))
        }
        try advance()
        try expect(.rightParen, "after the JSON document")
        switch value {
        case .object:
            return [value]
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                guard case .object = element else {
                    throw REPLSyntaxError("element \(index) of the array is \(element.typeName), not a JSON object", at: start)
                }
            }
            return elements
        default:
            throw REPLSyntaxError("a document is a JSON object {…}, not \(value.typeName)", at: start)
        }
    }

    /// A location inside embedded text, made relative to the whole input.
    static func offset(_ inner: SourceLocation, from start: SourceLocation) -> SourceLocation {
        inner.line <= 1
            ? SourceLocation(line: start.line, column: start.column + max(0, inner.column - 1))
            : SourceLocation(line: start.line + inner.line - 1, column: inner.column)
    }
}
