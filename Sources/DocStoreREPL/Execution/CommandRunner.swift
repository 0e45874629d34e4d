import DocStore
import Foundation

/// An error from running a command (not from parsing it): what failed, in words.
public struct CommandError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Runs parsed commands against a store and returns their results. Query chains
/// go to the collection's query API: the one pipeline every front end shares.
final class CommandRunner {
    let store: DocumentStore
    let schema: StoreSchema
    /// Where `.import` reports progress (a terminal's stderr), or nil.
    var progressOutput: TextOutput?
    /// ctrl-C: imports, exports and fetches stop when it is requested.
    var interruption = Interruption()
    /// At most how many documents a query without `.limit` shows (interactive
    /// sessions), or nil for all of them.
    var displayLimit: Int?
    /// Where notes beside a result go (the session's stderr), or nil.
    var notes: TextOutput?

    init(store: DocumentStore, schema: StoreSchema) {
        self.store = store
        self.schema = schema
    }

    func run(_ command: REPLCommand) throws -> CommandResult {
        if command.writes, store.isReadOnly {
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
            return try runQuery(store.collection(named: name), query, action)
        case .pipeline(let name, let pipeline, let action):
            return try runPipeline(store.collection(named: name), pipeline, action)
        case .get(let name, let key):
            let collection = store.collection(named: name)
            guard let document = try collection.get(try adapt(key, for: name)) else {
                return .message("no document with key \(key) in \(name)")
            }
            return .document(document)
        case .insert(let name, let documents):
            let keys = try store.collection(named: name).insert(contentsOf: documents)
            let shown = keys.prefix(10).map(\.description).joined(separator: ", ") + (keys.count > 10 ? ", …" : "")
            return .message("inserted \(CommandResult.plural(keys.count, "document")) (key\(keys.count == 1 ? "" : "s") \(shown))")
        case .save(let name, let documents):
            try store.write { transaction in
                let collection = transaction.collection(named: name)
                for document in documents { try collection.save(document) }
            }
            return .message("saved \(CommandResult.plural(documents.count, "document"))")
        case .deleteKey(let name, let key):
            let deleted = try store.collection(named: name).delete(try adapt(key, for: name))
            return .message(deleted ? "deleted document \(key)" : "no document with key \(key) in \(name)")
        case .deleteAll(let name):
            let count = try store.collection(named: name).deleteAll()
            return .message("deleted \(CommandResult.plural(count, "document"))")
        case .createIndex(let name, let fields, let unique):
            let index = try store.collection(named: name).createIndex(on: fields, unique: unique)
            return .message("created \(unique ? "unique " : "")index \(index.name) on \(fields.map(\.description).joined(separator: ", "))")
        case .dropIndex(let name, let fields):
            let dropped = try store.collection(named: name).dropIndex(on: fields)
            return .message(dropped ? "dropped the index on \(fields.map(\.description).joined(separator: ", "))"
                : "no index on \(fields.map(\.description).joined(separator: ", ")) in \(name)")
        case .changeField(let name, let change):
            let collection = store.collection(named: name)
            let summary: FieldChangeSummary
            switch change {
            case .rename(let old, let new): summary = try collection.renameField(old, to: new)
            case .copy(let source, let target): summary = try collection.copyField(source, to: target)
            case .remove(let path): summary = try collection.removeField(path)
            case .setDefault(let path, let value): summary = try collection.setDefault(path, to: value)
            }
            return .message(summary.description)
        case .indexes(let name):
            let indexes = try store.collection(named: name).indexes()
            return .rows(columns: ["name", "fields", "unique"], indexes.map { index in
                [.string(index.name), .string(index.fields.map(\.description).joined(separator: ", ")), .bool(index.isUnique)]
            })
        case .collections:
            return .text(try collectionsListing())
        case .schema(let name):
            return try schemaReport(name)
        case .drop(let name):
            let existed = try store.dropCollection(named: name)
            return .message(existed ? "dropped collection \(name)" : "no collection named \(name)")
        case .check(nil):
            return .text(try store.check().description)
        case .check(let name?):
            return .text(try store.check(collection: name).description)
        case .repair(let name):
            return .message(try store.repair(collection: name).description)
        case .importFile(let name, let path, let options):
            var importer = Importer(store: store, collection: name, options: options)
            importer.progressOutput = progressOutput
            importer.interruption = interruption
            let report = try importer.importFile(atPath: path)
            return .message(report.summary)
        case .exportFile(let name, let path):
            var exporter = Exporter(store: store, collection: name)
            exporter.interruption = interruption
            let count = try exporter.export(toPath: path)
            return .message("exported \(CommandResult.plural(count, "document")) to \(path)")
        }
    }

    private func runQuery(_ collection: DocumentCollection<JSONValue>, _ query: DocumentQuery, _ action: QueryAction) throws -> CommandResult {
        // A bare `coll`, `coll.count()` or `coll.keys()` needs no query: the
        // collection's own methods answer it the same way (in key order) with no
        // SQL to compile.
        if query == DocumentQuery() {
            switch action {
            case .fetch:
                return try fetch(query) { try collection.forEach($0) }
            case .count:
                return .value(.integer(Int64(try collection.count())))
            case .keys:
                return .value(.array(try collection.keys().map(\.jsonValue)))
            default:
                break
            }
        }
        switch action {
        case .fetch:
            return try fetch(query) { try collection.forEach(query, $0) }
        case .first:
            return .documents(try collection.first(query).map { [$0] } ?? [])
        case .count:
            return .value(.integer(Int64(try collection.count(query))))
        case .exists:
            return .value(.bool(try collection.exists(query)))
        case .keys:
            return .value(.array(try collection.keys(query).map(\.jsonValue)))
        case .select(let fields):
            let rows = try collection.select(query, fields: fields)
            return .rows(columns: fields.map(\.description), rows.map { $0.map(Optional.some) })
        case .aggregate(let aggregate):
            let value = try collection.aggregate(query, aggregate)
            // Counts by value are rows: a table reads better than a JSON array.
            if case .countBy = aggregate, case .array(let groups) = value,
               groups.allSatisfy({ if case .object = $0 { true } else { false } }) {
                return .rows(columns: ["value", "count"], groups.map { [$0["value"] ?? .null, $0["count"]] })
            }
            return .value(value)
        case .delete:
            return .message("deleted \(CommandResult.plural(try collection.delete(query), "document"))")
        case .update(let updates):
            return .message("updated \(CommandResult.plural(try collection.update(query, updates), "document"))")
        case .explain:
            return .text(try collection.explain(query).description)
        }
    }

    /// A chain with a group, join or computed select: rows under the group keys
    /// and aggregate names (or the selected names) as columns; documents when the
    /// rows are documents (a join without a select).
    private func runPipeline(_ collection: DocumentCollection<JSONValue>, _ pipeline: QueryPipeline,
                             _ action: PipelineAction) throws -> CommandResult {
        var pipeline = pipeline
        switch action {
        case .count:
            return .value(.integer(Int64(try collection.count(pipeline))))
        case .explain:
            return .text(try collection.explain(pipeline).description)
        case .first:
            pipeline.stages.append(.refine(DocumentQuery(limit: 1)))
        case .rows:
            break
        }
        guard let columns = try collection.columns(of: pipeline) else {
            let limit: Int? = if case .refine(let last)? = pipeline.stages.last { last.limit } else { nil }
            return try fetch(DocumentQuery(limit: limit)) { try collection.forEachRow(pipeline, $0) }
        }
        let hasLimit = if case .refine(let last)? = pipeline.stages.last { last.limit != nil } else { false }
        let limit = hasLimit ? nil : displayLimit
        var rows: [[JSONValue?]] = []
        var more = false
        do {
            try collection.forEachRow(pipeline) { row in
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
    private func fetch(_ query: DocumentQuery, _ forEach: ((JSONValue) throws -> Void) throws -> Void) throws -> CommandResult {
        let limit = query.limit == nil ? displayLimit : nil
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
              try store.collections().first(where: { $0.name == collection })?.keyKind == .uuid else { return key }
        guard let uuid = UUID(uuidString: text) else {
            throw CommandError("collection \(collection) has UUID keys, and \(DocumentKeyQuoting.quoted(text)) is not a UUID")
        }
        return .uuid(uuid)
    }

    /// `players  (4 documents, key: integer, indexes: teamId)`
    private func collectionsListing() throws -> String {
        let infos = try store.collections()
        if infos.isEmpty { return "no collections yet (insert a document or .import a file to create one)" }
        let width = infos.map { TerminalText.displayWidth(TerminalText.printable($0.name)) }.max() ?? 0
        return try infos.map { info in
            let collection = store.collection(named: info.name)
            var details = "\(CommandResult.plural(try collection.count(), "document")), key: \(info.keyKind)"
            let indexes = try collection.indexes()
            if !indexes.isEmpty {
                details += ", indexes: " + indexes.map { index in
                    index.fields.map(\.description).joined(separator: "+") + (index.isUnique ? " (unique)" : "")
                }.joined(separator: ", ")
            }
            return TerminalText.padded(TerminalText.printable(info.name), toWidth: width) + "  (\(details))"
        }.joined(separator: "\n")
    }

    /// Field paths, the JSON types seen, and in how many sampled documents.
    private func schemaReport(_ name: String) throws -> CommandResult {
        schema.invalidate()
        let sample = try schema.sample(name)
        if sample.damagedSkipped > 0 {
            notes?.write("note: \(CommandResult.plural(sample.damagedSkipped, "damaged document")) left out of the sample; .check \(name) lists them, .repair \(name) quarantines them\n")
        }
        let rows: [[JSONValue?]] = sample.order.map { path in
            let entry = sample.fields[path] ?? ([], 0)
            return [.string(path.description), .string(entry.types.sorted().joined(separator: ", ")),
                    .string("\(entry.documents) of \(sample.sampled)")]
        }
        return .rows(columns: ["field", "types", "in"], rows)
    }

    private static func verb(_ command: REPLCommand) -> String {
        switch command {
        case .insert: "insert"
        case .save: "save"
        case .deleteKey, .deleteAll, .query(_, _, .delete): "delete"
        case .createIndex: "createIndex"
        case .dropIndex: "dropIndex"
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
