// A child process for the crash-safety test: inserts batches of documents, one
// transaction each, and reports every commit on stdout until it is killed.
import DocStore
import Foundation

struct Entry: Codable, Identifiable {
    var id: Int
    var batch: Int
    var payload: String
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: CrashWriter STORE_PATH\n".utf8))
    exit(2)
}
do {
    let store = try DocumentStore(path: arguments[1])
    let entries = store.collection(Entry.self)
    let batchSize = 200
    for batch in 0... {
        try store.write { _ in
            for i in 0..<batchSize {
                try entries.insert(Entry(id: batch * batchSize + i, batch: batch, payload: String(repeating: "x", count: 100)))
            }
        }
        // Unbuffered: the test must see each line as soon as the batch commits.
        FileHandle.standardOutput.write(Data("committed \(batch)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("CrashWriter: \(error)\n".utf8))
    exit(1)
}
