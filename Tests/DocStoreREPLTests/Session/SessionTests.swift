import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

@Suite("Sessions through the library")
struct SessionTests {
    @Test func getPrintsATableAndASummary() throws {
        let harness = try SessionHarness()
        #expect(harness.feed("players.get(15)") == .done)
        #expect(harness.output.text.contains("│ Dustin    │"))
        #expect(harness.output.text.contains("1 document ("))
        #expect(harness.output.text.contains(" ms)"))
        #expect(harness.errors.text.isEmpty)
    }

    @Test func multiLineInputContinuesWhileBracesAreOpen() throws {
        let harness = try SessionHarness()
        #expect(harness.feed(#"players.insert({"id": 99, "firstName": "Rafael","#) == .needsMore)
        #expect(harness.session.isContinuing)
        #expect(harness.feed(#"  "lastName": "Devers", "number": 11, "teamId": 1, "position": "Third Base"})"#) == .done)
        #expect(harness.output.text.contains("inserted 1 document (key 99)"))
        #expect(try harness.store.collection(named: "players").get(99)?["lastName"] == "Devers")
    }

    @Test func errorsNeverEndAnInteractiveSession() throws {
        let harness = try SessionHarness()
        #expect(harness.feed("players.filter {", "  $0.number > ", "}") == .failed)
        #expect(harness.errors.text == """
            error at line 3, column 1: expected a value (a string, a number, true, false or nil), found '}'
            }
            ^

            """)
        #expect(harness.feed("playrs.get(1)") == .failed)
        #expect(harness.errors.text.contains(#"did you mean "players"?"#))
        #expect(harness.feed("players.insert({\"id\": 34})") == .failed)
        #expect(harness.errors.text.contains("error: duplicate key 34"))
        #expect(harness.feed("teams.get(1)") == .done)
        #expect(harness.output.text.contains("Red Sox"))
    }

    @Test func modesAndHelp() throws {
        let harness = try SessionHarness()
        harness.feed(".mode ndjson", "teams.get(2)")
        #expect(harness.output.text.contains(#"{"id":2,"#) || harness.output.text.contains(#""id":2"#))
        harness.feed(".mode line", "teams.get(3)")
        #expect(harness.output.text.contains("city = Tampa Bay"))
        #expect(harness.feed(".mode") == .done)
        #expect(harness.output.text.contains("results are printed as line (.mode table, json, ndjson, line, csv, tsv, markdown changes it)\n"))
        harness.feed(".help")
        #expect(harness.output.text.contains(".import COLLECTION FILE"))
        #expect(harness.feed(".quit") == .quit)
    }

    @Test func schemaSamplesFieldsAndTypes() throws {
        let harness = try SessionHarness()
        #expect(harness.feed(".schema players") == .done)
        let text = harness.output.text
        #expect(text.contains("│ stats.battingAverage │ real    │ 3 of 4 │"), "\(text)")
        #expect(text.contains("│ nickname             │ text    │ 2 of 4 │"), "\(text)")
    }

    @Test func writesAndImportExportThroughCommands() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("t.csv").path
        try "id,name,score\n1,a,1.5\n2,b,\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let harness = try SessionHarness()
        #expect(harness.feed(".import scores \(csv)") == .done)
        #expect(harness.output.text.contains("imported 2 documents into scores"))
        #expect(harness.feed(#"scores.save({"id": 2, "name": "B"})"#) == .done)
        #expect(harness.feed("scores.delete(1)") == .done)
        let out = directory.appendingPathComponent("scores.ndjson").path
        #expect(harness.feed(".export scores \(out)") == .done)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "{\"id\":2,\"name\":\"B\"}\n")
        #expect(harness.feed(".check scores") == .done)
        #expect(harness.output.text.contains("no damaged documents in scores"))
        #expect(harness.feed(".drop scores") == .done)
        #expect(try harness.store.collections().map(\.name) == ["players", "teams"])
    }

    @Test func readOnlyStoresRefuseWrites() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ro.sqlite").path
        try SampleData.load(into: try DocumentStore(path: path))
        let harness = try SessionHarness(sample: false, store: try DocumentStore(path: path, readOnly: true))
        #expect(harness.feed(#"players.insert({"id": 1})"#) == .failed)
        #expect(harness.errors.text.contains("the store is open read-only (--read-only): insert is refused"))
        #expect(harness.feed("players.get(34)") == .done)
    }

    @Test func queriesRunThroughTheCollectionAPI() throws {
        let harness = try SessionHarness()
        harness.feed(".mode ndjson")
        #expect(harness.feed("players.filter { $0.teamId == 1; $0.number > 10 }.sorted { $0.lastName }.select { $0.lastName }") == .done)
        #expect(harness.output.text.contains("{\"lastName\":\"Napoli\"}\n{\"lastName\":\"Ortiz\"}\n{\"lastName\":\"Pedroia\"}"))
        #expect(harness.feed("players.count { $0.nickname == nil }") == .done)
        #expect(harness.output.text.contains("\n2\n"))
    }

    @Test func pipedSessionsStopAtTheFirstError() throws {
        let harness = try SessionHarness(interactive: false)
        let code = harness.session.run(reader: ArrayLineReader(["teams.get(1)", "teams.get(1.5)", "teams.get(2)"]))
        #expect(code == 1)
        #expect(harness.output.text.contains("Boston"))
        #expect(!harness.output.text.contains("Baltimore"))
        #expect(!harness.output.text.contains("document ("))
        #expect(harness.errors.text.hasPrefix("error at line 2, column 11"))
    }
}

@Suite("The banner")
struct BannerTests {
    @Test func everyLineFitsAnEightyColumnTerminal() throws {
        let store = try DocumentStore.inMemory()
        for arguments in [REPLLauncher.Arguments(), REPLLauncher.Arguments(storePath: "baseball.sqlite", readOnly: true)] {
            let banner = REPLLauncher.banner(arguments, store: store)
            for line in banner.split(separator: "\n") {
                #expect(line.count <= 80, "\(line)")
            }
        }
        #expect(REPLLauncher.banner(REPLLauncher.Arguments(), store: store).contains("sample data"))
    }
}
