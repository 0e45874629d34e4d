import DocStore
import Foundation

/// Dot-commands: `.collections`, `.schema players`, `.import people People.csv`…
/// Their arguments are words (file names may hold any character; quote them
/// with "…" when they contain spaces), not query syntax, except `.explain`'s.
enum DotCommandParser {
    /// Every dot-command, with its argument synopsis and a one-line summary.
    static let commands: [(name: String, arguments: String, summary: String)] = [
        (".collections", "", "list collections, their sizes, key kinds and indexes"),
        (".schema", "COLLECTION", "field paths and JSON types seen in sampled documents"),
        (".explain", "QUERY", "how the store runs a query (which index it uses)"),
        (".watch", "QUERY", "print a query's result, then again after each change (from any process); ctrl-C stops"),
        (".import", "COLLECTION FILE [OPTIONS]", "import .json, .ndjson or .csv; options --skip-bad, --key FIELD, and for CSV --types COL=TYPE,… (string, int, real, bool), --no-header"),
        (".export", "COLLECTION FILE | FILE QUERY", "a collection to .ndjson or .json (sorted keys); a query's result to .csv .tsv .md .json .ndjson or .txt"),
        (".mode", "table|csv|tsv|markdown|json|ndjson|line", "how results are printed"),
        (".headers", "on|off", "column names above csv, tsv, markdown and table rows"),
        (".output", "[FILE]", "results go to FILE (written whole when switched back), or back to the screen"),
        (".once", "FILE", "the next command's results go to FILE"),
        (".maxrows", "N|all|screen", "rows a long result shows in a terminal: first and last, and the count"),
        (".read", "FILE", "run the commands in FILE as piped input runs them (stops at the first error unless --keep-going)"),
        (".timer", "on|off", "print each command's real, user and system time (Run Time: …)"),
        (".drop", "COLLECTION", "delete a collection and its indexes"),
        (".check", "[COLLECTION]", "check the store (or one collection): file, catalog, every document; what .repair would do"),
        (".repair", "COLLECTION", "move damaged documents, text unchanged, into COLLECTION_damaged"),
        (".help", "", "this help"),
        (".quit", "", "leave (also .exit, or ctrl-D)"),
    ]

    /// The dot-command in `text`, or nil when `text` is not one.
    static func parse(_ text: String, schema: any SchemaProvider) throws(REPLSyntaxError) -> ParsedCommand? {
        let characters = text.lexicalCharacters
        var index = 0
        var line = 1, lineStart = 0
        while index < characters.count, characters[index].isWhitespace {
            if characters[index].isNewline {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        guard index < characters.count, characters[index] == "." else { return nil }
        let start = SourceLocation(line: line, column: index - lineStart + 1)
        var words = try split(characters, from: index, line: line, lineStart: lineStart)
        guard !words.isEmpty else { return nil }
        let name = words.removeFirst()

        func collectionArgument() throws(REPLSyntaxError) -> String {
            guard let word = words.first else {
                throw REPLSyntaxError("\(name.text) needs a collection name: \(name.text) COLLECTION", at: name.end)
            }
            return word.text
        }
        func noMoreThan(_ count: Int) throws(REPLSyntaxError) {
            if words.count > count {
                throw REPLSyntaxError("unexpected argument \(DocumentKeyQuoting.quoted(words[count].text)) to \(name.text)", at: words[count].location)
            }
        }

        switch name.text {
        case ".collections", ".tables":
            try noMoreThan(0)
            return ParsedCommand(.collections)
        case ".schema":
            let collection = try collectionArgument()
            try noMoreThan(1)
            let parser = try CommandParser("", schema: schema)
            try parser.checkCollectionExists(collection, at: words[0].location)
            return ParsedCommand(.schema(collection: collection))
        case ".check" where words.isEmpty:
            return ParsedCommand(.check(collection: nil))
        case ".check", ".drop", ".repair":
            let collection = try collectionArgument()
            try noMoreThan(1)
            let parser = try CommandParser("", schema: schema)
            try parser.checkCollectionExists(collection, at: words[0].location)
            switch name.text {
            case ".check": return ParsedCommand(.check(collection: collection))
            case ".repair": return ParsedCommand(.repair(collection: collection))
            default: return ParsedCommand(.drop(collection: collection))
            }
        case ".mode":
            guard let word = words.first else { return ParsedCommand(.showMode) }
            guard let mode = OutputMode(rawValue: word.text) else {
                let modes = OutputMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw REPLSyntaxError("unknown mode \(DocumentKeyQuoting.quoted(word.text)): use one of \(modes)", at: word.location)
            }
            try noMoreThan(1)
            return ParsedCommand(.mode(mode))
        case ".read":
            guard let file = words.first else {
                throw REPLSyntaxError(".read needs a file: .read FILE", at: name.end)
            }
            try noMoreThan(1)
            return ParsedCommand(.read(path: file.text))
        case ".timer":
            guard let word = words.first else { return ParsedCommand(.timer(nil)) }
            try noMoreThan(1)
            switch word.text {
            case "on": return ParsedCommand(.timer(true))
            case "off": return ParsedCommand(.timer(false))
            default: throw REPLSyntaxError("unknown setting \(DocumentKeyQuoting.quoted(word.text)): use .timer on or .timer off", at: word.location)
            }
        case ".help":
            try noMoreThan(1)
            return ParsedCommand(.help(topic: words.first?.text))
        case ".quit", ".exit":
            try noMoreThan(0)
            return ParsedCommand(.quit)
        case ".headers":
            guard let word = words.first, word.text == "on" || word.text == "off" else {
                throw REPLSyntaxError(".headers takes on or off", at: words.first?.location ?? name.end)
            }
            try noMoreThan(1)
            return ParsedCommand(.headers(word.text == "on"))
        case ".output":
            try noMoreThan(1)
            return ParsedCommand(.output(path: words.first?.text))
        case ".once":
            guard let word = words.first else {
                throw REPLSyntaxError(".once needs a file: .once FILE (the next command's results are written to it)", at: name.end)
            }
            try noMoreThan(1)
            return ParsedCommand(.once(path: word.text))
        case ".maxrows":
            guard let word = words.first else { return ParsedCommand(.maxRows(nil)) }
            try noMoreThan(1)
            switch word.text {
            case "all", "0": return ParsedCommand(.maxRows(.all))
            case "screen": return ParsedCommand(.maxRows(.screen))
            default:
                guard let count = Int(word.text), count > 0 else {
                    throw REPLSyntaxError(".maxrows takes a number of rows, all, or screen", at: word.location)
                }
                return ParsedCommand(.maxRows(.rows(count)))
            }
        case ".export" where words.count >= 2 && OutputMode(fileExtension: (words[0].text as NSString).pathExtension) != nil
            && !(words.count == 2 && schema.collectionNames().contains(words[0].text)):
            return try exportQuery(characters, path: words[0], schema: schema)
        case ".export":
            let collection = try collectionArgument()
            guard words.count >= 2 else {
                throw REPLSyntaxError(".export needs a file: .export COLLECTION FILE.ndjson", at: words[0].end)
            }
            // `.export out.xml teams`: a file first, whose extension names no
            // format, read as a collection named "out.xml" (the message said so).
            if !schema.collectionNames().contains(collection), collection.contains("/") || collection.contains(".") {
                throw REPLSyntaxError(".export FILE QUERY names the format by the file's extension: .csv, .tsv, .md, .json, .ndjson, .jsonl or .txt "
                    + "(a table); \(DocumentKeyQuoting.quoted(collection)) has none of them (.export COLLECTION FILE exports a collection)", at: words[0].location)
            }
            try noMoreThan(2)
            let parser = try CommandParser("", schema: schema)
            try parser.checkCollectionExists(collection, at: words[0].location)
            return ParsedCommand(.exportFile(collection: collection, path: words[1].text))
        case ".import":
            let collection = try collectionArgument()
            guard words.count >= 2 else {
                throw REPLSyntaxError(".import needs a file: .import COLLECTION FILE (.json, .ndjson or .csv)", at: words[0].end)
            }
            var options = ImportOptions()
            var rest = words.dropFirst(2)
            while let option = rest.popFirst() {
                switch option.text {
                case "--skip-bad": options.skipBad = true
                case "--key":
                    guard let field = rest.popFirst() else {
                        throw REPLSyntaxError("--key needs a field name", at: option.end)
                    }
                    options.keyField = field.text
                case "--header": options.header = true
                case "--no-header": options.header = false
                case "--types":
                    guard let spec = rest.popFirst() else {
                        throw REPLSyntaxError("--types needs column types, such as --types playerID=string,HR=int", at: option.end)
                    }
                    do throws(CommandError) {
                        options.columnTypes.merge(try CSVColumnType.parse(spec.text)) { _, new in new }
                    } catch {
                        throw REPLSyntaxError(error.description, at: spec.location)
                    }
                default:
                    throw REPLSyntaxError("unknown option \(DocumentKeyQuoting.quoted(option.text)) (use --skip-bad, --key FIELD, --types COLUMN=TYPE,…, --header or --no-header)", at: option.location)
                }
            }
            return ParsedCommand(.importFile(collection: collection, path: words[1].text, options: options))
        case ".explain":
            // Blank out ".explain" so the query keeps its columns.
            var blanked = characters
            for offset in index..<(index + name.text.count) { blanked[offset] = " " }
            let parsed = try CommandParser.parse(String(blanked), schema: schema)
            switch parsed.command {
            case .query(let collection, let query, let action) where action != .delete && !isUpdate(action):
                return ParsedCommand(.query(collection: collection, query, .explain), warnings: parsed.warnings)
            case .pipeline(let collection, let pipeline, .rows), .pipeline(let collection, let pipeline, .explain):
                return ParsedCommand(.pipeline(collection: collection, pipeline, .explain), warnings: parsed.warnings)
            default:
                throw REPLSyntaxError(".explain takes a query, such as .explain players.filter { $0.teamId == 1 }", at: name.end)
            }
        case ".watch":
            return try watch(characters, nameAt: index, name: name, schema: schema)
        default:
            var message = "unknown command \(DocumentKeyQuoting.quoted(name.text))"
            if let suggestion = NameSuggestion.closest(to: name.text, in: commands.map(\.name) + [".exit", ".tables"]) {
                message += "; did you mean \(suggestion)?"
            } else {
                message += " (.help lists the commands)"
            }
            throw REPLSyntaxError(message, at: start)
        }
    }

    /// `.export FILE QUERY`: a read, parsed as it would be alone (columns kept).
    private static func exportQuery(_ characters: [Character], path: Word, schema: any SchemaProvider) throws(REPLSyntaxError) -> ParsedCommand {
        // Blank out everything up to the end of the file name.
        var blanked = characters
        var line = 1, column = 1
        for offset in blanked.indices {
            if line > path.end.line || (line == path.end.line && column >= path.end.column) { break }
            if blanked[offset].isNewline {
                line += 1
                column = 1
            } else {
                blanked[offset] = " "
                column += 1
            }
        }
        let parsed = try CommandParser.parse(String(blanked), schema: schema)
        switch parsed.command {
        case let command where command.writes:
            throw REPLSyntaxError(".export writes a query's result: this command changes the store; run it alone, then export a query", at: path.end)
        case .query(_, _, let action) where action != .explain:
            return ParsedCommand(.exportQuery(path: path.text, parsed.command), warnings: parsed.warnings)
        case .pipeline(_, _, let action) where action != .explain:
            return ParsedCommand(.exportQuery(path: path.text, parsed.command), warnings: parsed.warnings)
        case .get, .indexes:
            return ParsedCommand(.exportQuery(path: path.text, parsed.command), warnings: parsed.warnings)
        default:
            throw REPLSyntaxError(".export FILE takes a query after the file, such as .export hr.csv batting.filter { $0.HR > 50 }", at: path.end)
        }
    }

    /// `.watch QUERY`: a read, parsed as it would be alone (columns kept).
    private static func watch(_ characters: [Character], nameAt index: Int, name: Word,
                              schema: any SchemaProvider) throws(REPLSyntaxError) -> ParsedCommand {
        var blanked = characters
        for offset in index..<(index + name.text.count) { blanked[offset] = " " }
        let parsed = try CommandParser.parse(String(blanked), schema: schema)
        let example = "such as .watch players.filter { $0.teamId == 1 }.count()"
        switch parsed.command {
        case .query(_, _, let action) where action == .explain:
            throw REPLSyntaxError(".watch can't watch .explain (a plan changes with indexes, not commits); watch the query itself", at: name.end)
        case let command where command.writes:
            throw REPLSyntaxError(".watch only watches reads: this command writes, and watching would repeat the write; run it alone, then .watch a query", at: name.end)
        case .query, .get:
            return ParsedCommand(.watch(parsed.command), warnings: parsed.warnings)
        case .empty:
            throw REPLSyntaxError(".watch needs a query, \(example)", at: name.end)
        case .pipeline:
            // Said, where the README's "any read" promised more (helper-55).
            throw REPLSyntaxError(".watch doesn't watch groups, joins or computed values yet, only a collection's documents, count, aggregate or get, \(example)", at: name.end)
        default:
            throw REPLSyntaxError(".watch takes a query (a collection's documents, count, aggregate or get), \(example)", at: name.end)
        }
    }

    private static func isUpdate(_ action: QueryAction) -> Bool {
        if case .update = action { return true }
        return false
    }

    struct Word {
        var text: String
        var location: SourceLocation
        /// Just after the word, for "needs an argument" errors.
        var end: SourceLocation
    }

    /// Splits into words at blanks; "double quotes" group words and take `\"` and `\\`.
    static func split(_ characters: [Character], from start: Int, line: Int, lineStart: Int) throws(REPLSyntaxError) -> [Word] {
        var words: [Word] = []
        var index = start
        var line = line, lineStart = lineStart
        func location(_ offset: Int) -> SourceLocation { SourceLocation(line: line, column: offset - lineStart + 1) }
        while index < characters.count {
            let c = characters[index]
            if c.isNewline {
                line += 1
                lineStart = index + 1
                index += 1
                continue
            }
            if c.isWhitespace {
                index += 1
                continue
            }
            let wordStart = location(index)
            var text = ""
            if c == "\"" {
                index += 1
                var closed = false
                while index < characters.count, !characters[index].isNewline {
                    let d = characters[index]
                    if d == "\\", index + 1 < characters.count, characters[index + 1] == "\"" || characters[index + 1] == "\\" {
                        text.append(characters[index + 1])
                        index += 2
                        continue
                    }
                    index += 1
                    if d == "\"" {
                        closed = true
                        break
                    }
                    text.append(d)
                }
                guard closed else { throw REPLSyntaxError("unterminated quoted argument", at: wordStart) }
            } else {
                while index < characters.count, !characters[index].isWhitespace {
                    text.append(characters[index])
                    index += 1
                }
            }
            words.append(Word(text: text, location: wordStart, end: location(index)))
        }
        return words
    }
}
