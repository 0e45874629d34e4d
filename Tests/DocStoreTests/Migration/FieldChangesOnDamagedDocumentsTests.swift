import Foundation
import GRDB
import Testing
@testable import DocStore

/// Field changes over documents another tool damaged (helper-45): SQLite's JSON
/// functions rewrote text holding invalid UTF-8 or a lone surrogate, destroying
/// what `check` named and `repair` would have kept, text unchanged; and of a
/// member name held twice `json_remove` took only the first, so removing or
/// renaming the field brought back the value reads had hidden.
@Suite("Field changes over damaged documents")
struct FieldChangesOnDamagedDocumentsTests {
    static let repeated = #"{"id": 2, "a": 20, "a": 21}"#

    /// Documents 1 and 3 sound, document 2 `body` as written by another tool.
    func store(withSecond body: String) throws -> DocumentStore {
        let store = try DocumentStore.inMemory()
        try store.collection(named: "d").insert(contentsOf: [["id": 1, "a": 1, "t": "x"], ["id": 2, "a": 2], ["id": 3, "a": 3, "t": "y"]])
        try store.databaseWriter.write { db in
            try db.execute(sql: "UPDATE d SET body = ? WHERE key = 2", arguments: [body])
        }
        return store
    }

    func bodies(_ store: DocumentStore) throws -> [String] {
        try store.databaseWriter.read { db in try String.fetchAll(db, sql: "SELECT body FROM d ORDER BY key") }
    }

    @Test func removingOrRenamingARepeatedNameIsRefusedAndChangesNothing() throws {
        let store = try store(withSecond: Self.repeated)
        let collection = store.collection(named: "d")
        let before = try bodies(store)
        let removal = try #require(throws: DocStoreError.self) { try collection.removeField(FieldPath("a")) }
        #expect("\(removal)".contains("document 2"), "\(removal)")
        #expect("\(removal)".contains("holds a member name twice"), "\(removal)")
        #expect(throws: DocStoreError.self) { try collection.renameField(FieldPath("a"), to: FieldPath("b")) }
        #expect(try bodies(store) == before)
        // json_set writes the first of the two, as reads see it: allowed.
        try collection.copyField(FieldPath("a"), to: FieldPath("c"))
        #expect(try collection.get(2) == ["id": 2, "a": 20, "c": 20])
    }

    @Test(arguments: [
        "{\"id\": 2, \"a\": 2, \"t\": \"a\u{FFFD}b\"}".replacingOccurrences(of: "\u{FFFD}", with: "\\ud800"),  // a lone surrogate
    ])
    func rewritingADamagedDocumentIsRefusedAndLeavesItsText(body: String) throws {
        let store = try store(withSecond: body)
        let collection = store.collection(named: "d")
        let before = try bodies(store)
        for change in [{ try collection.removeField(FieldPath("a")) }, { try collection.renameField(FieldPath("a"), to: FieldPath("b")) },
                       { try collection.setDefault(FieldPath("q"), to: 0) }, { try collection.copyField(FieldPath("a"), to: FieldPath("z")) }] {
            let error = try #require(throws: DocStoreError.self) { _ = try change() }
            guard case .corruptDocument(_, .integer(2), _) = error else { Issue.record("\(error)"); continue }
        }
        #expect(try bodies(store) == before, "the damaged text is still there for check and repair")
        #expect(try store.check(collection: "d").damaged.map(\.key) == [.integer(2)])
    }

    @Test func invalidUTF8IsRefusedToo() throws {
        let store = try store(withSecond: "{}")
        try store.databaseWriter.write { db in
            try db.execute(sql: #"UPDATE d SET body = '{"id":2,"a":2,"t":"' || CAST(X'FF41' AS TEXT) || '"}' WHERE key = 2"#)
        }
        let before = try bodies(store)
        let error = try #require(throws: DocStoreError.self) { try store.collection(named: "d").removeField(FieldPath("t")) }
        #expect("\(error)".contains("document 2 in collection \"d\" is damaged"), "\(error)")
        #expect(try bodies(store) == before)
    }

    /// An update by query that removes a field does what `removeField` does
    /// (helper-47): `$0.a.remove()` brought back the hidden second `a`.
    @Test func anUpdateRemovingARepeatedNameIsRefused() throws {
        let store = try store(withSecond: Self.repeated)
        let collection = store.collection(named: "d")
        let before = try bodies(store)
        let all = DocumentQuery()
        let error = try #require(throws: DocStoreError.self) { try collection.update(all, [.remove(FieldPath("a"))]) }
        #expect("\(error)".contains("document 2"), "\(error)")
        #expect(try bodies(store) == before)
        // Sets take the first of the two, as reads do: allowed.
        #expect(try collection.update(all, [.set(FieldPath("a"), 7)]) == 3)
        #expect(try collection.get(2)?["a"] == 7)
    }
}
