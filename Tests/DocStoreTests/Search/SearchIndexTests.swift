import Foundation
import GRDB
import Testing
@testable import DocStore

private let text = FieldPath("text")

/// The keys `text` matches, through the search index.
private func found(_ notes: DocumentCollection<ScoutingNote>, _ search: String) throws -> [Int] {
    try notes.keys(DocumentQuery(.matches(text, search))).compactMap { key in
        if case .integer(let value) = key { Int(value) } else { nil }
    }
}

@Suite("Search indexes: creation, sync by triggers, catalog")
struct SearchIndexTests {
    @Test func aSearchIndexFindsDocumentsByTheirWords() throws {
        let (_, notes) = try indexedNotes()
        #expect(try found(notes, "home run") == [1, 3, 5])
        #expect(try found(notes, "run home") == [1, 3, 5], "any order")
        #expect(try found(notes, "\"home run\"") == [1, 3, 5], "home-run is the phrase too")
        #expect(try found(notes, "\"run home\"") == [])
        #expect(try found(notes, "resume CAFE") == [3], "case and diacritics ignored")
        #expect(try found(notes, "run*") == [1, 2, 3, 5], "prefix: run, runner, runs")
        #expect(try found(notes, "\"home ru\"*") == [1, 3, 5])
        #expect(try found(notes, "plate") == [4])
    }

    @Test func triggersFollowInsertsSavesUpdatesAndDeletes() throws {
        let (_, notes) = try indexedNotes()
        try notes.insert(ScoutingNote(id: 6, player: "Betts", text: "Grand slam, and a home run later.", year: 2018))
        #expect(try found(notes, "home run") == [1, 3, 5, 6])
        try notes.save(ScoutingNote(id: 1, player: "Ortiz", text: "Walked twice.", year: 2004))
        #expect(try found(notes, "home run") == [3, 5, 6])
        #expect(try found(notes, "walked") == [1])
        try notes.delete(3)
        #expect(try found(notes, "home run") == [5, 6])
        let changed = try notes.filter { $0.year == 2005 }.update { $0.text.set(to: "Bunted for a hit.") }
        #expect(changed == 1)
        #expect(try found(notes, "home run") == [6])
        #expect(try found(notes, "bunted") == [5])
        try notes.deleteAll()
        #expect(try found(notes, "home") == [])
    }

    @Test func aRolledBackTransactionLeavesTheIndexAsItWas() throws {
        let (store, notes) = try indexedNotes()
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.write { _ in
                try notes.insert(ScoutingNote(id: 7, player: "Sale", text: "A home run allowed.", year: 2018))
                try notes.delete(1)
                #expect(try found(notes, "home run") == [3, 5, 7], "the transaction sees its own writes")
                throw Abort()
            }
        }
        #expect(try found(notes, "home run") == [1, 3, 5])
        // The index and the table agree: FTS5's own check of an external-content index.
        try store.databaseWriter.write { db in
            let name = try #require(try notes.searchIndexes().first?.name)
            try db.execute(sql: "INSERT INTO \(quoteIdentifier(name))(\(quoteIdentifier(name)), rank) VALUES ('integrity-check', 1)")
        }
    }

    @Test func anIndexCreatedBeforeTheFirstDocumentIsBuiltWithIt() throws {
        let store = try DocumentStore.inMemory()
        let notes = store.collection(ScoutingNote.self, named: "notes")
        let index = try notes.createSearchIndex(on: \.text)
        #expect(try notes.createSearchIndex(on: \.text) == index, "creating it again returns it")
        try notes.insert(contentsOf: sampleNotes)
        #expect(try found(notes, "home run") == [1, 3, 5])
    }

    @Test func stringKeyedCollectionsAreSearchableToo() throws {
        let store = try DocumentStore.inMemory()
        let notes = store.collection(KeyedNote.self, named: "keyed")
        try notes.insert(contentsOf: [KeyedNote(id: "b", text: "home run"), KeyedNote(id: "a", text: "run home"), KeyedNote(id: "c", text: "homer")])
        try notes.createSearchIndex(on: \.text)
        try notes.insert(KeyedNote(id: "d", text: "Home, run!"))
        try notes.save(KeyedNote(id: "a", text: "nothing"))
        try notes.delete("b")
        try notes.save(KeyedNote(id: "e", text: "run to home"))
        let keys = try notes.filter { $0.text.matches("home run") }.keys()
        #expect(keys == [.string("d"), .string("e")])
        try notes.rebuildSearchIndexes()
        #expect(try notes.filter { $0.text.matches("home run") }.keys() == [.string("d"), .string("e")])
        #expect(try notes.filter { $0.text.matches("homer") }.keys() == [.string("c")])
    }

    @Test func theCatalogKeepsSearchIndexesAcrossReopeningAndDropsThemWithTheCollection() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try DocumentStore(path: path)
            let notes = store.collection(ScoutingNote.self, named: "notes")
            try notes.insert(contentsOf: sampleNotes)
            try notes.createSearchIndex(on: \.text, \.player)
            try store.close()
        }
        let store = try DocumentStore(path: path)
        let notes = store.collection(ScoutingNote.self, named: "notes")
        #expect(try notes.searchIndexes().map(\.fields) == [[text, FieldPath("player")]])
        #expect(try found(notes, "ramirez") == [], "a search names its field: player isn't text")
        #expect(try notes.filter { $0.player.matches("ramirez") }.keys() == [.integer(3)])
        #expect(try store.dropCollection(named: "notes"))
        let leftovers = try store.databaseWriter.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name GLOB 'docstore_search_[0-9]*'")
        }
        #expect(leftovers.isEmpty, "no FTS table, view or trigger left: \(leftovers)")
        #expect(try notes.searchIndexes().isEmpty)
    }

    @Test func droppingASearchIndexRemovesItAndItsTriggers() throws {
        let (store, notes) = try indexedNotes()
        #expect(try notes.dropSearchIndex(on: \.text))
        #expect(try !notes.dropSearchIndex(on: \.text))
        try notes.insert(ScoutingNote(id: 8, player: "Devers", text: "home run", year: 2019))
        let objects = try store.databaseWriter.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name GLOB 'docstore_search_[0-9]*'")
        }
        #expect(objects.isEmpty, "\(objects)")
        #expect(throws: DocStoreError.self) { try found(notes, "home") }
    }

    @Test func damagedDocumentsCanStillBeDeletedAndAreNotSearchable() throws {
        let (store, notes) = try indexedNotes()
        try store.databaseWriter.write { db in
            try db.execute(sql: "UPDATE notes SET body = '{not json' WHERE key = 4")
        }
        #expect(try found(notes, "plate") == [], "a damaged document holds no searchable text")
        try notes.delete(4)
        #expect(try notes.count() == 4)
        #expect(try found(notes, "home run") == [1, 3, 5])
    }
}
