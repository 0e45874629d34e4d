import DocStore
import Foundation
import GRDB
import Testing
@testable import DocStoreREPL

/// A collection whose table another program dropped (its catalog row kept):
/// `.collections` still lists every other collection with its count and names
/// this one as missing its table (the whole listing failed on the first such
/// collection, hiding the others); a command on it says the table is gone and
/// what to do, not the database's "no such table". Real processes, a real
/// `DROP TABLE` by another connection.
@Suite("Fault: a collection's table dropped by another program")
struct MissingTableTests {
    static let setUp = [#"a.insert({"id": 1})"#, #"b.insert([{"id": 1}, {"id": 2}])"#, #"c.insert({"id": 1})"#]

    @Test func aFileStoreListsTheOthersAndNamesTheMissingTable() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.db").path
        try runProcess(try docstoreBinary(), [path] + Self.setUp.flatMap { ["-c", $0] }).expectSuccess()
        let tool = try DatabaseQueue(path: path)
        try tool.write { db in try db.execute(sql: "DROP TABLE b") }
        try tool.close()
        try Self.expectListingAndErrors(store: path)

        // The library says the same.
        let store = try DocumentStore(path: path)
        defer { try? store.close() }
        let error = #expect(throws: DocStoreError.self) { try store.collection(named: "b").count() }
        guard case .missingTable(let name)? = error else {
            Issue.record("expected missingTable, got \(String(describing: error))")
            return
        }
        #expect(name == "b")
        #expect(try store.collection(named: "a").count() == 1)
    }

    /// `.collections` exits 0 listing a and c with their counts, and b as
    /// missing its table; `b.count()` fails naming the collection and the way out.
    static func expectListingAndErrors(store: String) throws {
        let listing = try runProcess(try docstoreBinary(), [store, "-c", ".collections"])
        #expect(listing.status == 0, "\(listing.stderr)")
        let lines = listing.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(listing.stdout)")
        #expect(lines.contains { $0.hasPrefix("a ") && $0.contains("(1 document, key: integer") }, "\(listing.stdout)")
        #expect(lines.contains { $0.hasPrefix("b ") && $0.contains("its table is missing: can't be counted (.check b)") }, "\(listing.stdout)")
        #expect(lines.contains { $0.hasPrefix("c ") && $0.contains("(1 document, key: integer") }, "\(listing.stdout)")

        let exported = FileManager.default.temporaryDirectory.appendingPathComponent("b-\(UUID().uuidString).ndjson").path
        let export = try runProcess(try docstoreBinary(), [store, "-c", ".export b \(exported)"])
        #expect(export.status == 1 && export.stderr.contains(#"collection "b" has no table"#), "\(export.stderr)")
        #expect(!FileManager.default.fileExists(atPath: exported))
        let count = try runProcess(try docstoreBinary(), [store, "-c", "b.count()"])
        #expect(count.status == 1)
        #expect(count.stderr.contains(#"collection "b" has no table (another session dropped the collection, or another program its table)"#), "\(count.stderr)")
        #expect(count.stderr.contains("forget the collection with .drop b (dropCollection in Swift)"), "\(count.stderr)")
    }
}

/// A table another program made in a collection's place (the collection's own
/// dropped, one of other columns created under its name): `.check` names it
/// and checks the rest (on a file it stopped at "no such column: key"), and
/// `.drop` refuses rather than destroy that program's rows (it dropped them).
struct ForeignTableChecks {
    static func expectRefusal(store: String, rowsLeft: () throws -> String) throws {
        let check = try runProcess(try docstoreBinary(), [store, "-c", ".check"])
        #expect(check.status == 1)
        #expect(check.stdout.contains(#"the table "b" is not a collection's (not a primary key `key` and a `body` column alone"#), "\(check.stdout)\(check.stderr)")
        let own = try runProcess(try docstoreBinary(), [store, "-c", ".check b"])
        #expect(own.status == 1 && own.stdout.contains(#"the table "b" is not a collection's"#), "\(own.stdout)\(own.stderr)")
        #expect(check.stdout.contains("no damaged documents in a"), "the others are checked: \(check.stdout)\(check.stderr)")
        // The listing doesn't pass its rows off as b's documents (it counted them).
        let listing = try runProcess(try docstoreBinary(), [store, "-c", ".collections"])
        #expect(listing.status == 0 && listing.stdout.contains("b  (another program's table stands in its place, not documents: not counted (.check b), key: integer)"), "\(listing.stdout)\(listing.stderr)")
        #expect(listing.stdout.contains("a  (1 document, key: integer)"), "\(listing.stdout)")
        let drop = try runProcess(try docstoreBinary(), [store, "-c", ".drop b"])
        #expect(drop.status == 1)
        #expect(drop.stderr.contains("dropping the collection would destroy them, so .drop refuses"), "\(drop.stderr)")
        #expect(try rowsLeft() == "1", "the other program's row is still there")
    }
}

extension MissingTableTests {
    /// A salvage copies every other collection and names the one whose table
    /// is gone (it copied nothing and exited 1).
    @Test func aSalvageCopiesTheOthersAndNamesTheCollectionWithoutATable() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.db").path, copy = directory.appendingPathComponent("copy.db").path
        try runProcess(try docstoreBinary(), [path] + Self.setUp.flatMap { ["-c", $0] }).expectSuccess()
        let tool = try DatabaseQueue(path: path)
        try tool.write { db in try db.execute(sql: "DROP TABLE b") }
        try tool.close()
        let salvage = try runProcess(try docstoreBinary(), ["copy", "--salvage", path, copy])
        #expect(salvage.status == 1, "a collection was not copied: \(salvage.stderr)")
        #expect(salvage.stderr.contains("collection b: its table is missing from the source; nothing of it was copied"), "\(salvage.stderr)")
        let listing = try runProcess(try docstoreBinary(), [copy, "-c", ".collections"])
        let listed: [String] = listing.stdout.split(separator: "\n").map { String($0.prefix(1)) }
        #expect(listed == ["a", "c"], "\(listing.stdout)")
    }

    @Test func aFileRefusesToDropAnotherProgramsTable() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.db").path
        try runProcess(try docstoreBinary(), [path] + Self.setUp.flatMap { ["-c", $0] }).expectSuccess()
        let tool = try DatabaseQueue(path: path)
        // Even with a key and a body: its other column is not DocStore's.
        try tool.write { db in try db.execute(sql: "DROP TABLE b; CREATE TABLE b (key INTEGER PRIMARY KEY, body TEXT, extra TEXT); INSERT INTO b VALUES (1, '{}', 'important')") }
        try ForeignTableChecks.expectRefusal(store: path) {
            "\(try tool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM b") ?? 0 })"
        }
        try tool.close()
    }
}

extension PostgresREPLTests {
    @Suite("Fault: a collection's table dropped by another program, on PostgreSQL")
    struct MissingTableOnPostgresTests {
        @Test func theListingShowsTheOthersAndNamesTheMissingTable() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            try runProcess(try docstoreBinary(), [url] + MissingTableTests.setUp.flatMap { ["-c", $0] }).expectSuccess()
            try PostgresREPLServer.psql("DROP TABLE b", databaseURL: url)
            try MissingTableTests.expectListingAndErrors(store: url)
        }

        @Test func postgresRefusesToDropAnotherProgramsTable() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            try runProcess(try docstoreBinary(), [url] + MissingTableTests.setUp.flatMap { ["-c", $0] }).expectSuccess()
            try PostgresREPLServer.psql("DROP TABLE b; CREATE TABLE b (x int); INSERT INTO b VALUES (1);", databaseURL: url)
            try ForeignTableChecks.expectRefusal(store: url) {
                try PostgresREPLServer.psql("SELECT count(*) FROM b", databaseURL: url)
                    .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.first { Int($0) != nil } ?? ""
            }
            // Opening the store left that table alone: DocStore's live-query
            // triggers on it broke its every write ("column key does not exist").
            try PostgresREPLServer.psql("INSERT INTO b VALUES (2); UPDATE b SET x = 3 WHERE x = 2; DELETE FROM b WHERE x = 3;", databaseURL: url)
            // A view in a collection's place: the store opens (adding triggers
            // to it failed, and so did every open), and .check names it.
            try PostgresREPLServer.psql("DROP TABLE c; CREATE VIEW c AS SELECT 1 AS key, '{}'::jsonb AS body;", databaseURL: url)
            let check = try runProcess(try docstoreBinary(), [url, "-c", ".check"])
            #expect(check.stdout.contains(#"the table "c" is not a collection's"#), "\(check.stdout)\(check.stderr)")
        }
    }
}
