import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

@Suite("REPL: field columns")
struct FieldColumnsCommandTests {
    @Test func columnsAreMadeListedUsedAndDropped() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("games.sqlite").path
        let result = try runProcess(try docstoreBinary(), [store, "--mode", "csv"], input: #"""
            games.insert([{"id": 1, "hr": 3, "team": "BOS"}, {"id": 2, "hr": 41, "team": "NYA"}, {"id": 3, "hr": "41", "team": "BOS"}])
            games.createFieldColumns(\.hr, \.team)
            games.indexes()
            games.filter { $0.hr >= 40 }.count()
            .explain games.filter { $0.hr >= 40 }.count()
            games.group(by: \.team) { (n: $0.count(), hr: $0.sum(\.hr)) }
            games.dropFieldColumns(\.hr)
            games.indexes()
            .collections
            games.createFieldColumns()

            """#)
        #expect(result.status == 1, "the last line is a mistake: \(result.stderr)")
        #expect(result.stderr.contains("games keeps hr, team in columns (docstore_columns_1)"), "\(result.stderr)")
        #expect(result.stderr.contains("dropped the field columns of hr"), "\(result.stderr)")
        #expect(result.stderr.contains("expected a key path such as \\.field, found ')'"), "\(result.stderr)")
        let rows = try csvRows(result.stdout)
        #expect(rows.prefix(3) == [["name", "fields", "unique", "kind"], ["docstore_columns_1", "hr, team", "false", "columns"], ["1"]],
                "\(rows)")
        #expect(result.stdout.contains("docstore_columns.v0 >= ?"), "the count reads the column: \(result.stdout)")
        #expect(result.stdout.contains("games  (3 documents, key: integer, field columns: team)"), "\(result.stdout)")
        #expect(rows.contains(["BOS", "2", "3"]) && rows.contains(["NYA", "1", "41"]), "the string \"41\" is not summed: \(rows)")
        #expect(rows.contains(["docstore_columns_2", "team", "false", "columns"]), "\(rows)")
    }
}

@Suite("REPL: imports into field columns")
struct FieldColumnsImportTests {
    /// An import into an empty collection makes its field columns once, after
    /// the documents; one into a collection with documents goes through the
    /// triggers. Both leave the columns in step (`.check` compares every row).
    @Test func importsLeaveTheColumnsInStep() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("games.sqlite").path
        let first = directory.appendingPathComponent("first.csv").path
        let second = directory.appendingPathComponent("second.csv").path
        try "id,team,hr\n1,BOS,3\n2,NYA,41\n3,BOS,44\n".write(toFile: first, atomically: true, encoding: .utf8)
        try "id,team,hr\n4,BOS,50\n5,SEA,2\n".write(toFile: second, atomically: true, encoding: .utf8)
        let result = try runProcess(try docstoreBinary(), [store, "--mode", "csv"], input: """
            games.createFieldColumns(\\.hr, \\.team)
            .import games \(first)
            games.filter { $0.hr >= 40 }.count()
            .import games \(second)
            games.filter { $0.hr >= 40 }.count()
            games.group(by: \\.team) { $0.count() }
            .check games

            """)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try csvRows(result.stdout.components(separatedBy: "no damaged").first ?? "")
        #expect(rows.prefix(2) == [["2"], ["3"]], "\(rows)")
        #expect(rows.contains(["BOS", "3"]) && rows.contains(["SEA", "1"]), "\(rows)")
        #expect(result.stdout.contains("no damaged documents in games (5 documents checked)"), "\(result.stdout)")
        let explained = try runProcess(try docstoreBinary(), [store, "-c", ".explain games.filter { $0.hr >= 40 }.count()"])
        #expect(explained.stdout.contains("docstore_columns.v0 >= ?"), "\(explained.stdout)")
    }
}

extension PostgresREPLTests {
    @Suite("REPL on PostgreSQL: field columns")
    struct FieldColumnsOnPostgreSQLTests {
        /// PostgreSQL reads jsonb fields without parsing the documents' text:
        /// asking for field columns there says so, and changes nothing.
        @Test func askingForFieldColumnsSaysWhyThereAreNone() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let result = try runProcess(try docstoreBinary(), [url, "--mode", "csv", "--keep-going"], input: #"""
                games.insert([{"id": 1, "hr": 3}, {"id": 2, "hr": 41}])
                games.createFieldColumns(\.hr)
                games.indexes()
                games.filter { $0.hr >= 40 }.count()

                """#)
            #expect(result.status == 1, "the refusal is an error: \(result.stderr)")
            #expect(result.stderr.contains("field columns are for file stores: PostgreSQL reads jsonb fields without parsing the documents' text"),
                    "\(result.stderr)")
            #expect(try csvRows(result.stdout) == [["name", "fields", "unique", "kind"], ["1"]], "no columns listed, the query answers: \(result.stdout)")
        }
    }
}
