import DocStore

/// What a query chain does with the documents its ``DocumentQuery`` selects:
/// the last method of `players.filter { … }.sorted { … }.<action>`.
public enum QueryAction: Hashable, Sendable {
    /// The documents themselves (a chain with no final method, or `.all()`).
    case fetch
    /// `.first()`
    case first
    /// `.count()` or `.count { … }`
    case count
    /// `.exists()` or `.exists { … }`
    case exists
    /// `.keys()`
    case keys
    /// `.select { ($0.a, $0.b) }`
    case select([FieldPath])
    /// `.min(\.x)`, `.max`, `.sum`, `.average`, `.distinct`, `.countBy`
    case aggregate(Aggregate)
    /// `.delete()`
    case delete
    /// `.update { $0.x = 1; $0.n += 1; $0.y = nil }`
    case update([FieldUpdate])
    /// `.explain()`, or `.explain <query>`
    case explain
}

/// What a chain with a group, join or computed select does with its rows.
public enum PipelineAction: Hashable, Sendable {
    /// The rows (a chain with no final method).
    case rows
    /// `.first()`
    case first
    /// `.count()`
    case count
    /// `.explain()`
    case explain
}

/// One command of the REPL: what a line (or a multi-line block) of input says.
public enum REPLCommand: Hashable, Sendable {
    /// Nothing (a blank line or a comment).
    case empty
    /// A query chain on a collection.
    case query(collection: String, DocumentQuery, QueryAction)
    /// A query chain with a group, join or computed select: its rows, first row,
    /// count or plan.
    case pipeline(collection: String, QueryPipeline, PipelineAction)
    /// `coll.get(key)`
    case get(collection: String, DocumentKey)
    /// `coll.insert({…})` or `coll.insert([{…}, {…}])`
    case insert(collection: String, [JSONValue])
    /// `coll.save({…})`: insert or replace.
    case save(collection: String, [JSONValue])
    /// `coll.delete(key)`
    case deleteKey(collection: String, DocumentKey)
    /// `coll.deleteAll()`
    case deleteAll(collection: String)
    /// `coll.createIndex(\.a, \.b, unique: true)`
    case createIndex(collection: String, fields: [FieldPath], unique: Bool)
    /// `coll.dropIndex(\.a)`
    case dropIndex(collection: String, fields: [FieldPath])
    /// `coll.indexes()`: indexes and search indexes
    case indexes(collection: String)
    /// `coll.createSearchIndex(\.text, \.title)`
    case createSearchIndex(collection: String, fields: [FieldPath])
    /// `coll.dropSearchIndex(\.text)`
    case dropSearchIndex(collection: String, fields: [FieldPath])
    /// `coll.rebuildSearchIndexes()`
    case rebuildSearchIndexes(collection: String)
    /// `coll.createFieldColumns(\.a, \.b)`: fields kept in columns beside the documents
    case createFieldColumns(collection: String, fields: [FieldPath])
    /// `coll.dropFieldColumns(\.a)`
    case dropFieldColumns(collection: String, fields: [FieldPath])
    /// `coll.renameField("old", to: "new")`, `copyField`, `removeField`,
    /// `setDefault`: one field change on every document.
    case changeField(collection: String, FieldChangeCommand)
    /// `.collections`
    case collections
    /// `.schema coll`
    case schema(collection: String)
    /// `.import coll FILE [--skip-bad] [--key FIELD] [--types …] [--no-header]`
    case importFile(collection: String, path: String, options: ImportOptions)
    /// `.export coll FILE`
    case exportFile(collection: String, path: String)
    /// `.export FILE QUERY`: a query's result (documents, rows, a value) in the
    /// format FILE's extension names.
    indirect case exportQuery(path: String, REPLCommand)
    /// `.headers on|off`: column names above csv, tsv, markdown and table rows.
    case headers(Bool)
    /// `.output FILE` (results go to FILE until `.output`), or `.output` alone
    /// (back to the standard output).
    case output(path: String?)
    /// `.once FILE`: the next command's results go to FILE.
    case once(path: String)
    /// `.maxrows N|all|screen`: how many rows a terminal shows; nil (`.maxrows`
    /// alone) says the current setting.
    case maxRows(RowLimit?)
    /// `.mode json|ndjson|table|line`
    case mode(OutputMode)
    /// `.mode` alone: which mode results are printed in (as sqlite3 says)
    case showMode
    /// `.help [topic]`
    case help(topic: String?)
    /// `.quit` / `.exit`
    case quit
    /// `.drop coll`
    case drop(collection: String)
    /// `.check` (the whole store) or `.check coll`: what is damaged, and what
    /// `.repair` would do.
    case check(collection: String?)
    /// `.repair coll`: moves damaged documents into `coll_damaged`.
    case repair(collection: String)
    /// `.watch QUERY`: the query's result now and after each change, until
    /// ctrl-C. Only a read (a query chain or `get`) is watched.
    indirect case watch(REPLCommand)
    /// `.read FILE`: runs the commands in a file, as piped input would.
    case read(path: String)
    /// `.timer on|off` (true, false), or `.timer` alone (nil): whether each
    /// command's real, user and system time is printed, as in sqlite3.
    case timer(Bool?)

    /// Whether the command changes the store (refused on a read-only store).
    public var writes: Bool {
        switch self {
        case .insert, .save, .deleteKey, .deleteAll, .createIndex, .dropIndex, .changeField, .importFile, .drop, .repair,
             .createSearchIndex, .dropSearchIndex, .rebuildSearchIndexes, .createFieldColumns, .dropFieldColumns: true
        case .exportQuery(_, let query): query.writes
        case .query(_, _, .delete), .query(_, _, .update): true
        default: false
        }
    }
}

/// How `.import` treats its input.
public struct ImportOptions: Hashable, Sendable {
    /// Skip (and count) lines that can't be imported instead of stopping.
    public var skipBad: Bool
    /// A field whose value becomes each document's key (`"id"`).
    public var keyField: String?
    /// CSV: whether the first row names the fields (`--header`, the default)
    /// or is data (`--no-header`: the fields are `c1`, `c2`, …).
    public var header: Bool
    /// CSV: column types chosen with `--types name=type,…` instead of inferred.
    public var columnTypes: [String: CSVColumnType]

    public init(skipBad: Bool = false, keyField: String? = nil, header: Bool = true, columnTypes: [String: CSVColumnType] = [:]) {
        self.skipBad = skipBad
        self.keyField = keyField
        self.header = header
        self.columnTypes = columnTypes
    }

    /// Whether any CSV-only option is set.
    var hasCSVOptions: Bool { !header || !columnTypes.isEmpty }
}

/// How results are printed.
public enum OutputMode: String, Hashable, Sendable, CaseIterable {
    /// Aligned, boxed tables (nested values as compact JSON).
    case table
    /// Pretty-printed JSON.
    case json
    /// One compact JSON document per line.
    case ndjson
    /// `field = value` lines, a blank line between documents.
    case line
    /// Comma-separated values (RFC 4180), nested values as compact JSON.
    case csv
    /// Tab-separated values, tabs and line breaks in fields escaped.
    case tsv
    /// A Markdown table.
    case markdown

    /// The mode a file's extension names (`.export FILE QUERY`), or nil.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        case "md", "markdown": self = .markdown
        case "json": self = .json
        case "ndjson", "jsonl": self = .ndjson
        case "txt": self = .table
        default: return nil
        }
    }
}

/// How many rows of a result an interactive terminal shows.
public enum RowLimit: Hashable, Sendable {
    /// As many as fit the screen (the default).
    case screen
    /// Every row.
    case all
    /// At most this many: the first and last halves of a longer table.
    case rows(Int)
}

/// A parsed command and the warnings found on the way (a field that no sampled
/// document has, with the closest name that exists).
public struct ParsedCommand: Hashable, Sendable {
    public var command: REPLCommand
    public var warnings: [REPLSyntaxError]

    public init(_ command: REPLCommand, warnings: [REPLSyntaxError] = []) {
        self.command = command
        self.warnings = warnings
    }
}
