@_spi(Backends) import DocStore

/// Parses REPL text into a ``REPLCommand``: dot-commands (`.schema players`) and
/// statements on a collection written in the Swift DSL's syntax
/// (`players.filter { $0.teamId == 1 }.sorted { $0.lastName }.limit(5)`), which
/// become the same ``DocumentQuery`` AST the typed DSL builds.
///
/// A hand-written recursive-descent parser: it never traps on any input, and every
/// error carries the line and column where the input went wrong.
public struct CommandParser {
    var lexer: Lexer
    var current: Token
    let schema: any SchemaProvider
    /// Non-fatal findings: fields that no sampled document has.
    var warnings: [REPLSyntaxError] = []
    /// Numbers a Double would round that conditions compare with, where they are.
    var roundedComparisons: [(JSONNumberLiteral, SourceLocation)] = []
    /// The collection the statement is about (for field checks).
    var collection: String?
    /// How deep blocks and calls are nested, bounded so that `((((…` input can't
    /// exhaust the stack.
    var depth = 0
    /// The last member name read in a path: when a call follows it, it was
    /// meant as a method (`$0.name.hasPrefx("O")`), and the error points there.
    var lastComponent: Token?
    /// Inside a group's tuple: the aggregates an item's arithmetic has read so far
    /// (`$0.sum(\.H) / $0.count()`), each standing for a column `#n`.
    var groupLeaves: [GroupAggregate]?
    static let maximumDepth = 64

    /// Parses one command.
    ///
    /// - Parameters:
    ///   - text: One line, or several when a block spans lines.
    ///   - schema: The store's collections and sampled fields, for suggestions.
    /// - Throws: ``REPLSyntaxError`` with the location of the problem.
    public static func parse(_ text: String, schema: any SchemaProvider = StaticSchema()) throws(REPLSyntaxError) -> ParsedCommand {
        if let dotCommand = try DotCommandParser.parse(text, schema: schema) {
            return dotCommand
        }
        var parser = try CommandParser(text, schema: schema)
        let command = try parser.statement()
        try parser.checkRoundedNumbers(writing: command.writes)
        return ParsedCommand(command, warnings: parser.warnings)
    }

    /// Notes the numbers among `values` a Double can't hold exactly.
    mutating func noteRounded(_ values: [JSONValue], at location: SourceLocation) {
        for case .exactNumber(let number) in values where number.isReadRounded {
            roundedComparisons.append((number, location))
        }
    }

    /// A comparison with a number a Double would round (`== 99999999999999999998`)
    /// matches, on a file, every document whose number rounds the same (SQLite
    /// reads them as Doubles; PostgreSQL compares exactly): a delete or update
    /// would change documents it doesn't name, so it is refused; a read warns.
    mutating func checkRoundedNumbers(writing: Bool) throws(REPLSyntaxError) {
        guard let (number, location) = roundedComparisons.first, schema.comparesNumbersAsDoubles() else { return }
        let rounded = "\(number.doubleValue)"
        let text = "\(number.text) is past what a Double holds exactly, and a file store compares it as its nearest Double, \(rounded): documents holding other numbers that round to it match too"
        if writing {
            throw REPLSyntaxError(text + "; this command would change them, so it is refused (name the documents by key, or compare with a range a Double holds)", at: location)
        }
        warnings.append(REPLSyntaxError(text, at: location))
    }

    init(_ text: String, schema: any SchemaProvider) throws(REPLSyntaxError) {
        lexer = Lexer(text)
        self.schema = schema
        current = try lexer.next()
    }

    // MARK: Token helpers

    mutating func advance() throws(REPLSyntaxError) {
        current = try lexer.next()
    }

    /// Consumes `symbol` or throws "expected …" at the current token.
    mutating func expect(_ symbol: Symbol, _ context: String = "") throws(REPLSyntaxError) {
        guard current.isSymbol(symbol) else {
            throw REPLSyntaxError("expected '\(symbol.rawValue)'\(context.isEmpty ? "" : " " + context), found \(current.shown)", at: current.location)
        }
        try advance()
    }

    /// Consumes `symbol` if it is next.
    mutating func accept(_ symbol: Symbol) throws(REPLSyntaxError) -> Bool {
        guard current.isSymbol(symbol) else { return false }
        try advance()
        return true
    }

    /// Consumes the identifier and returns it, or throws.
    mutating func identifier(_ what: String) throws(REPLSyntaxError) -> String {
        guard let name = current.identifier else {
            throw REPLSyntaxError("expected \(what), found \(current.shown)", at: current.location)
        }
        try advance()
        return name
    }

    /// Consumes `label:` when it is next.
    mutating func acceptLabel(_ label: String) throws(REPLSyntaxError) -> Bool {
        guard current.identifier == label else { return false }
        let saved = (lexer, current)
        try advance()
        if current.isSymbol(.colon) {
            try advance()
            return true
        }
        (lexer, current) = saved
        return false
    }

    mutating func nest() throws(REPLSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw REPLSyntaxError("nested too deeply (more than \(Self.maximumDepth) levels)", at: current.location)
        }
    }

    mutating func unnest() { depth -= 1 }

    // MARK: Statements

    /// `collection`, `collection.method(…)…`
    mutating func statement() throws(REPLSyntaxError) -> REPLCommand {
        if current.kind == .end { return .empty }
        let start = current
        guard let name = current.identifier else {
            if current.isSymbol(.leftBrace) || current.isSymbol(.leftBracket) {
                throw REPLSyntaxError("expected a collection name before the JSON: write coll.insert(\(current.isSymbol(.leftBrace) ? "{…}" : "[…]"))", at: current.location)
            }
            throw REPLSyntaxError("expected a collection name or a dot-command (.help lists them), found \(current.shown)", at: current.location)
        }
        try advance()
        collection = name
        if current.kind == .end {
            try checkCollectionExists(name, at: start.location)
            return .query(collection: name, DocumentQuery(), .fetch)
        }
        try expect(.dot, "and a method after the collection name")
        let methodToken = current
        let method = try identifier("a method name")
        let command: REPLCommand
        switch method {
        case "get":
            try checkCollectionExists(name, at: start.location)
            command = .get(collection: name, try keyArgument())
        case "insert":
            command = .insert(collection: name, try documentsArgument())
        case "save":
            command = .save(collection: name, try documentsArgument())
        case "delete" where !isEmptyCall() && !current.isSymbol(.leftBrace):
            try checkCollectionExists(name, at: start.location)
            command = .deleteKey(collection: name, try keyArgument())
        case "delete" where isEmptyCall():
            throw REPLSyntaxError("\(name).delete() would delete every document: write \(name).deleteAll() to mean it, or \(name).filter { … }.delete()", at: methodToken.location)
        case "deleteAll":
            try emptyArguments("deleteAll")
            command = .deleteAll(collection: name)
        case "createIndex":
            let (fields, unique) = try indexArguments(allowUnique: true)
            command = .createIndex(collection: name, fields: fields, unique: unique)
        case "dropIndex":
            command = .dropIndex(collection: name, fields: try indexArguments(allowUnique: false).fields)
        case "indexes":
            try emptyArguments("indexes")
            command = .indexes(collection: name)
        case "createSearchIndex":
            command = .createSearchIndex(collection: name, fields: try indexArguments(allowUnique: false).fields)
        case "dropSearchIndex":
            command = .dropSearchIndex(collection: name, fields: try indexArguments(allowUnique: false).fields)
        case "rebuildSearchIndexes":
            try emptyArguments("rebuildSearchIndexes")
            command = .rebuildSearchIndexes(collection: name)
        case "createFieldColumns":
            command = .createFieldColumns(collection: name, fields: try indexArguments(allowUnique: false).fields)
        case "dropFieldColumns":
            command = .dropFieldColumns(collection: name, fields: try indexArguments(allowUnique: false).fields)
        case _ where Self.fieldChangeMethods.contains(method):
            try checkCollectionExists(name, at: start.location)
            command = .changeField(collection: name, try fieldChange(method))
        default:
            try checkCollectionExists(name, at: start.location)
            command = try chain(collection: name, firstMethod: methodToken)
        }
        guard current.kind == .end else {
            throw REPLSyntaxError("unexpected \(current.shown) after the end of the command", at: current.location)
        }
        return command
    }

    /// Whether the next tokens are `()`, without consuming them.
    func isEmptyCall() -> Bool {
        guard current.isSymbol(.leftParen) else { return false }
        var probe = lexer
        return (try? probe.next())?.isSymbol(.rightParen) ?? false
    }

    /// `()` after `method`: a method written without it (`people.first`, as a
    /// Swift property would be) is told how the call reads.
    mutating func emptyArguments(_ method: String) throws(REPLSyntaxError) {
        try expect(.leftParen, "as in \(method)()")
        try expect(.rightParen, "(this method takes no arguments)")
    }

    /// Reads fail on a collection that doesn't exist: most likely a typo, so the
    /// error names the closest existing collection. (Writes create collections.)
    func checkCollectionExists(_ name: String, at location: SourceLocation) throws(REPLSyntaxError) {
        // Whether the store lists its collections, asked first: asked after
        // the names, a listing that failed (the server not answering) gave no
        // names, and one that worked a moment later let "no collection named"
        // through for a collection that exists (helper-57).
        guard schema.listsCollections() else { return }
        let names = schema.collectionNames()
        // By bytes: a decomposed "é" names no collection when only the composed
        // one exists, and reading it answered 0 documents (helper-47).
        guard !names.contains(where: { ExactText.same($0, name) }) else { return }
        var message = "no collection named \(DocumentKeyQuoting.quoted(name))"
        if let same = names.first(where: { $0 == name }) {
            message += "; \(DocumentKeyQuoting.quoted(same)) is the same name written with other Unicode characters (\(ExactText.scalarList(same)) there, \(ExactText.scalarList(name)) here): write it that way"
        } else if let suggestion = NameSuggestion.closest(to: name, in: names) {
            message += "; did you mean \(DocumentKeyQuoting.quoted(suggestion))?"
        } else if names.isEmpty {
            message += " (the store has no collections yet; insert or .import creates one)"
        } else {
            message += " (.collections lists them)"
        }
        throw REPLSyntaxError(message, at: location)
    }

    /// `(key)`: an integer or a string (a UUID is written as a string).
    mutating func keyArgument() throws(REPLSyntaxError) -> DocumentKey {
        try expect(.leftParen)
        let token = current
        let value = try scalarLiteral()
        let key: DocumentKey
        switch value {
        case .integer(let i): key = .integer(i)
        case .string(let s): key = .string(s)
        case .exactNumber(let number) where number.isIntegral:
            throw REPLSyntaxError("an integer key is 64-bit (Int64, ±9223372036854775807); \(number.text) is past it", at: token.location)
        default:
            throw REPLSyntaxError("a key is an integer or a string, not \(value.typeName)", at: token.location)
        }
        try expect(.rightParen, "after the key")
        return key
    }

    /// `(\.a, \.b, unique: true)` or `(on: [\.a, \.b])`.
    mutating func indexArguments(allowUnique: Bool) throws(REPLSyntaxError) -> (fields: [FieldPath], unique: Bool) {
        try expect(.leftParen)
        _ = try acceptLabel("on")
        var fields: [FieldPath] = []
        var unique = false
        let bracketed = try accept(.leftBracket)
        repeat {
            if !bracketed, allowUnique, try acceptLabel("unique") {
                unique = try boolLiteral()
                break
            }
            if bracketed, current.isSymbol(.rightBracket) { break }
            fields.append(try keyPath())
        } while try accept(.comma)
        if bracketed {
            try expect(.rightBracket)
            if allowUnique, try accept(.comma) {
                guard try acceptLabel("unique") else {
                    throw REPLSyntaxError("expected 'unique:', found \(current.shown)", at: current.location)
                }
                unique = try boolLiteral()
            }
        }
        guard !fields.isEmpty else {
            throw REPLSyntaxError("an index needs at least one field: createIndex(\\.field)", at: current.location)
        }
        try expect(.rightParen)
        return (fields, unique)
    }

    mutating func boolLiteral() throws(REPLSyntaxError) -> Bool {
        let token = current
        guard case .bool(let value) = try scalarLiteral() else {
            throw REPLSyntaxError("expected true or false", at: token.location)
        }
        return value
    }
}
