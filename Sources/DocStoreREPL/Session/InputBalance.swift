/// Whether REPL input is complete or continues on the next line: it continues
/// while a brace, bracket or parenthesis is open (outside string literals and
/// `//` comments), as in the Swift REPL. A string left open at the end of a
/// line ends the input there, so its error shows at once.
enum InputBalance {
    static func isIncomplete(_ text: String) -> Bool {
        var depth = 0
        var inString = false
        var previous: Character?
        var iterator = text.lexicalCharacters.makeIterator()
        while let c = iterator.next() {
            if inString {
                if c == "\\" {
                    guard let escaped = iterator.next(), !escaped.isNewline else { return false }
                } else if c == "\"" {
                    inString = false
                } else if c.isNewline {
                    // Strings are one line: an unterminated one is an error to
                    // report now, where it starts, not a reason to read on
                    // (which would swallow the lines after it into the error).
                    return false
                }
                previous = c
                continue
            }
            switch c {
            case "\"": inString = true
            case "/" where previous == "/":
                while let d = iterator.next(), !d.isNewline {}
            case "{", "[", "(": depth += 1
            case "}", "]", ")": depth -= 1
            default: break
            }
            previous = c
        }
        return depth > 0 && !inString
    }

    /// The first bracket of `text` that is never closed, and where: its line
    /// (0-based) and column (1-based, in characters); nil when every bracket
    /// is closed. Strings and `//` comments are skipped as ``isIncomplete(_:)``
    /// skips them.
    static func firstUnclosed(_ text: String) -> (line: Int, column: Int, bracket: Character)? {
        var open: [(line: Int, column: Int, bracket: Character)] = []
        var inString = false
        var previous: Character?
        var line = 0, column = 0
        var iterator = text.lexicalCharacters.makeIterator()
        func next() -> Character? {
            guard let c = iterator.next() else { return nil }
            if c.isNewline { line += 1; column = 0 } else { column += 1 }
            return c
        }
        while let c = next() {
            if inString {
                if c == "\\" {
                    guard let escaped = next(), !escaped.isNewline else { return open.first }
                } else if c == "\"" || c.isNewline {
                    inString = false
                }
                previous = c
                continue
            }
            switch c {
            case "\"": inString = true
            case "/" where previous == "/":
                while let d = next(), !d.isNewline {}
            case "{", "[", "(": open.append((line, column, c))
            case "}", "]", ")": if !open.isEmpty { open.removeLast() }
            default: break
            }
            previous = c
        }
        return open.first
    }

    /// Dot-commands are one line, except `.explain`, which takes a query.
    static func continues(_ text: String) -> Bool {
        let trimmed = text.drop(while: \.isWhitespace)
        if trimmed.hasPrefix("."), !trimmed.hasPrefix(".explain") { return false }
        return isIncomplete(text)
    }
}
