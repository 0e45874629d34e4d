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
/// savepoint), so memory stays flat on large files and a bad line, which stops
/// the import, leaves the collection exactly as it was. With
/// ``ImportOptions/skipBad`` bad lines are skipped and counted instead.
struct Importer {
    let store: DocumentStore
    let collection: String
    let options: ImportOptions
    var progressOutput: TextOutput?
    /// ctrl-C stops the import, leaving the collection as it was.
    var interruption: Interruption?
    var batchSize = 1000

    init(store: DocumentStore, collection: String, options: ImportOptions) {
        self.store = store
        self.collection = collection
        self.options = options
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

    /// A document read from the file, or why its line is bad; `place` says where
    /// ("line 12", "element 3").
    typealias Entry = (place: String, document: Result<JSONValue, CommandError>)

    func importFile(atPath path: String) throws -> ImportReport {
        let format = try Format(path: path)
        var chunks = try FileChunks(path: path)
        defer { chunks.close() }
        var report = ImportReport(path: path, collection: collection)
        var progress = progressOutput.map { ProgressBar(output: $0, total: chunks.size) }
        defer { progress?.finish() }
        try store.write { transaction in
            let target = transaction.collection(named: collection)
            var batch: [(place: String, document: JSONValue)] = []
            func flush() throws {
                try insert(batch, into: target, report: &report)
                batch.removeAll(keepingCapacity: true)
            }
            let reader = EntryReader(path: path, format: format)
            try reader.read(&chunks) { entry, bytesRead in
                try interruption?.check("interrupted: nothing was imported, \(collection) is unchanged")
                switch entry.document {
                case .success(let document):
                    if let document = try keyed(document, place: entry.place, report: &report) {
                        batch.append((entry.place, document))
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
        return report
    }

    /// With `--key FIELD`, the document's key (`"id"`) is that field's value.
    /// Nil when the document is skipped for lacking it.
    private func keyed(_ document: JSONValue, place: String, report: inout ImportReport) throws -> JSONValue? {
        guard let field = options.keyField, case .object(var members) = document else { return document }
        guard let key = members[field], key.stringValue != nil || key.numberValue != nil else {
            try skipOrStop(place, "no \(DocumentKeyQuoting.quoted(field)) to use as the key", report: &report)
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

    /// Inserts a batch at once; when that fails, document by document to name
    /// the line at fault (and, with --skip-bad, keep the others).
    private func insert(_ batch: [(place: String, document: JSONValue)], into target: DocumentCollection<JSONValue>, report: inout ImportReport) throws {
        guard !batch.isEmpty else { return }
        do {
            try target.insert(contentsOf: batch.map(\.document))
            report.imported += batch.count
        } catch {
            for (place, document) in batch {
                do {
                    try target.insert(document)
                    report.imported += 1
                } catch {
                    try skipOrStop(place, "\(error)", report: &report)
                }
            }
        }
    }
}
