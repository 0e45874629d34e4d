import DocStore

/// Punctuation and operators of the query language.
enum Symbol: String, Hashable, Sendable {
    case dot = ".", comma = ",", semicolon = ";", colon = ":"
    case leftParen = "(", rightParen = ")", leftBrace = "{", rightBrace = "}"
    case leftBracket = "[", rightBracket = "]", backslash = "\\"
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case and = "&&", or = "||", not = "!"
    case assign = "=", plusAssign = "+=", minusAssign = "-=", minus = "-", plus = "+", star = "*", slash = "/"
}

/// One token of REPL input.
struct Token: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// A name: plain (`players`) or in backticks (`` `odd name` ``).
        case identifier(String)
        /// `$0`, the closure's document (or array element).
        case dollarZero
        case integer(Int64)
        /// A number with a fraction or an exponent: a `Double` when one holds
        /// it exactly, else its exact digits (`1e-400`, thirty digits), as in
        /// a JSON literal: a value written never differs from the one typed.
        case real(JSONValue)
        case string(String)
        case symbol(Symbol)
        case end
    }

    var kind: Kind
    var location: SourceLocation
    /// Offset of the token's first character in the input.
    var offset: Int
    /// Whether a line break separates this token from the previous one: in a
    /// block, a new line ends a statement as `;` does (as in Swift).
    var followsNewline: Bool
    /// A name written in backticks: never a keyword or a method (`` $0.`count` ``).
    var isEscaped = false

    /// How the token reads in an error message.
    var shown: String {
        switch kind {
        case .identifier(let name): "'\(name)'"
        case .dollarZero: "'$0'"
        case .integer(let value): "'\(value)'"
        case .real(let value): "'\(JSONText().string(value))'"
        case .string(let text): DocumentKeyQuoting.quoted(text)
        case .symbol(let symbol): "'\(symbol.rawValue)'"
        case .end: "the end of the input"
        }
    }

    func isSymbol(_ symbol: Symbol) -> Bool { kind == .symbol(symbol) }

    var identifier: String? {
        if case .identifier(let name) = kind { return name }
        return nil
    }
}

/// Strings quoted and shortened for messages (a 10 kB literal must not flood the screen).
enum DocumentKeyQuoting {
    static func quoted(_ text: String) -> String {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return "\"" + TerminalText.printable(shown) + "\""
    }
}
