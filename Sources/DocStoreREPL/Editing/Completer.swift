import DocStore

/// Tab completion as a pure function of the text before the cursor: the line
/// editor asks, tests call it directly.
public enum Completer {
    /// What completion offers.
    public struct Completion: Equatable, Sendable {
        /// How many characters before the cursor the candidates replace.
        public var replacing: Int
        /// The candidates, sorted.
        public var candidates: [String]

        /// The longest prefix all candidates share: what TAB inserts.
        public var commonPrefix: String {
            guard var prefix = candidates.first else { return "" }
            for candidate in candidates.dropFirst() {
                while !candidate.hasPrefix(prefix) { prefix.removeLast() }
            }
            return prefix
        }

        static let none = Completion(replacing: 0, candidates: [])
    }

    /// Completes the word before the cursor.
    ///
    /// - Parameters:
    ///   - text: Everything typed before the cursor, including the earlier lines
    ///     of an open block (so `$0.` knows its collection).
    ///   - schema: Collections and sampled fields.
    public static func complete(_ text: String, schema: any SchemaProvider) -> Completion {
        let characters = Array(text)
        var wordStart = characters.count
        while wordStart > 0, isNameCharacter(characters[wordStart - 1]) { wordStart -= 1 }
        let word = String(characters[wordStart...])
        let before = Array(characters[..<wordStart])
        let lineStart = before.lastIndex(where: \.isNewline).map { $0 + 1 } ?? 0
        let line = String(before[lineStart...])
        let trimmedLine = line.drop(while: \.isWhitespace)

        func offer(_ names: some Sequence<String>, replacing count: Int = word.count, prefix: String = word) -> Completion {
            let matches = Set(names.filter { $0.hasPrefix(prefix) && $0 != prefix || ($0 == prefix && !prefix.isEmpty) })
            return Completion(replacing: count, candidates: matches.sorted())
        }

        // A dot-command's name.
        if trimmedLine == ".", lineStart == 0 {
            return offer(DotCommandParser.commands.map(\.name), replacing: word.count + 1, prefix: "." + word)
        }
        // A dot-command's collection argument (`.schema pl`, `.import pe`).
        if lineStart == 0, trimmedLine.hasPrefix(".") {
            // A file argument (`.read da`, `.import people da`): any characters.
            if let files = FileCompletion.complete(line: trimmedLine + word) {
                // `.export` takes a collection or a file first: offer both.
                if files.replacing == word.count, trimmedLine.split(separator: " ").count == 1,
                   trimmedLine.hasPrefix(".export") {
                    let collections = offer(schema.collectionNames())
                    return Completion(replacing: word.count, candidates: (collections.candidates + files.candidates).sorted())
                }
                return files
            }
            let parts = trimmedLine.split(separator: " ", omittingEmptySubsequences: true)
            let command = parts.first.map(String.init) ?? ""
            if command == ".explain" || command == ".watch" {
                let query = String(trimmedLine.dropFirst(command.count)) + word
                return complete(query, schema: schema)
            }
            if parts.count == 1, [".schema", ".drop", ".check", ".repair", ".import", ".export"].contains(command) {
                return offer(schema.collectionNames())
            }
            if command == ".mode", parts.count == 1 { return offer(OutputMode.allCases.map(\.rawValue)) }
            return .none
        }
        guard let last = before.last else { return offer(schema.collectionNames()) }
        if last == "." {
            // `$0.a.b.` or `\.a.` → fields; `coll.` or `).` or `}.` → methods.
            if let path = fieldPathPrefix(before.dropLast()) {
                let collection = statementCollection(String(characters)) ?? ""
                let fields = schema.fieldTypes(in: collection).keys.compactMap { field -> String? in
                    guard field.components.count > path.count,
                          field.components.prefix(path.count).elementsEqual(path.map(FieldPath.Component.key)),
                          case .key(let next) = field.components[path.count] else { return nil }
                    return next
                }
                let methods = path.isEmpty ? [] : CommandParser.fieldMethods.union(CommandParser.fieldProperties)
                return offer(fields + methods + (path.isEmpty ? [] : ["descending", "ascending"]))
            }
            let previous = before.dropLast().last
            if previous.map({ isNameCharacter($0) || $0 == ")" || $0 == "}" }) ?? false {
                return offer(CommandParser.methodNames)
            }
            return .none
        }
        // At the start of a statement: a collection name.
        let trimmedBefore = before.reversed().drop(while: \.isWhitespace)
        if trimmedBefore.isEmpty || trimmedBefore.first == ";" && !InputBalance.isIncomplete(String(before)) {
            return offer(schema.collectionNames())
        }
        // After `{`, `;`, `(` or a new line inside a block: a condition or `$0`.
        if let c = trimmedBefore.first, c == "{" || c == "(" || c == "&" || c == "|" || c == "!" {
            return offer(["AnyOf", "AllOf", "Not"])
        }
        return .none
    }

    static func isNameCharacter(_ c: Character) -> Bool {
        c == "_" || c.isLetter || c.isNumber
    }

    /// For text ending just before a `.`: the member names of a `$0.a.b` or
    /// `\.a.b` path that ends there (empty right after `$0` or `\`), or nil
    /// when the text doesn't end in a path.
    static func fieldPathPrefix(_ text: ArraySlice<Character>) -> [String]? {
        var components: [String] = []
        var end = text.endIndex
        while true {
            if end - text.startIndex >= 2, text[end - 2] == "$", text[end - 1] == "0" { return components.reversed() }
            if end > text.startIndex, text[end - 1] == "\\" { return components.reversed() }
            var start = end
            while start > text.startIndex, isNameCharacter(text[start - 1]) { start -= 1 }
            guard start < end, start > text.startIndex, text[start - 1] == "." else { return nil }
            components.append(String(text[start..<end]))
            end = start - 1
        }
    }

    /// The collection a statement is about: its first name (after any `.explain`).
    static func statementCollection(_ text: String) -> String? {
        var rest = Substring(text).drop(while: \.isWhitespace)
        if rest.hasPrefix(".explain") { rest = rest.dropFirst(".explain".count).drop(while: \.isWhitespace) }
        let name = rest.prefix(while: isNameCharacter)
        return name.isEmpty ? nil : String(name)
    }
}
