@_spi(Backends) import DocStore
import Foundation
import GRDB
import Testing
@testable import DocStoreREPL

@Suite("Fault: .check and .repair in the REPL")
struct CheckRepairCommandTests {
    /// A session on the sample store whose team 2 another tool overwrote with text that is not JSON.
    func harnessWithDamagedTeam() throws -> SessionHarness {
        let harness = try SessionHarness()
        try harness.store.databaseWriter.write { db in
            try db.execute(sql: #"UPDATE teams SET body = '{"id": 2, "city": "Balti' WHERE key = 2"#)
        }
        return harness
    }

    @Test func parsesCheckWithOrWithoutACollectionAndRepairWithOne() throws {
        #expect(try parse(".check") == .check(collection: nil))
        #expect(try parse(".check teams") == .check(collection: "teams"))
        #expect(try parse(".repair teams") == .repair(collection: "teams"))
        #expect(parseError(".repair")?.message.contains(".repair needs a collection name") == true)
        #expect(parseError(".repair nowhere") != nil)
        #expect(parseError(".repair teams players") != nil)
        #expect(HelpText.overview.contains(".repair COLLECTION"))
        #expect(HelpText.overview.contains(".check [COLLECTION]"))
        #expect(REPLCommand.repair(collection: "teams").writes)
    }

    /// What `.check` says to type works as typed: a name of several words, or
    /// one starting with a quote, is quoted (`.repair my coll` read two words).
    @Test func theSuggestedRepairOfANameWithASpaceWorksAsTyped() throws {
        #expect(DocumentKey.commandArgument("teams") == "teams")
        #expect(DocumentKey.commandArgument("my coll") == #""my coll""#)
        #expect(DocumentKey.commandArgument(#""odd\name"#) == #""\"odd\\name""#)
        #expect(DocumentKey.commandArgument(#"a"b"#) == #"a"b"#)

        let harness = try SessionHarness()
        try harness.store.collection(named: "my coll").insert(contentsOf: [["id": 1], ["id": 2]])
        try harness.store.databaseWriter.write { db in try db.execute(sql: #"UPDATE "my coll" SET body = '[1' WHERE key = 2"#) }
        #expect(harness.feed(".check") == .failed)
        let suggestion = try #require(harness.output.text.split(separator: "\n").last { $0.hasPrefix("to repair: ") })
        #expect(suggestion == #"to repair: .repair "my coll""#)
        #expect(harness.feed(String(suggestion.dropFirst("to repair: ".count))) == .done, "\(harness.errors.text)")
        #expect(try harness.store.collection(named: "my coll_damaged").count() == 1)
    }

    @Test func aQueryOnTheDamagedCollectionNamesTheKeyAndTheFix() throws {
        let harness = try harnessWithDamagedTeam()
        #expect(harness.feed(#"teams.filter { $0.city == "Boston" }"#) == .failed)
        #expect(harness.errors.text.contains("damaged document (not valid JSON, or not a JSON object) that stops this query: document 2"), "\(harness.errors.text)")
        #expect(harness.errors.text.contains("run .repair teams"))
        #expect(harness.feed("teams.count { $0.abbreviation == \"BOS\" }") == .failed)
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("teams.ndjson").path
        #expect(harness.feed(".export teams \(file)") == .failed)
        #expect(harness.errors.text.contains("document 2 in collection \"teams\" is damaged"))
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func checkShowsWhatWasFoundAndWhatRepairWouldDo() throws {
        let harness = try harnessWithDamagedTeam()
        // Damage fails the command (a script's `-c .check` exits 1), after the report.
        #expect(harness.feed(".check") == .failed)
        #expect(harness.errors.text.contains(".check found problems (the report above)"), "\(harness.errors.text)")
        let whole = harness.output.text
        #expect(whole.contains("SQLite integrity check: ok"), "\(whole)")
        #expect(whole.contains("catalog: consistent with the tables and indexes"))
        #expect(whole.contains("no damaged documents in players"))
        #expect(whole.contains("document 2: not valid JSON"))
        #expect(whole.contains("to repair: .repair teams"))
        #expect(harness.feed(".check teams") == .failed)
        #expect(harness.feed(".check players") == .done, "a healthy collection passes")
        #expect(harness.output.text.dropFirst(whole.count).contains(
            ".repair teams would move 1 damaged document (text unchanged) into the collection \"teams_damaged\""))
    }

    @Test func repairQuarantinesTheDocumentAndQueriesWorkAgain() throws {
        let harness = try harnessWithDamagedTeam()
        #expect(harness.feed(".repair teams") == .done)
        #expect(harness.output.text.contains("moved 1 damaged document (2) from \"teams\" into \"teams_damaged\""), "\(harness.output.text)")
        #expect(harness.feed(#"teams.filter { $0.city == "Boston" }.count()"#) == .done)
        #expect(harness.output.text.contains("can be queried again\n1\n"), "\(harness.output.text)")
        let quarantined = try harness.store.collection(named: "teams_damaged").all()
        #expect(quarantined.map { $0["text"] } == [.string(#"{"id": 2, "city": "Balti"#)])
        #expect(harness.feed(".check teams") == .done)
        #expect(harness.output.text.contains("no damaged documents in teams (3 documents checked)"))
    }

    @Test func aReadOnlyStoreRefusesRepair() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ro.sqlite").path
        try SampleData.load(into: try DocumentStore(path: path))
        let harness = try SessionHarness(sample: false, store: try DocumentStore(path: path, readOnly: true))
        #expect(harness.feed(".repair teams") == .failed)
        #expect(harness.errors.text.contains(".repair is refused"))
        #expect(harness.feed(".check") == .done)
    }
}
