@_spi(Backends) import DocStore
import Foundation

/// An error from running a command (not from parsing it): what failed, in words.
public struct CommandError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Runs parsed commands against a store and returns their results. Query chains
/// go to the backend's query API as DocStore's AST: the one pipeline every front
/// end shares, compiled for SQLite or PostgreSQL.
final class CommandRunner {
    let backend: any REPLBackend
    let schema: StoreSchema
    /// Where `.import` reports progress (a terminal's stderr), or nil.
    var progressOutput: TextOutput?
    /// ctrl-C: imports, exports and fetches stop when it is requested.
    var interruption = Interruption()
    /// At most how many documents a query without `.limit` shows (interactive
    /// sessions), or nil for all of them.
    var displayLimit: Int?

    /// Runs `body` with ``displayLimit`` set to `limit` (nil: every row, as a
    /// file gets), then puts it back.
    func withDisplayLimit<R>(_ limit: Int?, _ body: () throws -> R) rethrows -> R {
        let saved = displayLimit
        displayLimit = limit
        defer { displayLimit = saved }
        return try body()
    }
    /// Where notes beside a result go (the session's stderr), or nil.
    var notes: TextOutput?
    /// Whether the last `.check` found the store (or collection) healthy: its
    /// report prints as any result, and the session then fails the command.
    private(set) var lastCheckWasHealthy = true

    init(backend: any REPLBackend, schema: StoreSchema) {
        self.backend = backend
        self.schema = schema
    }

    /// A runner on a DocStore file or in-memory store.
    convenience init(store: DocumentStore, schema: StoreSchema) {
        self.init(backend: SQLiteBackend(store: store), schema: schema)
    }

    func run(_ command: REPLCommand) throws -> CommandResult {
        if command.writes, backend.isReadOnly {
            throw CommandError("the store is open read-only (--read-only): \(Self.verb(command)) is refused")
        }
        defer { if command.writes { schema.invalidate() } }
        switch command {
        case .empty, .quit, .mode, .showMode, .help, .headers, .output, .once, .maxRows, .exportQuery:
            return .none
        case .read, .timer:
            throw CommandError("\(command) runs only in a session (REPLSession.execute)")
        case .watch:
            throw CommandError(".watch runs only in a session (REPLSession.execute), which prints each result")
        case .query(let name, let query, let action):
            return try runQuery(name, query, action)
        case .pipeline(let name, let pipeline, let action):
            return try runPipeline(name, pipeline, action)
        case .get(let name, let key):
            guard let document = try backend.get(name, try adapt(key, for: name)) else {
                return .message("no document with key \(key) in \(name)")
            }
            return .document(document)
        case .insert(let name, let documents):
            let keys = try backend.insert(name, documents)
            let shown = keys.prefix(10).map(\.description).joined(separator: ", ") + (keys.count > 10 ? ", …" : "")
            return .message("inserted \(CommandResult.plural(keys.count, "document")) (key\(keys.count == 1 ? "" : "s") \(shown))")
        case .save(let name, let documents):
            try backend.save(name, documents)
            return .message("saved \(CommandResult.plural(documents.count, "document"))")
        case .deleteKey(let name, let key):
            let deleted = try backend.delete(name, try adapt(key, for: name))
            return .message(deleted ? "deleted document \(key)" : "no document with key \(key) in \(name)")
        case .deleteAll(let name):
            let count = try backend.deleteAll(name)
            return .message("deleted \(CommandResult.plural(count, "document"))")
        case .createIndex(let name, let fields, let unique):
            let existed = try backend.importDestination.collectionExists(name)
            let index = try backend.createIndex(name, on: fields, unique: unique)
            return .message("created \(unique ? "unique " : "")index \(index.name) on \(fields.map(\.description).joined(separator: ", "))" + Self.notYetCreated(name, existed))
        case .dropIndex(let name, let fields):
            let dropped = try backend.dropIndex(name, on: fields)
            return .message(dropped ? "dropped the index on \(fields.map(\.description).joined(separator: ", "))"
                : "no index on \(fields.map(\.description).joined(separator: ", ")) in \(name)")
        case .changeField(let name, let change):
            return .message(try backend.changeField(name, change).description)
        case .indexes(let name):
            let indexes: [[JSONValue?]] = try backend.indexes(name).map { index in
                [.string(index.name), .string(index.fields.map(\.description).joined(separator: ", ")), .bool(index.isUnique), .string("index")]
            }
            let searchIndexes: [[JSONValue?]] = try backend.searchIndexes(name).map { index in
                [.string(index.name), .string(index.fields.map(\.description).joined(separator: ", ")), .bool(false), .string("search")]
            }
            let columns: [[JSONValue?]] = try backend.fieldColumns(name).map { columns in
                [[.string(columns.name), .string(columns.fields.map(\.description).joined(separator: ", ")), .bool(false), .string("columns")]]
            } ?? []
            return .rows(columns: ["name", "fields", "unique", "kind"], indexes + searchIndexes + columns)
        case .createSearchIndex(let name, let fields):
            let existed = try backend.importDestination.collectionExists(name)
            let index = try backend.createSearchIndex(name, on: fields)
            return .message("created search index \(index.name) on \(fields.map(\.description).joined(separator: ", "))" + Self.notYetCreated(name, existed))
        case .dropSearchIndex(let name, let fields):
            let dropped = try backend.dropSearchIndex(name, on: fields)
            return .message(dropped ? "dropped the search index on \(fields.map(\.description).joined(separator: ", "))"
                : "no search index on \(fields.map(\.description).joined(separator: ", ")) in \(name)")
        case .createFieldColumns(let name, let fields):
            let columns = try backend.createFieldColumns(name, on: fields)
            return .message("\(name) keeps \(columns.fields.map(\.description).joined(separator: ", ")) in columns (\(columns.name))")
        case .dropFieldColumns(let name, let fields):
            let dropped = try backend.dropFieldColumns(name, on: fields)
            return .message(dropped ? "dropped the field columns of \(fields.map(\.description).joined(separator: ", "))"
                : "no field column of \(fields.map(\.description).joined(separator: ", ")) in \(name)")
        case .rebuildSearchIndexes(let name):
            let count = try backend.rebuildSearchIndexes(name)
            return .message("rebuilt \(count) search index\(count == 1 ? "" : "es")")
        case .collections:
            return .text(try collectionsListing())
        case .schema(let name):
            return try schemaReport(name)
        case .drop(let name):
            let existed = try backend.dropCollection(name)
            return .message(existed ? "dropped collection \(name)" : "no collection named \(name)")
        case .check(let name):
            let (report, isHealthy) = try backend.check(name)
            lastCheckWasHealthy = isHealthy
            return .text(report)
        case .repair(let name):
            return .message(try backend.repair(name))
        case .importFile(let name, let path, let options):
            var importer = Importer(destination: backend.importDestination, collection: name, options: options)
            importer.progressOutput = progressOutput
            importer.interruption = interruption
            let report = try importer.importFile(atPath: path)
            return .message(report.summary)
        case .exportFile(let name, let path):
            var exporter = Exporter(backend: backend, collection: name)
            exporter.interruption = interruption
            let count = try exporter.export(toPath: path)
            return .message("exported \(CommandResult.plural(count, "document")) to \(path)")
        }
    }

    private func runQuery(_ name: String, _ query: DocumentQuery, _ action: QueryAction) throws -> CommandResult {
        switch action {
        case .fetch:
            return try fetch(isLimited: query.limit != nil) { try backend.forEach(name, query, $0) }
        case .first:
            return .documents(try backend.first(name, query).map { [$0] } ?? [])
        case .count:
            return .value(.integer(Int64(try backend.count(name, query))))
        case .exists:
            return .value(.bool(try backend.exists(name, query)))
        case .keys:
            return .value(.array(try backend.keys(name, query).map(\.jsonValue)))
        case .select(let fields):
            let rows = try backend.select(name, query, fields: fields)
            return .rows(columns: fields.map(\.description), rows.map { $0.map(Optional.some) })
        case .aggregate(let aggregate):
            let value = try backend.aggregate(name, query, aggregate)
            // Counts by value are rows: a table reads better than a JSON array.
            if case .countBy = aggregate, case .array(let groups) = value,
               groups.allSatisfy({ if case .object = $0 { true } else { false } }) {
                return .rows(columns: ["value", "count"], groups.map { [$0["value"] ?? .null, $0["count"]] })
            }
            return .value(value)
        case .delete:
            return .message("deleted \(CommandResult.plural(try backend.delete(name, query), "document"))")
        case .update(let updates):
            return .message("updated \(CommandResult.plural(try backend.update(name, query, updates), "document"))")
        case .explain:
            return .text(try backend.explain(name, query))
        }
    }

    /// A chain with a group, join or computed select: rows under the group keys
    /// and aggregate names (or the selected names) as columns; documents when the
    /// rows are documents (a join without a select).
    private func runPipeline(_ name: String, _ pipeline: QueryPipeline, _ action: PipelineAction) throws -> CommandResult {
        var pipeline = pipeline
        switch action {
        case .count:
            return .value(.integer(Int64(try backend.count(name, pipeline))))
        case .explain:
            return .text(try backend.explain(name, pipeline))
        case .first:
            pipeline.stages.append(.refine(DocumentQuery(limit: 1)))
        case .rows:
            break
        }
        guard let columns = try backend.columns(name, pipeline) else {
            return try fetch(isLimited: pipeline.isLimited) { try backend.forEachRow(name, pipeline, $0) }
        }
        let limit = pipeline.isLimited ? nil : displayLimit
        var rows: [[JSONValue?]] = []
        var more = false
        do {
            try backend.forEachRow(name, pipeline) { row in
                try interruption.check("interrupted after \(CommandResult.plural(rows.count, "row"))")
                if let limit, rows.count >= limit {
                    more = true
                    throw EnoughDocuments()
                }
                rows.append(columns.map { row.value(at: $0.path) ?? .null })
            }
        } catch is EnoughDocuments {
            // Stop reading: the rest is not shown.
        }
        let headers = columns.map(\.header)
        return more ? .firstRows(columns: headers, rows) : .rows(columns: headers, rows)
    }

    /// Collects the documents `forEach` streams: up to the display limit when
    /// the query has no limit of its own, stopping early on ctrl-C.
    private func fetch(isLimited: Bool, _ forEach: ((JSONValue) throws -> Void) throws -> Void) throws -> CommandResult {
        let limit = isLimited ? nil : displayLimit
        var documents: [JSONValue] = []
        var more = false
        do {
            try forEach { document in
                try interruption.check("interrupted after \(CommandResult.plural(documents.count, "document"))")
                if let limit, documents.count >= limit {
                    more = true
                    throw EnoughDocuments()
                }
                documents.append(document)
            }
        } catch is EnoughDocuments {
            // forEach stops at the first error: the rest is not read.
        }
        return more ? .firstDocuments(documents) : .documents(documents)
    }

    private struct EnoughDocuments: Error {}

    /// A string key typed for a UUID collection is a UUID key.
    private func adapt(_ key: DocumentKey, for collection: String) throws -> DocumentKey {
        guard case .string(let text) = key,
              try backend.collections().first(where: { $0.name == collection })?.keyKind == .uuid else { return key }
        guard let uuid = UUID(uuidString: text) else {
            throw CommandError("collection \(collection) has UUID keys, and \(DocumentKeyQuoting.quoted(text)) is not a UUID")
        }
        return .uuid(uuid)
    }

    /// `players  (4 documents, key: integer, indexes: teamId)`
    private func collectionsListing() throws -> String {
        let infos = try backend.collections()
        if infos.isEmpty { return "no collections yet (insert a document or .import a file to create one)" }
        let width = infos.map { TerminalText.displayWidth(TerminalText.printable($0.name)) }.max() ?? 0
        let foreign = Set(try backend.foreignTables())
        return try infos.map { info in
            var details = try countDetails(info, foreign: foreign.contains(info.name)) + ", key: \(info.keyKind)"
            let indexes = try backend.indexes(info.name)
            if !indexes.isEmpty {
                details += ", indexes: " + indexes.map { index in
                    index.fields.map(\.description).joined(separator: "+") + (index.isUnique ? " (unique)" : "")
                }.joined(separator: ", ")
            }
            let searchIndexes = try backend.searchIndexes(info.name)
            if !searchIndexes.isEmpty {
                details += ", search: " + searchIndexes.map { $0.fields.map(\.description).joined(separator: "+") }.joined(separator: ", ")
            }
            if let columns = try backend.fieldColumns(info.name) {
                details += ", field columns: " + columns.fields.map(\.description).joined(separator: ", ")
            }
            return TerminalText.padded(TerminalText.printable(info.name), toWidth: width) + "  (\(details))"
        }.joined(separator: "\n")
    }

    /// `4 documents`, or why the collection can't be counted.
    private func countDetails(_ info: CollectionInfo, foreign: Bool) throws -> String {
        let check = ".check \(DocumentKey.commandArgument(info.name))"
        // Another program's rows are not documents: counting them passed them
        // off as the collection's.
        if foreign { return "another program's table stands in its place, not documents: not counted (\(check))" }
        do {
            return CommandResult.plural(try backend.count(info.name, DocumentQuery()), "document")
        } catch DocStoreError.corruptStore {
            // One collection on damaged pages must not hide the others.
            return "damaged pages: can't be counted (\(check))"
        } catch DocStoreError.missingTable {
            // Nor one whose table another program dropped.
            return "its table is missing: can't be counted (\(check))"
        }
    }

    /// Field paths, the JSON types seen, and in how many sampled documents.
    private func schemaReport(_ name: String) throws -> CommandResult {
        schema.invalidate()
        let sample = try schema.sample(name)
        if sample.damagedSkipped > 0 {
            notes?.write("note: \(CommandResult.plural(sample.damagedSkipped, "damaged document")) left out of the sample; .check \(DocumentKey.commandArgument(name)) lists them, .repair \(DocumentKey.commandArgument(name)) quarantines them\n")
        }
        let rows: [[JSONValue?]] = sample.order.map { path in
            let entry = sample.fields[path] ?? ([], 0)
            return [.string(path.description), .string(entry.types.sorted().joined(separator: ", ")),
                    .string("\(entry.documents) of \(sample.sampled)")]
        }
        return .rows(columns: ["field", "types", "in"], rows)
    }

    /// Said after an index made on a collection that has no documents yet: it
    /// is recorded, but `.collections` can't list a collection before its first
    /// document (its key kind), so the index was mentioned nowhere.
    private static func notYetCreated(_ name: String, _ existed: Bool) -> String {
        existed ? "" : " (\(DocumentKey.quotedForMessages(name)) has no documents yet: it and its index are listed from its first insert)"
    }

    private static func verb(_ command: REPLCommand) -> String {
        switch command {
        case .insert: "insert"
        case .save: "save"
        case .deleteKey, .deleteAll, .query(_, _, .delete): "delete"
        case .createIndex: "createIndex"
        case .dropIndex: "dropIndex"
        case .createSearchIndex: "createSearchIndex"
        case .dropSearchIndex: "dropSearchIndex"
        case .rebuildSearchIndexes: "rebuildSearchIndexes"
        case .changeField(_, .rename): "renameField"
        case .changeField(_, .copy): "copyField"
        case .changeField(_, .remove): "removeField"
        case .changeField(_, .setDefault): "setDefault"
        case .importFile: ".import"
        case .drop: ".drop"
        case .repair: ".repair"
        default: "update"
        }
    }
}
