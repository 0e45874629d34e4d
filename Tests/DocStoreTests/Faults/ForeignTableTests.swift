import Foundation
import GRDB
import Testing
@_spi(Backends) @testable import DocStore

/// Another program put an object of its own where a collection's table was:
/// a table with another column, a table whose key is not its primary key, a
/// view. `.drop` refused to destroy such a table, but `deleteAll` deleted its
/// rows, inserts and updates wrote into it, and a view or a table without a
/// primary key was read as documents (helper-60). Every read and write of the
/// collection is now refused, the rows left as they were; `check` names it.
@Suite("Fault: another program's table or view in a collection's place")
struct ForeignTableTests {
    typealias Document = [String: JSONValue]

    /// A file store with collections `notes` (keys 1 and 2) and `other`, whose
    /// `notes` table `replace` then replaces, opened again afresh for `body`.
    func withStore(replacingNotesWith replace: String, _ body: (DocumentStore) throws -> Void) throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try DocumentStore(path: path)
        try first.collection(named: "notes").insert(contentsOf: [["id": 1, "v": "a"], ["id": 2, "v": "b"]])
        try first.collection(named: "other").insert(["id": 1])
        try first.databaseWriter.write { db in
            try db.execute(sql: "ALTER TABLE notes RENAME TO old_notes")
            try db.execute(sql: replace)
            try db.execute(sql: "DROP TABLE old_notes")
        }
        try first.close()
        let store = try DocumentStore(path: path)
        try body(store)
        try store.close()
    }

    /// Every read and write of `notes` throws the refusal; `other` works.
    func expectRefused(_ store: DocumentStore) throws {
        let notes = store.collection(named: "notes")
        let operations: [(String, () throws -> Void)] = [
            ("deleteAll", { _ = try notes.deleteAll() }),
            ("delete by query", { _ = try notes.delete(DocumentQuery(.always)) }),
            ("insert", { try notes.insert(["id": 3]) }),
            ("update by query", { _ = try notes.update(DocumentQuery(.always), [.set(FieldPath("v"), "z")]) }),
            ("get", { _ = try notes.get(1) }),
            ("count", { _ = try notes.count() }),
            ("query", { _ = try notes.fetch(DocumentQuery(.always)) }),
        ]
        for (name, operation) in operations {
            do {
                try operation()
                Issue.record("\(name) was not refused")
            } catch {
                #expect("\(error)".contains(#"the table "notes" is not a collection's"#) && "\(error)".contains("nothing was done"),
                        "\(name): \(error)")
            }
        }
        #expect(try store.collection(named: "other").count() == 1)
    }

    @Test func aTableWithAnotherColumnIsNeitherReadNorWritten() throws {
        try withStore(replacingNotesWith: """
            CREATE TABLE notes(key INTEGER PRIMARY KEY, body TEXT, owner TEXT NOT NULL);
            INSERT INTO notes SELECT key, body, 'payroll' FROM old_notes
            """) { store in
            try expectRefused(store)
            let rows = try store.databaseWriter.read { db in try String.fetchAll(db, sql: "SELECT owner FROM notes ORDER BY key") }
            #expect(rows == ["payroll", "payroll"], "the other program's rows are untouched")
            #expect(try store.check(collection: "notes").tableProblem?.contains("not a collection's") == true)
        }
    }

    @Test func aTableWhoseKeyIsNotItsPrimaryKeyIsRefusedAndChecked() throws {
        // Two rows of key 1: a lookup by key showed one of them, an export
        // could not be imported again.
        try withStore(replacingNotesWith: """
            CREATE TABLE notes(key INTEGER, body TEXT NOT NULL);
            INSERT INTO notes SELECT key, body FROM old_notes;
            INSERT INTO notes VALUES (1, '{"id":1,"v":"second"}')
            """) { store in
            try expectRefused(store)
            let check = try store.check()
            #expect(!check.isHealthy)
            #expect(check.catalogProblems.contains { $0.name == "notes" && $0.problem.contains("not a collection's") }, "\(check)")
        }
    }

    /// A trigger another program put on a collection's table runs inside its
    /// writes: this one deleted another collection's documents on each insert,
    /// and `check` called the store healthy (helper-60).
    @Test func aForeignTriggerOnACollectionIsNamedByCheck() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(named: "teams").insert(["id": 1])
        try store.collection(named: "people").insert(contentsOf: (1...3).map { ["id": .integer($0)] })
        try store.databaseWriter.write { db in
            try db.execute(sql: "CREATE TRIGGER evil AFTER INSERT ON teams BEGIN DELETE FROM people WHERE key < 3; END")
            // A trigger on a table that is no collection's is not DocStore's business.
            try db.execute(sql: "CREATE TABLE audit(x)")
            try db.execute(sql: "CREATE TRIGGER audited AFTER INSERT ON audit BEGIN SELECT 1; END")
        }
        // Named as DocStore's own, or on DocStore's own tables (helper-61).
        _ = try store.collection(named: "people").createFieldColumns(on: [FieldPath("name")])
        try store.databaseWriter.write { db in
            try db.execute(sql: "CREATE TRIGGER docstore_evil AFTER INSERT ON teams BEGIN DELETE FROM people; END")
            try db.execute(sql: "CREATE TRIGGER evil2 AFTER INSERT ON docstore_columns_1 BEGIN DELETE FROM people; END")
        }
        let check = try store.check()
        #expect(!check.isHealthy)
        #expect(check.catalogProblems.map(\.name) == ["docstore_evil", "evil", "evil2"], "\(check)")
        #expect(check.catalogProblems[1].problem.contains(#"a trigger DocStore didn't make, on collection "teams""#), "\(check)")
        #expect(check.catalogProblems[2].problem.contains(#"a trigger DocStore didn't make, on DocStore's table "docstore_columns_1""#), "\(check)")
    }

    /// The catalog row of a collection deleted by another program: an insert
    /// said the name "differs only by case" from an existing collection's.
    @Test func anInsertIntoACollectionTheCatalogLostSaysSo() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try DocumentStore(path: path)
        try first.collection(named: "people").insert(["id": 1])
        try first.databaseWriter.write { db in try db.execute(sql: "DELETE FROM docstore_collections WHERE name = 'people'") }
        try first.close()
        let store = try DocumentStore(path: path)
        #expect {
            try store.collection(named: "people").insert(["id": 2])
        } throws: { error in
            "\(error)".contains(#"a table of documents named "people" is in the store, but the catalog doesn't record it"#)
        }
        let keys = try store.databaseWriter.read { db in try Int.fetchAll(db, sql: "SELECT key FROM people") }
        #expect(keys == [1], "nothing was written")
    }

    @Test func aViewInTheCollectionsPlaceIsNotReadAsItsDocuments() throws {
        try withStore(replacingNotesWith: "CREATE VIEW notes AS SELECT key, body FROM other") { store in
            try expectRefused(store)
            #expect(try store.foreignTables() == ["notes"])
            let check = try store.check()
            #expect(check.catalogProblems.contains { $0.name == "notes" && $0.problem.contains("not a collection's") }, "\(check)")
        }
    }
}
