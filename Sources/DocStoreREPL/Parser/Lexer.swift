import DocStore
/// Splits REPL input into tokens on demand, so that the parser can take the raw
/// text of a JSON argument (`insert({...})`) instead of tokens at any point.
struct Lexer {
    let characters: [Character]
    private(set) var position = 0
    private var line = 1
    private var lineStart = 0

    init(_ text: String) {
        characters = text.lexicalCharacters
    }

    var location: SourceLocation { SourceLocation(line: line, column: position - lineStart + 1) }

    func location(ofOffset offset: Int) -> SourceLocation {
        var line = 1
        var start = 0
        for index in 0..<min(offset, characters.count) where characters[index].isNewline {
            line += 1
            start = index + 1
        }
        return SourceLocation(line: line, column: offset - start + 1)
    }

    private var current: Character? { position < characters.count ? characters[position] : nil }
    private func peek(_ ahead: Int = 1) -> Character? {
        position + ahead < characters.count ? characters[position + ahead] : nil
    }

    private mutating func advance() {
        if characters[position].isNewline {
            line += 1
            lineStart = position + 1
        }
        position += 1
    }

    /// Skips blanks and `//` comments; returns whether a line break was crossed.
    private mutating func skipTrivia() -> Bool {
        var newline = false
        while let c = current {
            if c.isNewline {
                newline = true
                advance()
            } else if c.isWhitespace {
                advance()
            } else if c == "/", peek() == "/" {
                while let c = current, !c.isNewline { advance() }
            } else {
                break
            }
        }
        return newline
    }

    /// The next token.
    mutating func next() throws(REPLSyntaxError) -> Token {
        let newline = skipTrivia()
        let start = location
        let offset = position
        func token(_ kind: Token.Kind) -> Token {
            Token(kind: kind, location: start, offset: offset, followsNewline: newline)
        }
        guard let c = current else { return token(.end) }

        if c == "$" {
            advance()
            guard current == "0" else {
                throw REPLSyntaxError("expected '$0' (the document the closure receives)", at: start)
            }
            advance()
            if let next = current, next.isNumber {
                throw REPLSyntaxError("only '$0' is available in a closure", at: start)
            }
            return token(.dollarZero)
        }
        if c == "`" {
            advance()
            var name = ""
            while let c = current, c != "`", !c.isNewline {
                name.append(c)
                advance()
            }
            guard current == "`", !name.isEmpty else {
                throw REPLSyntaxError("unterminated name in backticks", at: start)
            }
            advance()
            var escaped = token(.identifier(name))
            escaped.isEscaped = true
            return escaped
        }
        if Self.startsName(c) {
            var name = ""
            while let c = current, Self.startsName(c) || c.isNumber {
                name.append(c)
                advance()
            }
            return token(.identifier(name))
        }
        if c.isASCII, c.isNumber {
            return token(try number(start: start))
        }
        if c == "\"" {
            return token(.string(try string(start: start)))
        }
        let pairs: [(String, Symbol)] = [
            ("==", .equal), ("!=", .notEqual), ("<=", .lessOrEqual), (">=", .greaterOrEqual),
            ("&&", .and), ("||", .or), ("+=", .plusAssign), ("-=", .minusAssign),
        ]
        for (text, symbol) in pairs {
            let chars = Array(text)
            if c == chars[0], peek() == chars[1] {
                advance()
                advance()
                return token(.symbol(symbol))
            }
        }
        if let symbol = Symbol(rawValue: String(c)) {
            advance()
            return token(.symbol(symbol))
        }
        throw REPLSyntaxError("unexpected character \(Self.describe(c))", at: start)
    }

    /// Letters, `_` and emoji start names (as in Swift identifiers).
    static func startsName(_ c: Character) -> Bool {
        if c == "_" || c.isLetter { return true }
        guard let first = c.unicodeScalars.first, !c.isASCII else { return false }
        return first.properties.isEmojiPresentation || (first.properties.isEmoji && c.unicodeScalars.count > 1)
    }

    static func describe(_ c: Character) -> String {
        if c == "\0" { return "NUL (\\0)" }
        if let scalar = c.unicodeScalars.first, c.unicodeScalars.count == 1, scalar.value < 0x20 || scalar.value == 0x7F {
            return "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        }
        return "'\(c)'"
    }

    /// An integer or real literal: `12`, `1_000`, `0.25`, `1e-3`.
    private mutating func number(start: SourceLocation) throws(REPLSyntaxError) -> Token.Kind {
        var text = ""
        var isReal = false
        func digits(_ lexer: inout Lexer, into text: inout String) {
            while let c = lexer.current, (c.isASCII && c.isNumber) || c == "_" {
                if c != "_" { text.append(c) }
                lexer.advance()
            }
        }
        digits(&self, into: &text)
        if current == ".", let next = peek(), next.isASCII, next.isNumber {
            isReal = true
            text.append(".")
            advance()
            digits(&self, into: &text)
        }
        if current == "e" || current == "E" {
            let sign = peek()
            let digitAt = (sign == "+" || sign == "-") ? peek(2) : sign
            if let d = digitAt, d.isASCII, d.isNumber {
                isReal = true
                text.append("e")
                advance()
                if sign == "+" || sign == "-" {
                    if let sign { text.append(sign) }
                    advance()
                }
                digits(&self, into: &text)
            }
        }
        if let c = current, c.isLetter || c == "_" || c.isNumber {
            throw REPLSyntaxError("invalid number literal: unexpected \(Self.describe(c)) after '\(text)'", at: start)
        }
        if isReal {
            guard let value = Double(text), value.isFinite else {
                throw REPLSyntaxError("number literal \(text) is out of range", at: start)
            }
            // Kept digit for digit when a Double would round it (`1e-400`, 0.1
            // to 34 places), as JSON literals are; `007.5` is no JSON number.
            return .real(JSONNumberLiteral(text)?.value ?? .double(value))
        }
        guard let value = Int64(text) else {
            // Past Int64 (`-9223372036854775808` is a minus and 2^63): exact
            // digits, compared by value, as a JSON literal's are.
            if let literal = JSONNumberLiteral(text) { return .real(literal.value) }
            throw REPLSyntaxError("integer literal \(text.count > 30 ? String(text.prefix(30)) + "…" : text) is out of range (past ±1.8e308, where a number can no longer be read as a Double)", at: start)
        }
        return .integer(value)
    }

    /// A string literal with Swift's escapes: `\n \t \r \0 \\ \" \' \u{1F600}`.
    private mutating func string(start: SourceLocation) throws(REPLSyntaxError) -> String {
        advance()  // opening quote
        var result = ""
        while true {
            guard let c = current, !c.isNewline else {
                throw REPLSyntaxError("unterminated string literal", at: start)
            }
            if c == "\"" {
                advance()
                return result
            }
            if c == "\0" {
                throw REPLSyntaxError("NUL character in a string literal: write it as \\0", at: location)
            }
            if c != "\\" {
                result.append(c)
                advance()
                continue
            }
            let escapeStart = location
            advance()
            guard let e = current else { throw REPLSyntaxError("unterminated string literal", at: start) }
            advance()
            switch e {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "0": result.append("\0")
            case "\\": result.append("\\")
            case "\"": result.append("\"")
            case "'": result.append("'")
            case "u":
                guard current == "{" else { throw REPLSyntaxError("expected '{' after \\u", at: escapeStart) }
                advance()
                var hex = ""
                while let h = current, h.isHexDigit, hex.count < 9 {
                    hex.append(h)
                    advance()
                }
                guard current == "}", (1...8).contains(hex.count), let value = UInt32(hex, radix: 16),
                      let scalar = Unicode.Scalar(value) else {
                    throw REPLSyntaxError("invalid unicode escape: write \\u{1F600} with 1 to 8 hex digits of a valid scalar", at: escapeStart)
                }
                advance()
                result.unicodeScalars.append(scalar)
            default:
                throw REPLSyntaxError("invalid escape sequence \\\(TerminalText.printable(String(e))) in a string literal", at: escapeStart)
            }
        }
    }

    /// Goes back to `offset` (a token's start), to read what follows as raw JSON.
    mutating func rewind(to offset: Int) {
        position = min(offset, characters.count)
        let start = location(ofOffset: position)
        line = start.line
        lineStart = position - (start.column - 1)
    }

    /// The raw text of a JSON value that starts here (after blanks), up to its
    /// balanced end: used for `insert({...})` so that jansson parses real JSON.
    /// Returns the text and where it starts.
    ///
    /// - Parameter endingAtClose: Stop just after the bracket that closes the
    ///   first object or array (a value inside a block, followed by more code).
    mutating func rawJSON(endingAtClose: Bool = false) throws(REPLSyntaxError) -> (text: String, location: SourceLocation) {
        _ = skipTrivia()
        let start = location
        let offset = position
        var depth = 0
        var inString = false
        while let c = current {
            if inString {
                if c == "\\" {
                    advance()
                    if current != nil { advance() }
                    continue
                }
                if c == "\"" { inString = false }
                advance()
                continue
            }
            switch c {
            case "\"": inString = true
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            // JSON has no ')' outside strings: one always ends the argument, and
            // jansson then says what is missing ("'}' expected").
            case ")": return (String(characters[offset..<position]), start)
            case ",": if depth == 0 { return (String(characters[offset..<position]), start) }
            default: break
            }
            advance()
            if depth < 0 || (endingAtClose && depth == 0 && (c == "}" || c == "]")) { break }
        }
        return (String(characters[offset..<position]), start)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
