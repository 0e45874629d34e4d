import DocStore
import Foundation

/// Writes a collection to a file: `.ndjson` (one document per line) or `.json`
/// (an array, one document per line). Keys are sorted so that exporting the same
/// data twice gives the same bytes, whatever order documents were written in.
/// The file is written by ``AtomicFileWriter``: whole, or not at all.
struct Exporter {
    let backend: any REPLBackend
    let collection: String
    /// ctrl-C stops the export: an existing file is then left as it was.
    var interruption: Interruption?

    init(backend: any REPLBackend, collection: String) {
        self.backend = backend
        self.collection = collection
    }

    /// An export from a DocStore file or in-memory store.
    init(store: DocumentStore, collection: String) {
        self.init(backend: SQLiteBackend(store: store), collection: collection)
    }

    /// Exports every document in key order; returns how many.
    func export(toPath path: String) throws -> Int {
        let ext = (path as NSString).pathExtension.lowercased()
        guard ["ndjson", "jsonl", "json"].contains(ext) else {
            throw CommandError("export a collection to a .ndjson or .json file (\(path) has neither extension); "
                + "for other formats put the file first: .export \(path) \(collection)")
        }
        let asArray = ext == "json"
        let writer = JSONText(options: .sortedKeys)
        return try AtomicFileWriter.write(toPath: path) { file in
            var count = 0
            var buffer: [UInt8] = []
            if asArray { buffer.append(contentsOf: "[".utf8) }
            try backend.forEachInKeyOrder(collection) { document in
                try interruption?.check("interrupted: \(path) was not written")
                if asArray { buffer.append(contentsOf: (count == 0 ? "\n" : ",\n").utf8) }
                buffer.append(contentsOf: writer.string(document).utf8)
                if !asArray { buffer.append(0x0A) }
                count += 1
                if buffer.count >= 1 << 16 {
                    try file.write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            if asArray { buffer.append(contentsOf: (count == 0 ? "]\n" : "\n]\n").utf8) }
            try file.write(buffer)
            return count
        }
    }
}
