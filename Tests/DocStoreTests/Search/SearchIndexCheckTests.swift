import Foundation
import GRDB
import Testing
@testable import DocStore

/// A search index that no longer holds what the documents say (changed behind
/// DocStore's back) hides documents from searches: `check` names it, `repair`
/// makes it again, and a sound index is never reported.
@Suite("Search indexes in check and repair")
struct SearchIndexCheckTests {
    static let fox = DocumentQuery(.matches(FieldPath("text"), "fox"))

    /// A file store whose `notes` (integer or string keys) hold two notes, one about a
    /// fox, with a search index on their text.
    static func store(at path: String, stringKeys: Bool) throws -> (DocumentStore, DocumentCollection<JSONValue>, SearchIndexInfo) {
        let store = try DocumentStore(path: path)
        if stringKeys {
            try store.collection(KeyedNote.self, named: "notes").insert(contentsOf: [
                KeyedNote(id: "f", text: "the quick brown fox"), KeyedNote(id: "d", text: "a lazy dog sleeps"),
            ])
        } else {
            try store.collection(named: "notes").insert(contentsOf: [["text": "the quick brown fox"], ["text": "a lazy dog sleeps"]])
        }
        let notes = store.collection(named: "notes")
        let index = try notes.createSearchIndex(on: FieldPath("text"))
        #expect(try store.check(collection: "notes").isHealthy, "a sound index is not a problem")
        #expect(try notes.count(Self.fox) == 1)
        return (store, notes, index)
    }

    @Test func aDocumentRemovedFromTheIndexIsFoundByCheckAndIndexedAgainByRepair() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, notes, index) = try Self.store(at: path, stringKeys: false)
        // Another tool tells FTS5 to forget the first note.
        let fts = quoteIdentifier(index.name)
        try store.databaseWriter.write { db in
            try db.execute(sql: "INSERT INTO \(fts)(\(fts), rowid, c0) VALUES ('delete', 1, 'the quick brown fox')")
        }
        #expect(try notes.count(Self.fox) == 0, "the note is hidden from searches")

        let report = try store.check(collection: "notes")
        #expect(!report.isHealthy && report.needsRepair)
        #expect(report.searchIndexProblem?.contains(index.name) == true, "\(report)")
        #expect("\(report)".contains(".repair notes would make its search indexes again"), "\(report)")
        #expect("\(try store.check())".contains("to repair: .repair notes"))

        let repaired = try store.repair(collection: "notes")
        #expect(repaired.rebuiltSearchIndexes == [index.name] && repaired.movedKeys.isEmpty, "\(repaired)")
        #expect(try notes.count(Self.fox) == 1)
        #expect(try store.check(collection: "notes").isHealthy)
        #expect(try store.repair(collection: "notes").rebuiltSearchIndexes.isEmpty, "nothing more to make again")
    }

    /// String keys are numbered for FTS5 in a table of their own: a key missing
    /// there hides its document from every search, even after FTS5's own rebuild.
    @Test func aStringKeyLostFromTheNumberingIsFoundAndRestored() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, notes, index) = try Self.store(at: path, stringKeys: true)
        let keys = quoteIdentifier(SearchIndexSQL.keysName(index))
        let fts = quoteIdentifier(index.name)
        try store.databaseWriter.write { db in
            try db.execute(sql: "DELETE FROM \(keys) WHERE key = 'f'")
            try db.execute(sql: "INSERT INTO \(fts)(\(fts)) VALUES ('rebuild')")
        }
        #expect(try notes.count(Self.fox) == 0)
        #expect(try store.check(collection: "notes").searchIndexProblem != nil)
        #expect(try store.repair(collection: "notes").rebuiltSearchIndexes == [index.name])
        #expect(try notes.keys(Self.fox) == [.string("f")])
        #expect(try store.check(collection: "notes").isHealthy)
    }

    /// An index whose objects were dropped or whose own tables were damaged (so
    /// that SQLite can't open it, and every write to the collection fails in its
    /// trigger) is named by `check` and made again by `repair`: under a new name
    /// when the damaged table can't be dropped.
    @Test(arguments: [
        ("DROP TRIGGER docstore_search_1_update", "its trigger \"docstore_search_1_update\" is missing", "docstore_search_1"),
        ("DROP VIEW docstore_search_1_source", "its view \"docstore_search_1_source\" is missing", "docstore_search_1"),
        ("DROP TABLE docstore_search_1", "its table \"docstore_search_1\" is missing", "docstore_search_1"),
        ("DELETE FROM docstore_search_1_config", "it can't be opened", "docstore_search_2"),
        ("DROP TRIGGER docstore_search_1_insert; CREATE TRIGGER docstore_search_1_insert AFTER INSERT ON notes BEGIN SELECT 1; END",
         "its trigger \"docstore_search_1_insert\" is not as DocStore makes it", "docstore_search_1"),
        ("DROP TABLE docstore_search_1; CREATE VIRTUAL TABLE docstore_search_1 USING fts5(c0, content='docstore_search_1_source', "
            + "content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'); INSERT INTO docstore_search_1(docstore_search_1) VALUES ('rebuild')",
         "its table \"docstore_search_1\" is not as DocStore makes it", "docstore_search_1"),
    ])
    func missingOrUnopenableIndexesAreMadeAgain(damage: String, finding: String, remade: String) throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (made, _, index) = try Self.store(at: path, stringKeys: false)
        #expect(index.name == "docstore_search_1")
        try made.close()
        // Damaged by another tool; opened afresh (a connection keeps an FTS5
        // table it has opened, with what it read of it).
        let tool = try DatabaseQueue(path: path)
        try tool.write { db in try db.execute(sql: damage) }
        try tool.close()
        let store = try DocumentStore(path: path)
        let notes = store.collection(named: "notes")
        let report = try store.check(collection: "notes")
        #expect(report.searchIndexProblem?.contains(finding) == true, "\(report)")
        #expect(try store.repair(collection: "notes").rebuiltSearchIndexes == [remade])
        try notes.update(DocumentQuery(.compare(FieldPath("text"), .equal, "a lazy dog sleeps")), [.set(FieldPath("text"), "a fox sleeps")])
        #expect(try notes.count(Self.fox) == 2, "writes reach the index again")
        #expect(try store.check(collection: "notes").isHealthy)
        #expect(try store.check().isHealthy, "a damaged table left behind, which nothing runs and SQLite can't drop, is no problem")
        #expect(try notes.searchIndexes().map(\.name) == [remade])
    }

    /// A search index's and field columns' objects whose catalog rows another
    /// tool deleted are orphans: nothing reads them, but their triggers still run
    /// on every write (and fail every write once their table is dropped by
    /// hand). `check` names them and the collection whose `repair` drops them.
    @Test func objectsWhoseCatalogRowsWereDeletedAreNamedAndDroppedByRepair() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (made, notes, index) = try Self.store(at: path, stringKeys: true)
        let columns = try notes.createFieldColumns(on: [FieldPath("text")])
        try made.close()
        let tool = try DatabaseQueue(path: path)
        try tool.write { db in
            try db.execute(sql: "DELETE FROM docstore_search_indexes; DELETE FROM docstore_field_columns")
        }
        try tool.close()

        let store = try DocumentStore(path: path)
        let report = try store.check()
        #expect(!report.isHealthy)
        #expect(Set(report.catalogProblems.map(\.name)) == [index.name, columns.name], "\(report)")
        #expect(report.catalogProblems.allSatisfy { $0.repairedBy == "notes" && $0.problem.contains("still run on every write") }, "\(report)")
        #expect("\(report)".contains("to repair: .repair notes"), "\(report)")
        // The collection's own check names them too (it said "no damaged
        // documents", and was healthy, while its repair would drop them).
        let own = try store.check(collection: "notes")
        #expect(!own.isHealthy && own.needsRepair, "\(own)")
        #expect("\(own)".contains("that the catalog does not record") && "\(own)".contains(".repair notes would drop the objects the catalog lost"), "\(own)")

        let repaired = try store.repair(collection: "notes")
        #expect(Set(repaired.droppedOrphans) == [index.name, columns.name], "\(repaired)")
        let left = try store.databaseWriter.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'docstore_search_%' OR name LIKE 'docstore_columns_%'")
        }
        #expect(left == ["docstore_search_indexes"], "only the catalog's table is left: \(left)")
        #expect(try store.check().isHealthy)
        #expect(try store.check(collection: "notes").isHealthy)
        try store.collection(named: "notes").insert(["id": "n", "text": "a new fox"])
        #expect(try store.collection(named: "notes").count() == 3, "writes work, and no document was touched")
    }

    /// FTS5 compares an index with its documents only on a connection that may
    /// write: a store opened read-only checks the index's objects without it.
    @Test func aReadOnlyStoreChecksTheObjectsOfItsSearchIndexes() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, _, index) = try Self.store(at: path, stringKeys: false)
        try store.close()
        let readOnly = try DocumentStore(path: path, readOnly: true)
        #expect(try readOnly.check().isHealthy)
        try readOnly.close()
        let tool = try DatabaseQueue(path: path)
        try tool.write { db in try db.execute(sql: "DROP VIEW \(quoteIdentifier(SearchIndexSQL.sourceName(index)))") }
        try tool.close()
        let again = try DocumentStore(path: path, readOnly: true)
        #expect(try again.check(collection: "notes").searchIndexProblem?.contains("is missing") == true)
        try again.close()
    }
}
