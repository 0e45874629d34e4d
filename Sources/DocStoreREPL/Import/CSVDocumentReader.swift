@_spi(Backends) import DocStore
import Foundation

/// Reads a CSV file as documents, one per record, in two streaming passes: the
/// first learns the columns (names, and each column's type from all its cells),
/// the second turns records into documents. Reading the file twice keeps memory
/// flat whatever its size, where holding it to type the columns would not.
///
/// A header row names the fields (`--no-header`: they are `c1`, `c2`, …);
/// empty cells are left out of the document.
struct CSVDocumentReader {
    let path: String
    let options: ImportOptions

    /// What the first pass learnt.
    struct Columns {
        var names: [String]
        var types: [CSVColumnType]
        /// Whether `--types` chose the column's type (a cell that doesn't fit
        /// is a bad line) rather than the cells themselves.
        var forced: [Bool]
    }

    static let invalidUTF8 = "not valid UTF-8 (the file may be in another encoding, such as Latin-1; convert it with iconv -t UTF-8)"

    /// The first pass: the header and the type of every column.
    ///
    /// - Parameter checkInterruption: Called between chunks; throws to stop.
    func columns(checkInterruption: () throws -> Void) throws -> Columns {
        var chunks = try FileChunks(path: path)
        defer { chunks.close() }
        var names: [String]?
        var inferences: [CSVColumnInference] = []
        try parse(&chunks, checkInterruption: checkInterruption) { record, _ in
            if names == nil {
                names = try header(record)
                inferences = Array(repeating: CSVColumnInference(), count: record.count)
                if options.header { return }
            }
            record.forEachField { index, bytes in
                if index < inferences.count { inferences[index].see(bytes) }
            }
        }
        guard let names else {
            throw CommandError("\(path) is empty: \(options.header ? "a CSV file starts with a header row naming the fields" : "it has no records")")
        }
        try checkForcedNames(names)
        let forced = names.map { name in options.columnTypes.first { ExactText.same($0.key, name) }?.value }
        return Columns(names: names, types: zip(forced, inferences).map { $0 ?? $1.type }, forced: forced.map { $0 != nil })
    }

    /// The second pass: a document per record, each cell of its column's type,
    /// written straight to JSON text.
    func read(_ chunks: inout FileChunks, columns: Columns, _ emit: EntryReader.Emit) throws {
        var seenHeader = !options.header
        let writer = CSVRecordText(columns: columns, keyField: options.keyField)
        var text: [UInt8] = []
        try parse(&chunks, checkInterruption: {}) { record, bytesRead in
            guard seenHeader else {
                seenHeader = true
                return
            }
            let place = "line \(record.line)"
            guard record.count == columns.names.count else {
                let expected = options.header ? "the header has \(columns.names.count)" : "the first line has \(columns.names.count)"
                try emit((place, .failure(CommandError("\(CommandResult.plural(record.count, "field")), but \(expected)"))), bytesRead)
                return
            }
            let document = writer.write(record, into: &text).map { Importer.Document.text(text, id: $0) }
            try emit((place, document), bytesRead)
        }
    }

    /// Runs the parser over the whole file, turning its failures into errors
    /// that name the file and line.
    private func parse(_ chunks: inout FileChunks, checkInterruption: () throws -> Void,
                       _ record: (CSVParser.Record, _ bytesRead: UInt64) throws -> Void) throws {
        var parser = CSVParser()
        var first = true
        var bytesRead: UInt64 = 0
        func emit(_ parsed: CSVParser.Record) throws { try record(parsed, bytesRead) }
        do {
            while let data = try chunks.next() {
                bytesRead = chunks.bytesRead
                try checkInterruption()
                try data.withUnsafeBytes { raw in
                    var bytes = raw.bindMemory(to: UInt8.self)
                    if first {
                        try FileChunks.checkEncoding(ofFirstChunk: data, path: path)
                        bytes = UnsafeBufferPointer(rebasing: bytes.dropFirst(FileChunks.byteOrderMarkLength(data)))
                        first = false
                    }
                    try parser.consume(buffer: bytes, emit: emit)
                }
                if parser.pendingRecordBytes > Importer.maximumEntryBytes {
                    throw Importer.entryTooLong("the record starting on line \(parser.pendingRecordLine)", path: path)
                }
            }
            try parser.finish(emit: emit)
        } catch let failure as CSVParser.Failure {
            throw CommandError("line \(failure.line) of \(path): \(failure.reason); nothing was imported")
        }
    }

    /// The field names: the header's, or `c1`, `c2`, … without one.
    private func header(_ record: CSVParser.Record) throws -> [String] {
        guard options.header else { return (1...record.count).map { "c\($0)" } }
        var names: [String] = []
        for index in 0..<record.count {
            guard let name = record.withField(index, { String(validating: $0, as: UTF8.self) }) else {
                throw CommandError("the header (line \(record.line)) of \(path) is not valid UTF-8; convert the file to UTF-8 first (iconv -f LATIN1 -t UTF-8)")
            }
            names.append(name)
        }
        try EntryReader.checkHeader(names, path: path)
        return names
    }

    /// Every column `--types` names must be one of the file's.
    private func checkForcedNames(_ names: [String]) throws {
        for name in options.columnTypes.keys.sorted() where !names.contains(where: { ExactText.same($0, name) }) {
            var message = "--types names the column \(DocumentKeyQuoting.quoted(name)), which \(path) does not have"
            if let suggestion = NameSuggestion.closest(to: name, in: names) {
                message += "; did you mean \(DocumentKeyQuoting.quoted(suggestion))?"
            } else {
                let shown = names.prefix(8).joined(separator: ", ") + (names.count > 8 ? ", …" : "")
                message += options.header ? " (its header: \(shown))" : " (without a header the columns are c1 to c\(names.count))"
            }
            throw CommandError(message + "; nothing was imported")
        }
    }
}
