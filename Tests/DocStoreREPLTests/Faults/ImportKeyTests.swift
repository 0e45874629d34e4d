import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// Keys in imported files: a key a file repeats, a key already stored, and an
/// `id` that `--key FIELD` would write over are bad lines that say where and why.
@Suite("Fault: import keys")
struct ImportKeyTests {
    let directory: URL
    let store: DocumentStore

    init() throws {
        directory = try temporaryDirectory()
        store = try DocumentStore.inMemory()
    }

    func file(_ text: String, _ name: String = "keys.ndjson") throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func run(_ path: String, into collection: String = "fresh", _ options: ImportOptions = ImportOptions()) -> Result<ImportReport, any Error> {
        var importer = Importer(store: store, collection: collection, options: options)
        importer.batchSize = 2
        return Result { try importer.importFile(atPath: path) }
    }

    func message(_ result: Result<ImportReport, any Error>) -> String {
        switch result {
        case .success(let report): "succeeded: \(report.summary)"
        case .failure(let error): "\(error)"
        }
    }

    @Test func aKeyTheFileRepeatsNamesBothLinesInANewCollection() throws {
        let path = try file("{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}\n{\"id\": 2, \"again\": true}\n{\"id\": 5}\n")
        let text = message(run(path))
        #expect(text.contains("line 4 of \(path): duplicate key 2: line 2 of the file has the same key"), "\(text)")
        #expect(text.contains("nothing was imported, fresh is unchanged"), "\(text)")
        #expect(try store.collections().isEmpty)

        let report = try run(path, ImportOptions(skipBad: true)).get()
        #expect(report.imported == 4 && report.skipped == 1, "\(report.summary)")
        #expect(try store.collection(named: "fresh").keys() == [1, 2, 3, 5].map { DocumentKey.integer($0) })
        #expect(try store.collection(named: "fresh").get(2)?["again"] == nil)
    }

    @Test func aKeyAlreadyStoredSaysSo() throws {
        try store.collection(named: "items").insert(["id": 3, "kept": true])
        let path = try file("{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}\n{\"id\": 4}\n")
        let text = message(run(path, into: "items"))
        #expect(text.contains("line 3 of \(path): duplicate key 3: items already holds a document with this key"), "\(text)")
        #expect(try store.collection(named: "items").all() == [["id": 3, "kept": true]])
        #expect(try run(path, into: "items", ImportOptions(skipBad: true)).get().imported == 3)
        #expect(try store.collection(named: "items").get(3) == ["id": 3, "kept": true])
    }

    @Test func anUnusableIDOnTheFirstLineOfANewCollectionIsABadLine() throws {
        let path = try file("{\"id\": true}\n{\"id\": 2.5}\n{\"id\": 3}\n{\"name\": \"generated\"}\n")
        let text = message(run(path))
        #expect(text.contains("line 1 of \(path): its \"id\" is true, not an integer or a string"), "\(text)")
        let report = try run(path, ImportOptions(skipBad: true)).get()
        #expect(report.imported == 2 && report.skipped == 2, "\(report.summary)")
        #expect(try store.collection(named: "fresh").keys() == [3, 4].map { DocumentKey.integer($0) })
    }

    @Test func keyFieldNeverOverwritesADifferentID() throws {
        let path = try file("{\"code\": \"a\"}\n{\"code\": \"b\", \"id\": \"b\"}\n{\"code\": \"c\", \"id\": 17}\n{\"code\": \"d\"}\n")
        let text = message(run(path, ImportOptions(keyField: "code")))
        #expect(text.contains("line 3 of \(path): its \"id\" (17) differs from its \"code\" (\"c\")"), "\(text)")
        #expect(try store.collections().isEmpty)

        let report = try run(path, ImportOptions(skipBad: true, keyField: "code")).get()
        #expect(report.imported == 3 && report.skipped == 1, "\(report.summary)")
        #expect(try store.collection(named: "fresh").keys() == ["a", "b", "d"].map { DocumentKey.string($0) })
    }
}
