import DocStore
import Foundation

/// Writes a collection to a file: `.ndjson` (one document per line) or `.json`
/// (an array, one document per line). Keys are sorted so that exporting the same
/// data twice gives the same bytes, whatever order documents were written in.
struct Exporter {
    let store: DocumentStore
    let collection: String
    /// ctrl-C stops the export (the file is then not written).
    var interruption: Interruption?

    /// Exports every document in key order; returns how many.
    func export(toPath path: String) throws -> Int {
        let ext = (path as NSString).pathExtension.lowercased()
        guard ["ndjson", "jsonl", "json"].contains(ext) else {
            throw CommandError("export to a .ndjson or .json file (\(path) has neither extension)")
        }
        let asArray = ext == "json"
        let temporary = path + ".partial"
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
              let handle = FileHandle(forWritingAtPath: temporary) else {
            throw CommandError("cannot create \(path)")
        }
        var count = 0
        var buffer = Data()
        let writer = JSONText(options: .sortedKeys)
        do {
            if asArray { buffer.append(contentsOf: Array("[".utf8)) }
            try store.collection(named: collection).forEach { document in
                try interruption?.check("interrupted: \(path) was not written")
                if asArray { buffer.append(contentsOf: Array((count == 0 ? "\n" : ",\n").utf8)) }
                buffer.append(contentsOf: Array(writer.string(document).utf8))
                if !asArray { buffer.append(0x0A) }
                count += 1
                if buffer.count >= 1 << 16 {
                    try handle.write(contentsOf: buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            if asArray { buffer.append(contentsOf: Array((count == 0 ? "]\n" : "\n]\n").utf8)) }
            try handle.write(contentsOf: buffer)
            try handle.close()
            // Replace the target only once the export is complete.
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: temporary)
            if error is DocStoreError || error is Interruption.Interrupted { throw error }
            throw CommandError("cannot write \(path): \(error.localizedDescription)")
        }
        return count
    }
}
