import DocStore
import Foundation

/// What an import did.
struct ImportReport {
    var imported = 0
    var skipped = 0
    /// The first few skipped lines and why, to show.
    var skippedExamples: [String] = []
    var path: String
    var collection: String

    var summary: String {
        var text = "imported \(CommandResult.plural(imported, "document")) into \(collection) from \(path)"
        if skipped > 0 {
            text += "; skipped \(CommandResult.plural(skipped, "bad line")):"
            text += skippedExamples.map { "\n  " + $0 }.joined()
            if skipped > skippedExamples.count { text += "\n  …" }
        }
        return text
    }
}

/// Imports a `.ndjson`, `.json` or `.csv` file into a collection.
///
/// The whole import is one transaction, and documents go in by batches (each a
/// savepoint), so memory stays flat on large files. An import is all or
/// nothing: a bad line stops it and leaves the collection exactly as it was;
/// with ``ImportOptions/skipBad`` bad lines are skipped and counted instead,
/// and every good document goes in. Only a document's own faults (its key, a
/// duplicate, its content) are bad lines: any other failure (a full disk, an
/// I/O error, a lock) stops the import whole, with or without `--skip-bad`,
/// since SQLite may have rolled back the transaction and nothing written after
/// that would be undone.
struct Importer {
    let destination: any ImportDestination
    let collection: String
    let options: ImportOptions
    var progressOutput: TextOutput?
    /// ctrl-C stops the import, leaving the collection as it was.
    var interruption: Interruption?
    var batchSize = 1000

    /// The longest entry (an NDJSON line, a CSV record, a JSON array's element)
    /// an import reads, in bytes: 256 MiB, about the largest document
    /// PostgreSQL's jsonb holds (255 MiB). Without a limit, a file whose line
    /// never ends (a binary file, a device) would grow memory until the process
    /// is killed.
    static let maximumEntryBytes = 256 << 20

    /// The error for an entry longer than ``maximumEntryBytes``.
    static func entryTooLong(_ what: String, path: String) -> CommandError {
        CommandError("\(what) of \(path) is longer than 256 MiB, more than a document can be: is the file what its extension says? nothing was imported")
    }

    init(destination: any ImportDestination, collection: String, options: ImportOptions) {
        self.destination = destination
        self.collection = collection
        self.options = options
    }

    /// An import into a DocStore file or in-memory store.
    init(store: DocumentStore, collection: String, options: ImportOptions) {
        self.init(destination: SQLiteImportDestination(store: store), collection: collection, options: options)
    }

    enum Format {
        case ndjson, json, csv

        init(path: String) throws {
            switch (path as NSString).pathExtension.lowercased() {
            case "ndjson", "jsonl": self = .ndjson
            case "json": self = .json
            case "csv": self = .csv
            default: throw CommandError("cannot tell the format of \(path): use a .ndjson, .jsonl, .json or .csv file")
            }
        }
    }

    /// A document as a reader produced it: a value (JSON files), or the JSON
    /// text of an object and the value of its `"id"` (CSV records, written
    /// straight to text: see ``CSVRecordText``).
    enum Document {
        case value(JSONValue)
        case text([UInt8], id: JSONValue?)

        /// Whether it names its key (an `"id"`) rather than getting one generated.
        var hasKey: Bool {
            switch self {
            case .value(let value): value["id"] != nil
            case .text(_, let id): id != nil
            }
        }
    }

    /// A document read from the file, or why its line is bad; `place` says where
    /// ("line 12", "element 3").
    typealias Entry = (place: String, document: Result<Document, CommandError>)

    func importFile(atPath path: String) throws -> ImportReport {
        let format = try Format(path: path)
        if format != .csv, options.hasCSVOptions {
            throw CommandError("--types, --header and --no-header apply to .csv files only; \(path) is not one")
        }
        var csvColumns: CSVDocumentReader.Columns?
        if format == .csv {
            var status = stat()
            if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
                // The second pass would wait forever on a pipe its writer has closed.
                throw CommandError("cannot import \(path): it is a pipe or a device, which can be read only once, and a CSV file is read twice (first for its columns' types); save it to a file first (cat \(path) > data.csv)")
            }
            // The first pass (column types) runs before the transaction: no
            // lock is held while it reads.
            let notImported = "interrupted: nothing was imported, \(collection) is unchanged"
            csvColumns = try CSVDocumentReader(path: path, options: options)
                .columns { try interruption?.check(notImported) }
        }
        let reader = EntryReader(path: path, format: format, options: options, csvColumns: csvColumns)
        do {
            return try importDocuments(from: reader, passes: [.inFileOrder])
        } catch is KeyGeneratedBeforeNamed {
            // A document without "id" took a key that a later line names: the
            // named keys go first, then the others get keys after them.
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                throw CommandError("cannot import \(path): a document without \"id\" took a key that a later one names as its \"id\", and a pipe can't be read a second time to give the named keys first; save it to a file first (cat \(path) > data.ndjson); nothing was imported, \(collection) is unchanged")
            }
            return try importDocuments(from: reader, passes: [.namedKeys, .generatedKeys])
        }
    }

    /// Which documents a pass over the file inserts.
    private enum Pass {
        case inFileOrder, namedKeys, generatedKeys
    }

    /// Thrown (rolling the import back) when a document's own key was taken by
    /// a key generated earlier in the same import: `{"x": 1}` then `{"id": 2}`
    /// gave the first key 2 and refused the second as a duplicate, or with
    /// --skip-bad dropped it.
    private struct KeyGeneratedBeforeNamed: Error {}

    /// Reads the file once per pass and inserts its documents, all in one
    /// transaction.
    private func importDocuments(from reader: EntryReader, passes: [Pass]) throws -> ImportReport {
        var report = ImportReport(path: reader.path, collection: collection)
        do {
            let isNew = try !destination.collectionExists(collection)
            try destination.write(collection) { target in
                for pass in passes where !(pass == .generatedKeys && options.keyField != nil) {
                    try run(pass, reading: reader, into: target, isNew: isNew, report: &report)
                }
            }
        } catch let error where !(error is CommandError || error is Interruption.Interrupted || error is KeyGeneratedBeforeNamed) {
            // Not a bad line nor ctrl-C (those say so themselves): the store
            // failed, and the transaction was rolled back whole.
            throw CommandError(stopped(by: error, report: report))
        }
        if report.imported == 0, report.skipped > 0 {
            // --skip-bad skipped every entry (a file of another format, keys
            // all stored already): said as a failure, not "imported 0".
            throw CommandError("every entry of \(reader.path) was bad (\(CommandResult.plural(report.skipped, "bad line"))), so nothing was imported:"
                + report.skippedExamples.map { "\n  " + $0 }.joined() + (report.skipped > report.skippedExamples.count ? "\n  …" : ""))
        }
        return report
    }

    private func run(_ pass: Pass, reading reader: EntryReader, into target: any ImportTarget, isNew: Bool,
                     report: inout ImportReport) throws {
        var chunks = try FileChunks(path: reader.path)
        defer { chunks.close() }
        var progress = progressOutput.map { ProgressBar(output: $0, total: chunks.size) }
        defer { progress?.finish() }
        var batch: [(place: String, document: Document)] = []
        var generatedKeys = false
        func flush() throws {
            // A new collection gets its first document alone (the next ones,
            // when --skip-bad skips it), so that the one creating it is not in
            // a batch whose rollback would take the collection with it. The
            // whole first batch went one at a time: on PostgreSQL, five round
            // trips a document, and Teams.csv took 2.3 s against 0.05 s on a file.
            var first = batch.startIndex
            while isNew, report.imported == 0, first < batch.endIndex {
                try insert([batch[first]], into: target, oneByOne: true, afterGeneratedKeys: generatedKeys, reader: reader, report: &report)
                first += 1
            }
            try insert(Array(batch[first...]), into: target, oneByOne: false, afterGeneratedKeys: generatedKeys,
                       reader: reader, report: &report)
            batch.removeAll(keepingCapacity: true)
        }
        func add(_ place: String, _ document: Document, named: Bool) {
            switch pass {
            case .namedKeys where !named, .generatedKeys where named: return
            case .inFileOrder where !named: generatedKeys = true
            default: break
            }
            batch.append((place, document))
        }
        try reader.read(&chunks) { entry, bytesRead in
            try interruption?.check("interrupted: nothing was imported, \(collection) is unchanged")
            switch entry.document {
            // The second pass inserts the documents without "id": bad lines
            // were dealt with in the first.
            case .success(.value(let document)) where pass == .generatedKeys:
                if document["id"] == nil { add(entry.place, .value(document), named: false) }
            case .success(.text(let text, let id)) where pass == .generatedKeys:
                if id == nil { add(entry.place, .text(text, id: nil), named: false) }
            case .failure where pass == .generatedKeys:
                break
            case .success(.value(let document)):
                if let document = try keyed(document, place: entry.place, report: &report),
                   try ImportKeys.admit(document["id"], skipOrStop: { try skipOrStop(entry.place, $0, report: &report) }) {
                    add(entry.place, .value(document), named: document["id"] != nil)
                }
            case .success(.text(let text, let id)):
                // The reader wrote the key (--key included) into the text.
                if try ImportKeys.admit(id, skipOrStop: { try skipOrStop(entry.place, $0, report: &report) }) {
                    add(entry.place, .text(text, id: id), named: id != nil)
                }
            case .failure(let error):
                try skipOrStop(entry.place, error.description, report: &report)
            }
            if batch.count >= batchSize {
                try flush()
                progress?.update(done: bytesRead, documents: report.imported)
            }
        }
        try flush()
    }

    /// Why the import stopped, how far it had got, and that nothing was kept.
    private func stopped(by error: any Error, report: ImportReport) -> String {
        let progress = "after \(CommandResult.plural(report.imported, "document")) of \(report.path)"
        // The connection closed as the server was committing: it may have.
        if let failure = error as? PostgresFailure, failure.error.mayHaveCommitted {
            return "the import stopped \(progress) as it was being committed: \(error); \(collection) may hold all of this import or none of it: look (\(collection).count()) before importing again"
        }
        let outcome = "nothing was imported, \(collection) is unchanged"
        if case .diskFull? = error as? DocStoreError {
            return "disk full \(progress); \(outcome): free some space and import again"
        }
        return "the import stopped \(progress): \(error); \(outcome)"
    }

    /// With `--key FIELD`, the document's key (`"id"`) is that field's value.
    /// Nil when the document is skipped for lacking it.
    private func keyed(_ document: JSONValue, place: String, report: inout ImportReport) throws -> JSONValue? {
        guard let field = options.keyField, case .object(var members) = document else { return document }
        guard let key = members[field], key.stringValue != nil || key.numberValue != nil else {
            let name = DocumentKeyQuoting.quoted(field)
            let reason = if let value = members[field] {
                "its \(name) is \(JSONText().string(value)), not an integer or a string (a document's key)"
            } else if field.contains(".") {
                "no \(name) to use as the key (--key takes the name of a top-level field, not a path)"
            } else {
                "no \(name) to use as the key"
            }
            try skipOrStop(place, reason, report: &report)
            return nil
        }
        // An "id" of its own is data: never overwritten by another field's value.
        if let id = members["id"], id != key {
            try skipOrStop(place, "its \"id\" (\(JSONText().string(id))) differs from its \(DocumentKeyQuoting.quoted(field)) (\(JSONText().string(key))), which --key \(field) would write over it; rename the \"id\" field or import without --key", report: &report)
            return nil
        }
        members.removeValue(forKey: "id")
        members.updateValue(key, forKey: "id", insertingAt: 0)
        return .object(members)
    }

    private func skipOrStop(_ place: String, _ reason: String, report: inout ImportReport) throws {
        guard options.skipBad else {
            throw CommandError("\(place) of \(collectionFile(report)): \(reason); nothing was imported, \(collection) is unchanged (use --skip-bad to skip bad lines)")
        }
        report.skipped += 1
        if report.skippedExamples.count < 5 { report.skippedExamples.append("\(place): \(reason)") }
    }

    private func collectionFile(_ report: ImportReport) -> String { report.path }

    /// Inserts a batch at once; when one of its documents is at fault, document
    /// by document to name the line (and, with --skip-bad, keep the others).
    /// Any other failure is thrown at once: after a full disk or an I/O error
    /// SQLite may have rolled the transaction back, and a document inserted
    /// then would be committed on its own.
    private func insert(
        _ batch: [(place: String, document: Document)], into target: any ImportTarget, oneByOne: Bool,
        afterGeneratedKeys: Bool, reader: EntryReader, report: inout ImportReport
    ) throws {
        guard !batch.isEmpty else { return }
        if !oneByOne {
            do {
                try insert(batch.map(\.document), into: target)
                report.imported += batch.count
                return
            } catch let error as DocStoreError where error.isAboutOneDocument {
                // The batch's savepoint was rolled back: find the document at fault.
            }
        }
        for (place, document) in batch {
            do {
                try insert([document], into: target)
                report.imported += 1
            } catch let error as DocStoreError where error.isAboutOneDocument {
                if case .duplicateKey = error, afterGeneratedKeys, document.hasKey { throw KeyGeneratedBeforeNamed() }
                try skipOrStop(place, reason(error, place: place, reader: reader, shown: !options.skipBad || report.skippedExamples.count < 5), report: &report)
            }
        }
    }

    /// Inserts documents all or none, values and texts alike (a file gives one kind).
    private func insert(_ documents: [Document], into target: any ImportTarget) throws {
        var values: [JSONValue] = []
        var texts: [DocumentCollection<JSONValue>.JSONObjectText] = []
        for document in documents {
            switch document {
            case .value(let value): values.append(value)
            case .text(let text, let id): texts.append(.init(key: id.flatMap(ImportKeys.key), text: text))
            }
        }
        try target.insertAllOrNone(values: values, texts: texts)
    }

    /// A store error about one document, in the words of an import. A repeated
    /// key names where the file had it first when the message is `shown`
    /// (finding that reads the file again, so not for every skipped line).
    private func reason(_ error: DocStoreError, place: String, reader: EntryReader, shown: Bool) -> String {
        guard case .duplicateKey(_, let key) = error else { return "\(error)" }
        guard shown else { return "duplicate key \(key)" }
        if let earlier = ImportKeys.earlierPlace(of: key, before: place, reading: reader, keyField: options.keyField) {
            return "duplicate key \(key): \(earlier) of the file has the same key"
        }
        return "duplicate key \(key): \(collection) already holds a document with this key"
    }
}

extension DocStoreError {
    /// Whether the error is about one document (its key, its content, a unique
    /// value it repeats) rather than about the store: only those make a line
    /// bad, to be skipped with --skip-bad. Anything else (a full disk, an I/O
    /// error, a lock, a damaged file) stops an import whole.
    var isAboutOneDocument: Bool {
        switch self {
        case .duplicateKey, .keyKindMismatch, .missingKey, .encodingFailed, .uniqueConstraint, .nestingTooDeep, .invalidJSON:
            true
        default:
            false
        }
    }
}
