import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

@Suite("ctrl-C and the display limit")
struct InterruptionTests {
    @Test func longResultsShowTheirFirstAndLastDocuments() throws {
        let harness = try SessionHarness(displayLimit: 3)
        #expect(harness.feed("players") == .done)
        #expect(harness.output.text.contains("4 documents, 3 shown; .maxrows N, or .once FILE for all ("))
        // Keys 2 and 12 first, 34 last; 15, the third, is left out.
        #expect(harness.output.text.contains("Bogaerts") && harness.output.text.contains("Napoli") && harness.output.text.contains("Ortiz"))
        #expect(!harness.output.text.contains("Pedroia"))
        #expect(harness.feed("players.filter { $0.teamId == 1 }.sorted { $0.number.descending }") == .done)
        #expect(harness.output.text.components(separatedBy: "4 documents, 3 shown").count == 3)
        #expect(!harness.output.text.contains("Napoli │      12 │"))
        // A result that fits is shown whole.
        #expect(harness.feed("teams.filter { $0.id <= 3 }") == .done)
        #expect(harness.output.text.contains("\n3 documents ("))
    }

    @Test func scriptsGetEveryDocument() throws {
        let harness = try SessionHarness(interactive: false)
        #expect(harness.feed(".mode ndjson", "players") == .done)
        #expect(harness.output.text.split(separator: "\n").count == 4)
    }

    @Test func anInterruptedImportLeavesTheCollectionUnchanged() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("rows.ndjson").path
        try (1...50).map { #"{"id": \#($0)}"# }.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let store = try DocumentStore.inMemory()
        try store.collection(named: "rows").insert(["id": 1000])
        let interruption = Interruption()
        interruption.request()
        var importer = Importer(store: store, collection: "rows", options: ImportOptions())
        importer.interruption = interruption
        #expect(throws: Interruption.Interrupted.self) { try importer.importFile(atPath: path) }
        #expect(try store.collection(named: "rows").count() == 1)
    }

    @Test func interruptedFetchesAndExportsSayWhatHappened() throws {
        let store = try DocumentStore.inMemory()
        try SampleData.load(into: store)
        let runner = CommandRunner(store: store, schema: StoreSchema(store: store))
        runner.interruption.request()
        let fetch = try CommandParser.parse("players.filter { $0.teamId == 1 }", schema: runner.schema).command
        #expect(throws: Interruption.Interrupted.self) { try runner.run(fetch) }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("players.ndjson").path
        do {
            _ = try runner.run(.exportFile(collection: "players", path: path))
            Issue.record("the export was not interrupted")
        } catch {
            #expect("\(error)" == "interrupted: \(path) was not written")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
    }

    /// ctrl-C reaches the SQLite statements of the command running: they stop
    /// (a write's transaction rolls back) even when no row reaches a check.
    @Test func ctrlCInterruptsTheStatementsOfTheCommandRunning() throws {
        let store = try DocumentStore.inMemory()
        try SampleData.load(into: store)
        let interruption = Interruption()
        interruption.request()
        #expect(throws: (any Error).self) {
            try interruption.interruptible { try store.collection(named: "players").deleteAll() }
        }
        #expect(throws: (any Error).self) {
            try interruption.interruptible { try store.collection(named: "players").count() }
        }
        #expect(try store.collection(named: "players").count() == 4)
        // Outside `interruptible`, and after a reset, the store works as before.
        interruption.reset()
        #expect(try interruption.interruptible { try store.collection(named: "teams").count() } == 4)
    }

    @Test func theSessionForgetsAnEarlierCtrlC() throws {
        let harness = try SessionHarness()
        harness.session.interruption.request()  // pressed while no command ran
        #expect(harness.feed("players.get(34)") == .done)
        #expect(harness.feed("teams") == .done)
        #expect(harness.errors.text.isEmpty)
    }
}
