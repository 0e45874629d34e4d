import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// Issue 11's five questions, typed exactly as an analyst types them at the
/// `docstore` prompt over the Lahman data imported with `.import`. The expected
/// answers come from Fixtures/lahman_expected.py (Python's csv module over the
/// same files, no DocStore), checked in as Fixtures/lahman_expected.json.
@Suite("REPL: groups, joins and computed values on the Lahman data", .serialized)
struct LahmanQuestionsTests {
    static let lines = [
        #"batting.group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }.sorted { $0.hr.descending }.limit(10)"#,
        #"people.filter { $0.birthYear >= 1970 }.group(by: \.birthCountry) { (players: $0.count()) }.sorted { $0.players.descending }.limit(5)"#,
        #"teams.group(by: \.yearID, \.lgID) { (wins: $0.sum(\.W), best: $0.max(\.W), teams: $0.count()) }.filter { $0.teams >= 14 }.sorted { $0.yearID.descending; $0.lgID }.limit(6)"#,
        #"batting.filter { $0.yearID == 2001 }.sorted { $0.HR.descending }.limit(5).join(people, on: \.playerID, as: \.player).select { ($0.player.nameFirst, $0.player.nameLast, $0.HR) }"#,
        #"batting.group(by: \.playerID) { (h: $0.sum(\.H), ab: $0.sum(\.AB)) }.filter { $0.ab >= 8000 }.select { ($0.playerID, avg: Double($0.h) / Double($0.ab)) }.sorted { $0.avg.descending }.limit(5)"#,
    ]

    static var dataDirectory: String {
        let path = packageRoot.path + "/../shared/data/lahman"
        return FileManager.default.fileExists(atPath: path + "/Batting.csv") ? path : "/work/shared/data/lahman"
    }

    /// A session with People, Teams and Batting imported as the issue did.
    static func importedSession() throws -> SessionHarness {
        let harness = try SessionHarness(interactive: false, sample: false)
        harness.feed(".import people \(dataDirectory)/People.csv", ".import teams \(dataDirectory)/Teams.csv",
                     ".import batting \(dataDirectory)/Batting.csv")
        // Messages go to stderr in a script: the three imports' summaries, and nothing else.
        #expect(harness.errors.text.split(separator: "\n").map { $0.hasPrefix("imported ") } == [true, true, true], "\(harness.errors.text)")
        return harness
    }

    @Test func theFiveQuestionsGiveThePythonAnswers() throws {
        let expectedURL = packageRoot.appendingPathComponent("Tests/DocStoreREPLTests/Fixtures/lahman_expected.json")
        let expected = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: expectedURL)) as? [[String: Any]])
        #expect(expected.count == Self.lines.count)
        let harness = try Self.importedSession()
        harness.feed(".mode ndjson")
        let messages = harness.errors.text
        for (line, answer) in zip(Self.lines, expected) {
            let before = harness.output.text.endIndex
            harness.feed(line)
            #expect(harness.errors.text == messages, "\(line)\n\(harness.errors.text)")
            let printed = harness.output.text[before...].split(separator: "\n").map { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
            }
            let columns = try #require(answer["columns"] as? [String])
            let rows = try #require(answer["rows"] as? [[Any]])
            #expect(printed.count == rows.count, "\(line)")
            for (row, want) in zip(printed, rows) {
                #expect(Array(row.keys).sorted() == columns.sorted(), "\(line): columns")
                for (column, value) in zip(columns, want) {
                    #expect(Self.same(row[column], value), "\(line): \(column) is \(row[column] ?? "nothing"), Python says \(value)")
                }
            }
        }
    }

    @Test func tablesShowGroupKeysAndAggregatesAsColumnsAndExplainUsesTheIndex() throws {
        let harness = try Self.importedSession()
        let messages = harness.errors.text
        harness.feed(Self.lines[2])
        let table = harness.output.text
        for header in ["yearID", "lgID", "wins", "best", "teams"] { #expect(table.contains(header), "\(table)") }
        #expect(table.contains("│   2020 │ AL   │  449 │   40 │    15 │"), "\(table)")
        harness.feed(#"teams.createIndex(\.yearID, \.lgID)"#, #"teams.group(by: \.yearID, \.lgID) { (n: $0.count()) }.explain()"#)
        #expect(harness.output.text.contains("USING INDEX docstore_ix_"), "\(harness.output.text)")
        #expect(harness.errors.text.hasPrefix(messages) && !harness.errors.text.contains("error"), "\(harness.errors.text)")
    }

    /// Equal JSON scalars: numbers by value (Python's floats are the same doubles).
    static func same(_ printed: Any?, _ expected: Any) -> Bool {
        switch (printed, expected) {
        case let (a as NSNumber, b as NSNumber): a.doubleValue == b.doubleValue
        case let (a as String, b as String): a == b
        case (nil, is NSNull), (is NSNull, is NSNull): true
        default: false
        }
    }
}
