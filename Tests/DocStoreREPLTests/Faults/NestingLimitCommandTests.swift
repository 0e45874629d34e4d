import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

@Suite("Fault: the REPL and every import format enforce DocumentStore.maximumNestingDepth")
struct NestingLimitCommandTests {
    /// `{"id": ID, "v": [[…1…]]}`: a document nesting `levels` levels (its own object included).
    func document(id: Int, levels: Int) -> String {
        #"{"id": \#(id), "v": "# + String(repeating: "[", count: levels - 1) + "1" + String(repeating: "]", count: levels - 1) + "}"
    }

    /// The column of the bracket opening level 513 in `document(id:levels:)` (one-digit ids).
    let tooDeepColumn: Int = #"{"id": 1, "v": "#.count + 512

    @Test func insertLiteralsAcceptTheLimitAndNameLineAndColumnPastIt() throws {
        let harness = try SessionHarness(sample: false)
        #expect(harness.feed("deep.insert(\(document(id: 1, levels: 512)))") == .done)
        #expect(harness.feed("deep.insert([\(document(id: 2, levels: 512)), \(document(id: 3, levels: 512))])") == .done,
                "\(harness.errors.text)")
        #expect(try harness.store.collection(named: "deep").keys(DocumentQuery(.compare(FieldPath("id"), .notEqual, 0))).count == 3)
        let expected = try JanssonJSON.parse(document(id: 1, levels: 512))
        #expect(try harness.store.collection(named: "deep").get(1) == expected)

        #expect(harness.feed("deep.insert(\n         \(document(id: 4, levels: 513)))") == .failed)
        let column = 9 + tooDeepColumn
        #expect(harness.errors.text.contains("error at line 2, column \(column)"), "\(harness.errors.text)")
        #expect(harness.errors.text.contains("deeper than 512 levels, DocStore's limit"))
        #expect(try harness.store.collection(named: "deep").count() == 3)
    }

    @Test func everyImportFormatAcceptsTheLimitAndRefusesOneMore() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore.inMemory()
        func importFile(_ name: String, _ text: String, into collection: String) throws -> String? {
            let path = directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            do {
                _ = try Importer(store: store, collection: collection, options: ImportOptions()).importFile(atPath: path)
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(try importFile("ok.ndjson", document(id: 1, levels: 512) + "\n" + document(id: 2, levels: 3) + "\n", into: "lines") == nil)
        #expect(try importFile("ok.json", "[\n" + document(id: 1, levels: 512) + ",\n" + document(id: 2, levels: 512) + "\n]", into: "array") == nil)
        #expect(try importFile("one.json", document(id: 1, levels: 512), into: "single") == nil)
        #expect(try store.collection(named: "lines").count() == 2)
        #expect(try store.collection(named: "array").count() == 2)
        #expect(try store.collection(named: "array").get(2) == (try JanssonJSON.parse(document(id: 2, levels: 512))))

        let ndjson = try #require(try importFile("deep.ndjson", document(id: 7, levels: 3) + "\n" + document(id: 8, levels: 513) + "\n", into: "deeplines"))
        #expect(ndjson.contains("line 2"), "\(ndjson)")
        #expect(ndjson.contains("column \(tooDeepColumn)"))
        #expect(ndjson.contains("deeper than 512 levels"))
        let json = try #require(try importFile("deep.json", "[\n" + document(id: 7, levels: 3) + ",\n" + document(id: 8, levels: 513) + "\n]", into: "deeparray"))
        #expect(json.contains("line 3, column \(tooDeepColumn)"), "\(json)")
        #expect(json.contains("deeper than 512 levels"))
        #expect(try store.collections().map(\.name).filter { $0.hasPrefix("deep") }.isEmpty, "nothing was imported")
    }

    @Test func skipBadSkipsTheTooDeepLineAndImportsTheRest() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore.inMemory()
        let path = directory.appendingPathComponent("mixed.ndjson").path
        let lines = [document(id: 1, levels: 512), document(id: 2, levels: 513), document(id: 3, levels: 2)]
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        var options = ImportOptions()
        options.skipBad = true
        let report = try Importer(store: store, collection: "mixed", options: options).importFile(atPath: path)
        #expect(report.imported == 2)
        #expect(report.skipped == 1)
        #expect(report.summary.contains("line 2"), "\(report.summary)")
        #expect(report.summary.contains("deeper than 512 levels"))
        #expect(try store.collection(named: "mixed").keys() == [.integer(1), .integer(3)])
    }

    @Test func theScanSkipsBracketsInStringsAndCountsCharacters() {
        let text = #"{"s": "[[[{{{\"[", "é": "#
        let deep = text + String(repeating: "[", count: 512) + String(repeating: "]", count: 512) + "}"
        let location = deep.utf8.withContiguousStorageIfAvailable { NestingDepthScan.firstTooDeep(in: UnsafeRawBufferPointer($0)) }
        #expect(location == SourceLocation(line: 1, column: text.count + 512))
        let fine = text + "[1]}"
        #expect(fine.utf8.withContiguousStorageIfAvailable { NestingDepthScan.firstTooDeep(in: UnsafeRawBufferPointer($0)) } == .some(nil))
    }
}
