@_spi(Backends) import DocStore
import Foundation
import OrderedCollections

/// Turns a file's bytes into documents, format by format, each with the place
/// it came from for error messages.
struct EntryReader {
    let path: String
    let format: Importer.Format
    var options = ImportOptions()
    /// A CSV file's columns, from the first of its two passes.
    var csvColumns: CSVDocumentReader.Columns?

    typealias Emit = (Importer.Entry, _ bytesRead: UInt64) throws -> Void

    func read(_ chunks: inout FileChunks, _ emit: Emit) throws {
        switch format {
        case .ndjson: try readNDJSON(&chunks, emit)
        case .json: try readJSON(&chunks, emit)
        case .csv: try readCSV(&chunks, emit)
        }
    }

    /// One JSON object per line; blank lines are ignored.
    private func readNDJSON(_ chunks: inout FileChunks, _ emit: Emit) throws {
        var pending: [UInt8] = []
        var line = 0
        var first = true
        func parseLine(_ bytes: ArraySlice<UInt8>, bytesRead: UInt64) throws {
            line += 1
            var bytes = bytes
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            let place = "line \(line)"
            let result: Result<JSONValue, CommandError> = bytes.withUnsafeBytes { raw in
                do {
                    let value = try JanssonJSON.parse(raw)
                    guard case .object = value else {
                        return .failure(CommandError("expected a JSON object, found \(value.typeName)"))
                    }
                    return .success(value)
                } catch let error as JanssonJSON.ParseError {
                    return .failure(CommandError("invalid JSON at column \(error.location.column): \(error.reason)"))
                } catch {
                    return .failure(CommandError("\(error)"))
                }
            }
            try emit((place, result.map(Importer.Document.value)), bytesRead)
        }
        while let data = try chunks.next() {
            var bytes = data[...]
            if first {
                try FileChunks.checkEncoding(ofFirstChunk: data, path: path)
                bytes = bytes.dropFirst(FileChunks.byteOrderMarkLength(data))
                first = false
            }
            var start = bytes.startIndex
            while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if pending.isEmpty {
                    try parseLine(ArraySlice(bytes[start..<newline]), bytesRead: chunks.bytesRead)
                } else {
                    pending.append(contentsOf: bytes[start..<newline])
                    try parseLine(pending[...], bytesRead: chunks.bytesRead)
                    pending.removeAll(keepingCapacity: true)
                }
                start = bytes.index(after: newline)
            }
            pending.append(contentsOf: bytes[start...])
            if pending.count > Importer.maximumEntryBytes {
                throw Importer.entryTooLong("line \(line + 1)", path: path)
            }
        }
        if !pending.isEmpty { try parseLine(pending[...], bytesRead: chunks.bytesRead) }
    }

    /// An array of objects (or one object), streamed: the splitter hands over
    /// one element's text at a time, and jansson parses it alone.
    private func readJSON(_ chunks: inout FileChunks, _ emit: Emit) throws {
        var splitter = JSONArraySplitter()
        var first = true
        var bytesRead: UInt64 = 0
        func element(_ element: JSONArraySplitter.Element) throws {
            let value: JSONValue
            do {
                value = try element.bytes.withUnsafeBytes { raw in try JanssonJSON.parse(raw) }
            } catch let error as JanssonJSON.ParseError {
                throw CommandError("\(path) is not valid JSON: \(JSONArraySplitter.fileLocation(error.location, of: element)): \(error.reason); nothing was imported")
            }
            let place = element.isWholeFile ? "the document" : "element \(element.number)"
            let result: Result<JSONValue, CommandError> = if case .object = value {
                .success(value)
            } else {
                .failure(CommandError("expected a JSON object, found \(value.typeName)"))
            }
            try emit((place, result.map(Importer.Document.value)), bytesRead)
        }
        do {
            while let data = try chunks.next() {
                bytesRead = chunks.bytesRead
                try data.withUnsafeBytes { raw in
                    var bytes = raw.bindMemory(to: UInt8.self)
                    if first {
                        try FileChunks.checkEncoding(ofFirstChunk: data, path: path)
                        bytes = UnsafeBufferPointer(rebasing: bytes.dropFirst(FileChunks.byteOrderMarkLength(data)))
                        first = false
                    }
                    try splitter.consume(bytes, emit: element)
                }
                if splitter.pendingElementBytes > Importer.maximumEntryBytes {
                    throw Importer.entryTooLong("the element starting at \(splitter.pendingElementStart)", path: path)
                }
            }
            try splitter.finish(emit: element)
        } catch let failure as JSONArraySplitter.Failure {
            throw CommandError("\(path) is not valid JSON: \(failure.location): \(failure.reason); nothing was imported")
        }
    }

    /// A header row naming the fields, then one document per record, each
    /// column's cells of the type the first pass found.
    private func readCSV(_ chunks: inout FileChunks, _ emit: Emit) throws {
        guard let csvColumns else { throw CommandError("internal error: a CSV file's columns were not read before its records") }
        try CSVDocumentReader(path: path, options: options).read(&chunks, columns: csvColumns, emit)
    }

    /// Refuses a header naming no field or one field twice. Names are compared
    /// by bytes: a composed "é" and "e" with a combining accent are two fields,
    /// as in JSON, and an export gives each its own column (a document may
    /// hold only one of them: a row filling both is refused with its line).
    static func checkHeader(_ names: [String], path: String) throws {
        var seen: Set<ExactText> = []
        for (index, name) in names.enumerated() {
            if name.isEmpty { throw CommandError("column \(index + 1) of the header of \(path) has no name") }
            if !seen.insert(ExactText(name)).inserted {
                throw CommandError("the header of \(path) names \(DocumentKeyQuoting.quoted(name)) twice (column \(index + 1))")
            }
        }
    }
}
