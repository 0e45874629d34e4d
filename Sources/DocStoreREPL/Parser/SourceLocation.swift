/// A position in REPL input: 1-based line and column. Columns count characters
/// (grapheme clusters), so an emoji is one column, as a reader counts them.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "line \(line), column \(column)" }
}

/// An error in REPL input: what is wrong, where, and (when the input names a
/// collection or field that doesn't exist) the closest existing name.
///
/// `description` is the message alone; ``rendered(source:lineOffset:)`` adds the
/// offending line with a caret under the column.
public struct REPLSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var location: SourceLocation

    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    public var description: String { "error at \(location): \(message)" }

    /// The message, then the input line it points into and a caret under the column:
    ///
    ///     error at line 1, column 29: expected '}' to close the block opened at column 16
    ///     players.filter { $0.number > 
    ///                                 ^
    ///
    /// - Parameters:
    ///   - source: The text that was parsed (the location is relative to it).
    ///   - lineOffset: Added to the line number shown, for input that started on a
    ///     later line of a script.
    public func rendered(source: String, lineOffset: Int = 0) -> String {
        var shown = self
        shown.location.line += lineOffset
        let lines = source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard location.line >= 1, location.line <= lines.count else { return shown.description }
        let line = lines[location.line - 1]
        // Long lines (10 kB of input) are shown as a window around the column.
        let window = 100
        let characters = String(line).lexicalCharacters
        let column = max(1, min(location.column, characters.count + 1))
        let start = column - 1 > window ? column - 1 - window / 2 : 0
        let end = min(characters.count, start + window + window / 2)
        var excerpt = String(characters[start..<end])
        if start > 0 { excerpt = "…" + excerpt }
        if end < characters.count { excerpt += "…" }
        let before = (start > 0 ? "…" : "") + String(characters[start..<(column - 1)])
        let padding = String(repeating: " ", count: TerminalText.displayWidth(TerminalText.printable(before)))
        return shown.description + "\n" + TerminalText.printable(excerpt) + "\n" + padding + "^"
    }
}
