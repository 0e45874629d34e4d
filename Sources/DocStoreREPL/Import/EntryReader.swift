import DocStore
import Foundation
import OrderedCollections

/// Turns a file's bytes into documents, format by format, each with the place
/// it came from for error messages.
struct EntryReader {
    let path: String
    let format: Importer.Format

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
            try emit((place, result), bytesRead)
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
        }
        if !pending.isEmpty { try parseLine(pending[...], bytesRead: chunks.bytesRead) }
    }

    /// An array of objects (or one object). Read whole: jansson parses a value at once.
    private func readJSON(_ chunks: inout FileChunks, _ emit: Emit) throws {
        var data = Data()
        while let chunk = try chunks.next() {
            if data.isEmpty { try FileChunks.checkEncoding(ofFirstChunk: chunk, path: path) }
            data.append(chunk)
        }
        let skip = FileChunks.byteOrderMarkLength(data)
        let value: JSONValue
        do {
            value = try data.dropFirst(skip).withUnsafeBytes { raw in try JanssonJSON.parse(raw) }
        } catch let error as JanssonJSON.ParseError {
            throw CommandError("\(path) is not valid JSON: line \(error.location.line), column \(error.location.column): \(error.reason); nothing was imported")
        }
        switch value {
        case .object:
            try emit(("the document", .success(value)), chunks.bytesRead)
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                let result: Result<JSONValue, CommandError> = if case .object = element {
                    .success(element)
                } else {
                    .failure(CommandError("expected a JSON object, found \(element.typeName)"))
                }
                try emit(("element \(index + 1)", result), chunks.bytesRead)
            }
        default:
            throw CommandError("\(path) holds \(value.typeName), not an array of objects; nothing was imported")
        }
    }

    /// A header row naming the fields, then one document per record: numbers
    /// inferred, empty cells left out.
    private func readCSV(_ chunks: inout FileChunks, _ emit: Emit) throws {
        var parser = CSVParser()
        var header: [String]?
        var first = true
        var bytesRead: UInt64 = 0
        let invalidUTF8 = CommandError("not valid UTF-8 (the file may be in another encoding, such as Latin-1; convert it with iconv -t UTF-8)")
        func record(_ record: CSVParser.Record) throws {
            let place = "line \(record.line)"
            guard let header else {
                var texts: [String] = []
                for field in record.fields {
                    guard let text = String(validating: field, as: UTF8.self) else {
                        throw CommandError("the header (line 1) of \(path) is not valid UTF-8; convert the file to UTF-8 first (iconv -f LATIN1 -t UTF-8)")
                    }
                    texts.append(text)
                }
                try Self.checkHeader(texts, path: path)
                header = texts
                return
            }
            // Cells go from bytes to values directly: numbers never become strings.
            var keys: [String] = []
            var values: [JSONValue] = []
            keys.reserveCapacity(header.count)
            values.reserveCapacity(header.count)
            for (name, field) in zip(header, record.fields) {
                guard let value = field.withUnsafeBufferPointer({ CSVValue.infer(bytes: $0) }) else {
                    try emit((place, .failure(invalidUTF8)), bytesRead)
                    return
                }
                if let value {
                    keys.append(name)
                    values.append(value)
                }
            }
            guard record.fields.count == header.count else {
                try emit((place, .failure(CommandError("\(CommandResult.plural(record.fields.count, "field")), but the header has \(header.count)"))), bytesRead)
                return
            }
            // The header's names were checked to be unique.
            try emit((place, .success(.object(.init(uncheckedUniqueKeys: keys, values: values)))), bytesRead)
        }
        do {
            while let data = try chunks.next() {
                bytesRead = chunks.bytesRead
                var bytes = data[...]
                if first {
                    try FileChunks.checkEncoding(ofFirstChunk: data, path: path)
                    bytes = bytes.dropFirst(FileChunks.byteOrderMarkLength(data))
                    first = false
                }
                try parser.consume(bytes, emit: record)
            }
            try parser.finish(emit: record)
        } catch let failure as CSVParser.Failure {
            throw CommandError("line \(failure.line) of \(path): \(failure.reason); nothing was imported")
        }
        if header == nil { throw CommandError("\(path) is empty: a CSV file starts with a header row naming the fields") }
    }

    static func checkHeader(_ names: [String], path: String) throws {
        var seen: Set<String> = []
        for (index, name) in names.enumerated() {
            if name.isEmpty { throw CommandError("column \(index + 1) of the header of \(path) has no name") }
            if !seen.insert(name).inserted { throw CommandError("the header of \(path) names \(DocumentKeyQuoting.quoted(name)) twice") }
        }
    }
}
