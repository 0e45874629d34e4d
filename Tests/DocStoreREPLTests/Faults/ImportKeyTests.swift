import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// Keys in imported files: a key a file repeats, a key already stored, and an
/// `id` that `--key FIELD` would write over are bad lines that say where and why.
@Suite("Fault: import keys")
struct ImportKeyTests {
    let directory: URL
    let removal: RemovedOnRelease
    let store: DocumentStore

    init() throws {
        directory = try temporaryDirectory()
        removal = RemovedOnRelease(directory)
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

    /// A document without `"id"` got the next free key, which a later line
    /// names as its own: the import failed calling it a key the collection
    /// held, and with --skip-bad dropped the named document (helper-41). Named
    /// keys now go first; the others get keys after them, in file order.
    @Test func aGeneratedKeyNeverTakesAKeyALaterLineNames() throws {
        let path = try file("{\"id\": 1}\n{\"x\": \"first\"}\n{\"id\": 2, \"a\": \"two\"}\n{\"x\": \"second\"}\n{\"id\": 3}\n")
        for options in [ImportOptions(), ImportOptions(skipBad: true)] {
            let collection = options.skipBad ? "skipping" : "fresh"
            let report = try run(path, into: collection, options).get()
            #expect(report.imported == 5 && report.skipped == 0, "\(report.summary)")
            let documents = try store.collection(named: collection).sorted { $0["id"] }.fetch()
            #expect(documents == [["id": 1], ["id": 2, "a": "two"], ["id": 3], ["id": 4, "x": "first"], ["id": 5, "x": "second"]], "\(documents)")
        }
        // A real repeat is still named once, with both lines.
        let repeated = try file("{\"x\": 0}\n{\"id\": 7}\n{\"id\": 7}\n", "repeated.ndjson")
        let text = message(run(repeated, into: "other"))
        #expect(text.contains("line 3 of \(repeated): duplicate key 7: line 2 of the file has the same key"), "\(text)")
        let skipped = try run(repeated, into: "other", ImportOptions(skipBad: true)).get()
        #expect(skipped.imported == 2 && skipped.skipped == 1, "\(skipped.summary)")
        #expect(try store.collection(named: "other").keys() == [7, 8].map { DocumentKey.integer($0) })
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

    /// `--key` naming a field that holds an object said "no "code""; a dotted
    /// name said the same of a nested field it doesn't reach.
    @Test func keyFieldThatCantBeAKeySaysWhy() throws {
        let object = try file("{\"code\": {\"a\": 1}}\n", "object.ndjson")
        #expect(message(run(object, ImportOptions(keyField: "code"))).contains(#"line 1 of \#(object): its "code" is {"a":1}, not an integer or a string"#))
        let nested = try file("{\"c\": {\"d\": 1}}\n", "nested.ndjson")
        #expect(message(run(nested, ImportOptions(keyField: "c.d"))).contains("(--key takes the name of a top-level field, not a path)"))
    }
}
