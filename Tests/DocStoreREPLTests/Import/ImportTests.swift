import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

@Suite("Import and export")
struct ImportTests {
    let directory: URL
    let removal: RemovedOnRelease
    let store: DocumentStore

    init() throws {
        directory = try temporaryDirectory()
        removal = RemovedOnRelease(directory)
        store = try DocumentStore.inMemory()
    }

    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Data(text.utf8))
    }

    func write(_ name: String, _ data: Data) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    func importFile(_ path: String, into collection: String = "items", _ options: ImportOptions = ImportOptions()) throws -> ImportReport {
        var importer = Importer(store: store, collection: collection, options: options)
        importer.batchSize = 2  // small batches, so that failures span committed-looking batches
        return try importer.importFile(atPath: path)
    }

    func documents(_ collection: String = "items") throws -> [JSONValue] {
        try store.collection(named: collection).all()
    }

    /// The error's description, or nil when no error was thrown.
    func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func ndjsonImportsEveryLine() throws {
        let path = try write("a.ndjson", "{\"id\": 1, \"name\": \"a\"}\r\n\n{\"id\": 2, \"n\": 2.5}\n{\"name\": \"generated key\"}")
        let report = try importFile(path)
        #expect(report.imported == 3)
        let stored = try documents()
        #expect(stored.count == 3)
        #expect(stored[0] == ["id": 1, "name": "a"])
        #expect(stored[2]["name"] == "generated key")
    }

    @Test func aBadLineStopsTheImportAndLeavesTheCollectionAsItWas() throws {
        try store.collection(named: "items").insert(["id": 100, "kept": true])
        let lines = (1...9).map { "{\"id\": \($0)}" } + ["{\"id\": 10, oops}"] + (11...20).map { "{\"id\": \($0)}" }
        let path = try write("bad.ndjson", lines.joined(separator: "\n"))
        let message = failure { _ = try importFile(path) }
        #expect(message?.contains("line 10 of") == true, "\(message ?? "")")
        #expect(message?.contains("column 12") == true, "\(message ?? "")")
        #expect(message?.contains("unchanged") == true)
        #expect(try documents() == [["id": 100, "kept": true]])
    }

    @Test func skipBadSkipsAndCounts() throws {
        let path = try write("bad.ndjson", "{\"id\": 1}\n[1]\n{\"id\": 3\n{\"id\": 4}\n{\"id\": 1}\n")
        let report = try importFile(path, ImportOptions(skipBad: true))
        #expect(report.imported == 2)
        #expect(report.skipped == 3)
        #expect(report.summary.contains("line 2: expected a JSON object, found array"))
        #expect(report.summary.contains("line 5: duplicate key 1"))
        #expect(try documents().map { $0["id"] } == [1, 4])
    }

    /// Every line bad (a file of another format, say) said "imported 0
    /// documents" and exit status 0 (helper-60): it is a failure.
    @Test func skipBadWithEveryLineBadFails() throws {
        let path = try write("wrong.ndjson", "id,name\n1,Boston\n2,Chicago\n")
        let message = failure { _ = try importFile(path, into: "fresh", ImportOptions(skipBad: true)) }
        #expect(message?.hasPrefix("every entry of \(path) was bad (3 bad lines), so nothing was imported:\n  line 1: ") == true,
                "the first bad lines are shown: \(message ?? "")")
        #expect(try store.collections().map(\.name).contains("fresh") == false)
    }

    @Test func aNewCollectionIsNotCreatedByAFailedImport() throws {
        let path = try write("truncated.ndjson", "{\"id\": 1}\n{\"id\": 2, \"name\": \"trun")
        let message = failure { _ = try importFile(path, into: "fresh") }
        #expect(message?.contains("line 2") == true, "\(message ?? "")")
        #expect(try store.collections().map(\.name).contains("fresh") == false)
    }

    @Test func wrongEncodingsAreRefused() throws {
        var latin1 = Data("id,name\n1,".utf8)
        latin1.append(0xE9)  // "é" in Latin-1
        latin1.append(contentsOf: Data("\n2,ok\n".utf8))
        let csv = try write("latin1.csv", latin1)
        let message = failure { _ = try importFile(csv) }
        #expect(message?.contains("line 2") == true && message?.contains("UTF-8") == true, "\(message ?? "")")
        #expect(try documents().isEmpty)

        let utf16 = try write("utf16.ndjson", "{\"id\": 1}\n".data(using: .utf16) ?? Data())
        #expect(failure { _ = try importFile(utf16) }?.contains("UTF-16") == true)

        var badBytes = Data("{\"id\": 1}\n{\"id\": 2, \"s\": \"".utf8)
        badBytes.append(0xFF)
        badBytes.append(contentsOf: Data("\"}\n".utf8))
        let ndjson = try write("bad-utf8.ndjson", badBytes)
        #expect(failure { _ = try importFile(ndjson) }?.contains("line 2") == true)
        #expect(try documents().isEmpty)
    }

    @Test func jsonArrays() throws {
        let path = try write("a.json", "\u{FEFF}[{\"id\": 1, \"b\": 1, \"a\": 2}, {\"id\": 2}]")
        #expect(try importFile(path).imported == 2)
        guard case .object(let first)? = try documents().first else {
            Issue.record("nothing stored")
            return
        }
        #expect(Set(first.keys) == ["id", "b", "a"])

        let broken = try write("broken.json", "[{\"id\": 3},\n {\"id\": 4,]")
        let message = failure { _ = try importFile(broken) }
        #expect(message?.contains("line 2, column") == true, "\(message ?? "")")
        let mixed = try write("mixed.json", "[{\"id\": 5}, 6]")
        #expect(failure { _ = try importFile(mixed) }?.contains("element 2") == true)
        #expect(try documents().count == 2)
    }

    @Test func csvInfersNumbersAndLeavesEmptyCellsOut() throws {
        let path = try write("people.csv", "playerID,birthYear,weight,nameFirst,note\naardsda01,1981,215.5,David,\"a, \"\"quoted\"\"\nnote\"\naaronha01,,180,Hank,\n")
        let report = try importFile(path, into: "people", ImportOptions(keyField: "playerID"))
        #expect(report.imported == 2)
        let people = try documents("people")
        #expect(people.count == 2)
        #expect(people.first { $0["id"] == "aardsda01" } == ["id": "aardsda01", "playerID": "aardsda01", "birthYear": 1981, "weight": 215.5, "nameFirst": "David", "note": "a, \"quoted\"\nnote"])
        let hank = people.first { $0["id"] == "aaronha01" }
        #expect(hank?["birthYear"] == nil)
        #expect(hank?["note"] == nil)
        // One type per column: 215.5 makes the column's 180 a real too.
        #expect(hank?["weight"].map(FieldSample.typeName) == "real")
        #expect(hank?["weight"]?.numberValue == 180)
    }

    @Test func csvRowsWithTheWrongFieldCountAreBadLines() throws {
        let path = try write("short.csv", "a,b\n1,2\n3\n4,5\n")
        #expect(failure { _ = try importFile(path) }?.contains("line 3") == true)
        #expect(try documents().isEmpty)
        #expect(try importFile(path, ImportOptions(skipBad: true)).imported == 2)
    }

    @Test func lahmanPeople() throws {
        let path = packageRoot.path + "/../shared/data/lahman/People.csv"
        let shared = FileManager.default.fileExists(atPath: path) ? path : "/work/shared/data/lahman/People.csv"
        var importer = Importer(store: store, collection: "people", options: ImportOptions(keyField: "playerID"))
        importer.batchSize = 1000
        let report = try importer.importFile(atPath: shared)
        #expect(report.imported > 20_000)
        let aaron = try store.collection(named: "people").get("aaronha01")
        #expect(aaron?["nameLast"] == "Aaron")
        #expect(aaron?["birthYear"] == 1934)
        #expect(aaron?["height"] == 72)
    }

    @Test func exportIsStableAndRoundTrips() throws {
        let items = store.collection(named: "items")
        try items.insert(contentsOf: [["id": 2, "b": 1, "a": ["z": 1, "y": 2]], ["id": 1, "name": "one"]])
        let ndjson = directory.appendingPathComponent("out.ndjson").path
        #expect(try Exporter(store: store, collection: "items").export(toPath: ndjson) == 2)
        #expect(try String(contentsOfFile: ndjson, encoding: .utf8) == "{\"id\":1,\"name\":\"one\"}\n{\"a\":{\"y\":2,\"z\":1},\"b\":1,\"id\":2}\n")
        let json = directory.appendingPathComponent("out.json").path
        #expect(try Exporter(store: store, collection: "items").export(toPath: json) == 2)
        #expect(try String(contentsOfFile: json, encoding: .utf8) == "[\n{\"id\":1,\"name\":\"one\"},\n{\"a\":{\"y\":2,\"z\":1},\"b\":1,\"id\":2}\n]\n")
        #expect(try importFile(json, into: "copy").imported == 2)
        #expect(try documents("copy") == (try documents()))
    }
}
