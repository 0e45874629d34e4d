import Foundation
import GRDB
import Testing
@testable import DocStore

/// A store with the sample teams, teams 2 and 4 overwritten with text that is not
/// JSON by another tool (through the GRDB escape hatch, as sqlite3 would).
func storeWithDamagedTeams(_ damaged: [Int] = [2, 4]) throws -> DocumentStore {
    let store = try DocumentStore.inMemory()
    try store.collection(Team.self).insert(contentsOf: sampleTeams)
    try store.databaseWriter.write { db in
        for key in damaged {
            try db.execute(sql: #"UPDATE teams SET body = '{"id": 1, "city": "Balti' WHERE key = ?"#, arguments: [key])
        }
    }
    return store
}

/// Asserts that `error` is `damagedDocuments` naming teams 2 and 4.
func expectDamagedTeams(_ error: DocStoreError?, sourceLocation: SourceLocation = #_sourceLocation) {
    let keys: [DocumentKey] = [.integer(2), .integer(4)]
    guard let error, case .damagedDocuments(let collection, let found) = error else {
        Issue.record("expected damagedDocuments, got \(String(describing: error))", sourceLocation: sourceLocation)
        return
    }
    #expect(collection == "teams", sourceLocation: sourceLocation)
    #expect(found == keys, sourceLocation: sourceLocation)
    #expect("\(error)".contains("documents 2, 4"), sourceLocation: sourceLocation)
    #expect("\(error)".contains(".repair teams"), "says how to fix it", sourceLocation: sourceLocation)
}

@Suite("Fault: a damaged document names itself in every query on its collection")
struct DamagedQueryTests {
    let city = DocumentQuery(.compare(FieldPath("city"), .equal, "Boston"))

    @Test func filterCountKeysAndSelectNameTheDamagedKeys() throws {
        let teams = try storeWithDamagedTeams().collection(Team.self)
        expectDamagedTeams(try #require(throws: DocStoreError.self) { try teams.fetch(city) })
        expectDamagedTeams(try #require(throws: DocStoreError.self) { try teams.count(city) })
        expectDamagedTeams(try #require(throws: DocStoreError.self) { try teams.keys(city) })
        expectDamagedTeams(try #require(throws: DocStoreError.self) { try teams.exists(DocumentQuery(.compare(FieldPath("city"), .equal, "Nowhere"))) })
        expectDamagedTeams(try #require(throws: DocStoreError.self) {
            try teams.select(DocumentQuery(), fields: [FieldPath("city")])
        })
        expectDamagedTeams(try #require(throws: DocStoreError.self) {
            try teams.fetch(DocumentQuery(sort: [SortKey(FieldPath("city"))]))
        })
    }

    @Test func aggregatesNameTheDamagedKeys() throws {
        let teams = try storeWithDamagedTeams().collection(named: "teams")
        for aggregate in [Aggregate.min(FieldPath("city")), .sum(FieldPath("id")), .distinct(FieldPath("city")),
                          .countBy(FieldPath("city")), .count] {
            let query = aggregate == .count ? city : DocumentQuery()
            expectDamagedTeams(try #require(throws: DocStoreError.self) { try teams.aggregate(query, aggregate) })
        }
    }

    @Test func updateAndDeleteByQueryNameTheDamagedKeysAndChangeNothing() throws {
        let store = try storeWithDamagedTeams()
        let teams = store.collection(named: "teams")
        expectDamagedTeams(try #require(throws: DocStoreError.self) {
            try teams.update(city, [.set(FieldPath("city"), "Boston, MA")])
        })
        expectDamagedTeams(try #require(throws: DocStoreError.self) { try teams.delete(city) })
        #expect(try teams.count() == 4)
        #expect(try store.collection(Team.self).get(1) == sampleTeams[0])
    }

    @Test func creatingAnIndexNamesTheDamagedKeysAndRecordsNoIndex() throws {
        let teams = try storeWithDamagedTeams().collection(Team.self)
        expectDamagedTeams(try #require(throws: DocStoreError.self) { try teams.createIndex(on: FieldPath("city")) })
        #expect(try teams.indexes().isEmpty)
    }

    @Test func aSubqueryIntoADamagedCollectionNamesThatCollection() throws {
        let store = try storeWithDamagedTeams()
        let players = store.collection(named: "players")
        try players.insert(["id": 34, "teamId": 1])
        let inBoston = Condition.isInSubquery(FieldPath("teamId"), Subquery(collection: "teams", condition: .compare(FieldPath("city"), .equal, "Boston")))
        expectDamagedTeams(try #require(throws: DocStoreError.self) { try players.keys(DocumentQuery(inBoston)) })
    }

    @Test func theErrorNamesTheFirstFiveHundredKeys() throws {
        let store = try DocumentStore.inMemory()
        let notes = store.collection(named: "notes")
        try notes.insert(contentsOf: (1...600).map { ["id": .integer(Int64($0)), "text": "n"] })
        try store.databaseWriter.write { db in try db.execute(sql: "UPDATE notes SET body = '[' WHERE key > 50") }
        let error = try #require(throws: DocStoreError.self) { try notes.count(DocumentQuery(.compare(FieldPath("text"), .equal, "n"))) }
        guard case .damagedDocuments("notes", let keys) = error else { Issue.record("\(error)"); return }
        #expect(keys.count == 500)
        #expect(keys.first == .integer(51))
        #expect("\(error)".contains("(500 in all)"))
    }
}
