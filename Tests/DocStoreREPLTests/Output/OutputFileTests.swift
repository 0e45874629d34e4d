import DocStore
import Foundation
import GRDB
import Testing
@testable import DocStoreREPL

/// `.output FILE`, `.once FILE` and `.export FILE QUERY`: results written to
/// files whole or not at all, never into a directory.
@Suite("Results into files")
struct OutputFileTests {
    private func contents(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }

    /// The names in `directory` (a temporary file left behind would show).
    private func names(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test(".once writes the next command's results, then results go back to stdout")
    func once() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("teams.csv")
        let harness = try SessionHarness(interactive: false)
        #expect(harness.feed(".mode csv", ".once \(file.path)", "teams.sorted { $0.id }.select { ($0.id, $0.city) }") == .done)
        #expect(try contents(file) == "id,city\r\n1,Boston\r\n2,Baltimore\r\n3,Tampa Bay\r\n4,Toronto\r\n")
        #expect(harness.output.text.isEmpty)
        harness.feed("teams.count()")
        #expect(harness.output.text == "4\r\n")
        #expect(try names(directory) == ["teams.csv"])
    }

    /// A command that fails before it runs (a syntax error, an unknown
    /// collection) uses up `.once` too: kept, it took the results of the next
    /// command, which were meant for the screen.
    @Test(".once is used up by the next command even when it cannot run")
    func onceUsedUpByAFailedCommand() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("once.txt")
        let harness = try SessionHarness(interactive: false)
        for failing in ["teams.filter { $0.id > }", "nosuch.count()"] {
            #expect(harness.feed(".once \(file.path)", failing) == .failed)
            let before = harness.output.text
            harness.feed("teams.count()")
            #expect(harness.output.text == before + "4\n", "after \(failing)")
            #expect(try names(directory).isEmpty, "after \(failing)")
        }
    }

    /// `.export FILE coll.get(key)` wrote the document and said "exported nothing".
    @Test(".export of a get counts the document it wrote")
    func exportOfAGetCountsIt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("one.json")
        let harness = try SessionHarness(interactive: false)
        #expect(harness.feed(".export \(file.path) teams.get(1)") == .done)
        #expect(harness.errors.text.contains("exported 1 document to"), "\(harness.errors.text)\(harness.output.text)")
        #expect(try contents(file).contains("\"Red Sox\""))
    }

    /// A sample store with a collection `docs` of 300 documents, the 250th damaged.
    private func damagedStore() throws -> DocumentStore {
        let store = try DocumentStore.inMemory()
        try store.collection(named: "docs").insert(contentsOf: (1...300).map { JSONValue.object(["id": .integer(Int64($0))]) })
        try store.databaseWriter.write { db in try db.execute(sql: #"UPDATE "docs" SET body = '{"id": 250,' WHERE key = 250"#) }
        return store
    }

    @Test(".output collects results until .output alone; the file appears whole then")
    func output() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("out.ndjson")
        try Data("old content\n".utf8).write(to: file)
        let harness = try SessionHarness(interactive: false, store: try damagedStore())
        harness.feed(".mode ndjson", ".output \(file.path)", "teams.count()", "players.filter { $0.id == 34 }.select { ($0.lastName) }")
        // Until it is closed, the old file is still there as it was.
        #expect(try contents(file) == "old content\n")
        // A command failing after 249 documents takes back what it wrote.
        #expect(harness.feed("docs") == .failed)
        #expect(harness.errors.text.contains("250"), "\(harness.errors.text)")
        harness.feed(".output")
        #expect(try contents(file) == "4\n{\"lastName\":\"Ortiz\"}\n")
        harness.feed("teams.count()")
        #expect(harness.output.text == "4\n")
        #expect(try names(directory) == ["out.ndjson"])
    }

    @Test(".output into a directory is refused, and nothing changes")
    func directoryRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = try SessionHarness(interactive: false)
        #expect(harness.feed(".output \(directory.path)") == .failed)
        #expect(harness.errors.text.contains("is a directory"), "\(harness.errors.text)")
        // `.once` refuses it at once (the error is its own, not the next command's).
        #expect(harness.feed(".once \(directory.path)") == .failed)
        #expect(harness.feed(".export \(directory.path)/ teams") == .failed)
        #expect(try names(directory).isEmpty)
        harness.feed("teams.count()")
        #expect(harness.output.text == "4\n")
    }

    @Test(".export FILE QUERY writes a query's result in the format of FILE's extension")
    func exportQuery() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = try SessionHarness(interactive: false)
        let csv = directory.appendingPathComponent("p.csv")
        #expect(harness.feed(".export \(csv.path) players.filter { $0.number > 12 }.sorted { $0.number }.select { ($0.lastName, $0.number) }") == .done)
        #expect(try contents(csv) == "lastName,number\r\nPedroia,15\r\nOrtiz,34\r\n")
        #expect(harness.errors.text.contains("exported 2 rows to \(csv.path)"), "\(harness.errors.text)")
        let json = directory.appendingPathComponent("g.json")
        #expect(harness.feed(".export \(json.path) players.group(by: \\.position) { (n: $0.count(), hr: $0.sum(\\.stats.homeRuns)) }.filter { $0.hr > 200 }") == .done)
        struct Group: Decodable, Equatable { var position: String, n: Int, hr: Int }
        let groups = try JSONDecoder().decode([Group].self, from: Data(contentsOf: json))
        #expect(groups == [Group(position: "Designated Hitter", n: 1, hr: 541), Group(position: "First Base", n: 1, hr: 267)])
        let markdown = directory.appendingPathComponent("t.md")
        #expect(harness.feed(".export \(markdown.path) teams.filter { $0.id == 1 }.select { ($0.city) }") == .done)
        #expect(try contents(markdown) == "| city |\n| --- |\n| Boston |\n")
        // The old form still exports a collection.
        let ndjson = directory.appendingPathComponent("teams.ndjson")
        #expect(harness.feed(".export teams \(ndjson.path)") == .done)
        #expect(try contents(ndjson).split(separator: "\n").count == 4)
        #expect(harness.output.text.isEmpty, "results went to the files: \(harness.output.text)")
        #expect(harness.feed(".export \(directory.path)/x.xls teams") == .failed)
        #expect(try names(directory) == ["g.json", "p.csv", "t.md", "teams.ndjson"])
    }

    @Test("a failed export leaves an existing file whole")
    func failedExportKeepsFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // One document late in the collection is damaged: the export fails there.
        let harness = try SessionHarness(interactive: false, store: try damagedStore())
        let file = directory.appendingPathComponent("docs.ndjson")
        try Data("previous export\n".utf8).write(to: file)
        #expect(harness.feed(".export \(file.path) docs") == .failed)
        #expect(harness.errors.text.contains("250"), "the error names the damaged key: \(harness.errors.text)")
        #expect(try contents(file) == "previous export\n")
        #expect(try names(directory) == ["docs.ndjson"])
    }
}
