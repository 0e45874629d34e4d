/// Whether REPL input is complete or continues on the next line: it continues
/// while a brace, bracket or parenthesis is open (outside string literals and
/// `//` comments), as in the Swift REPL.
enum InputBalance {
    static func isIncomplete(_ text: String) -> Bool {
        var depth = 0
        var inString = false
        var previous: Character?
        var iterator = text.makeIterator()
        while let c = iterator.next() {
            if inString {
                if c == "\\" {
                    _ = iterator.next()
                } else if c == "\"" || c.isNewline {
                    // A string ends at its quote, or (unterminated: the parser's
                    // error to report) at the end of its line.
                    inString = false
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
        return depth > 0
    }

    /// Dot-commands are one line, except `.explain`, which takes a query.
    static func continues(_ text: String) -> Bool {
        let trimmed = text.drop(while: \.isWhitespace)
        if trimmed.hasPrefix("."), !trimmed.hasPrefix(".explain") { return false }
        return isIncomplete(text)
    }
}
