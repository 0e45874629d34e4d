import Foundation
import Testing
@testable import DocStore

@Suite("Collections: insert, get, save, update, delete")
struct CollectionBasicsTests {
    @Test func insertAndGetRoundTrip() throws {
        let store = try DocumentStore.inMemory()
        let teams = store.collection(Team.self)
        #expect(teams.name == "teams")
        try teams.insert(sampleTeams[0])
        #expect(try teams.get(1) == sampleTeams[0])
        #expect(try teams.get(2) == nil)
        #expect(try teams.count() == 1)
        #expect(try teams.exists(1))
        #expect(try !teams.exists(2))
    }

    @Test func insertingAnExistingKeyFailsNamingCollectionAndKey() throws {
        let store = try DocumentStore.inMemory()
        let teams = store.collection(Team.self)
        try teams.insert(sampleTeams[0])
        var changed = sampleTeams[0]
        changed.city = "Somewhere"
        let error = try #require(throws: DocStoreError.self) { try teams.insert(changed) }
        guard case .duplicateKey(let collection, let key) = error else {
            Issue.record("expected duplicateKey, got \(error)"); return
        }
        #expect(collection == "teams")
        #expect(key == .integer(1))
        #expect("\(error)".contains("duplicate key 1 in collection \"teams\""))
        #expect(try teams.get(1)?.city == "Boston", "the stored document is untouched")
    }

    @Test func batchInsertIsAllOrNothing() throws {
        let store = try DocumentStore.inMemory()
        let teams = store.collection(Team.self)
        try teams.insert(sampleTeams[2])
        #expect(throws: DocStoreError.self) { try teams.insert(contentsOf: sampleTeams) }
        #expect(try teams.count() == 1, "the failed batch left nothing behind")
        try teams.deleteAll()
        let keys = try teams.insert(contentsOf: sampleTeams)
        #expect(keys == [1, 2, 3, 4].map { DocumentKey.integer($0) })
        #expect(try teams.all() == sampleTeams)
    }

    @Test func saveUpsertsAndUpdateIsReadModifyWrite() throws {
        let store = try DocumentStore.inMemory()
        let teams = store.collection(Team.self)
        try teams.save(sampleTeams[0])
        var renamed = sampleTeams[0]
        renamed.nickName = "Sox"
        try teams.save(renamed)
        #expect(try teams.get(1)?.nickName == "Sox")
        let updated = try teams.update(1) { $0.abbreviation = "BSX" }
        #expect(updated.abbreviation == "BSX")
        #expect(try teams.get(1)?.abbreviation == "BSX")
        #expect(try teams.count() == 1)
    }

    @Test func updateOfAMissingDocumentOrChangingTheKeyFails() throws {
        let store = try DocumentStore.inMemory()
        let teams = store.collection(Team.self)
        try teams.insert(sampleTeams[0])
        #expect {
            try teams.update(9) { $0.city = "x" }
        } throws: { error in
            guard case .documentNotFound("teams", .integer(9)) = error as? DocStoreError else { return false }
            return true
        }
        #expect {
            try teams.update(1) { $0.id = 2 }
        } throws: { error in
            guard case .keyChanged("teams", .integer(1), .integer(2)) = error as? DocStoreError else { return false }
            return true
        }
        struct Refused: Error {}
        #expect(throws: Refused.self) { try teams.update(1) { $0.city = "Nowhere"; throw Refused() } }
        #expect(try teams.get(1) == sampleTeams[0], "failed updates changed nothing")
    }

    @Test func deleteReportsWhetherADocumentExisted() throws {
        let store = try DocumentStore.inMemory()
        let teams = store.collection(Team.self)
        try teams.insert(contentsOf: sampleTeams)
        #expect(try teams.delete(2))
        #expect(try !teams.delete(2))
        #expect(try teams.keys() == [1, 3, 4].map { DocumentKey.integer($0) })
        #expect(try teams.deleteAll() == 3)
        #expect(try teams.count() == 0)
    }

    @Test func getManyKeysKeepsTheirOrderAndSkipsMissingOnes() throws {
        let store = try DocumentStore.inMemory()
        let teams = store.collection(Team.self)
        try teams.insert(contentsOf: sampleTeams)
        #expect(try teams.get([4, 9, 1]).map(\.id) == [4, 1])
        #expect(try teams.get([Int]()).isEmpty)
    }

    @Test func generatedKeysForModelsWithoutID() throws {
        let store = try DocumentStore.inMemory()
        let notes = store.collection(Note.self)
        #expect(notes.name == "notes")
        let first = try notes.insert(Note(text: "a"))
        let second = try notes.insert(Note(text: "b"))
        #expect(first == .integer(1))
        #expect(second == .integer(2))
        #expect(try notes.get(2) == Note(text: "b"))
        #expect(throws: DocStoreError.self) { try notes.save(Note(text: "c")) }
    }

    @Test func stringAndUUIDKeys() throws {
        let store = try DocumentStore.inMemory()
        let tagged = store.collection(Tagged.self)
        try tagged.insert(Tagged(id: "a.b", value: 1))
        #expect(try tagged.get("a.b")?.value == 1)
        #expect {
            try tagged.get(1)
        } throws: { error in
            guard case .keyKindMismatch("taggeds", .string, .integer) = error as? DocStoreError else { return false }
            return true
        }
        let accounts = store.collection(Account.self)
        let id = UUID()
        try accounts.insert(Account(id: id, owner: "me"))
        #expect(try accounts.get(id)?.owner == "me")
        #expect(try store.collection(named: "accounts").get(id)?["owner"] == "me")
    }

    @Test func readingACollectionThatDoesNotExistFindsNothing() throws {
        let store = try DocumentStore.inMemory()
        let teams = store.collection(Team.self, named: "nothing-here")
        #expect(try teams.get(1) == nil)
        #expect(try teams.count() == 0)
        #expect(try teams.all().isEmpty)
        #expect(try !teams.delete(1))
        #expect(try store.collections().isEmpty)
    }
}

@Suite("Reading many keys at once")
struct ManyKeysTests {
    @Test(arguments: [1, 3, 4, 5, 511, 512, 513, 1500])
    func getManyKeysReturnsEveryStoredOneInTheGivenOrder(count: Int) throws {
        let store = try DocumentStore.inMemory()
        let notes = store.collection(named: "notes")
        try notes.insert(contentsOf: (1...2000).map { ["id": .integer(Int64($0)), "n": .integer(Int64($0 * 10))] })
        // Every third key is missing; the rest come back in the order asked.
        let asked = (0..<count).map { i -> Int in i % 3 == 2 ? 5000 + i : 2000 - i }
        let found = try notes.get(asked)
        #expect(found.map { $0["id"] } == asked.filter { $0 <= 2000 }.map { .integer(Int64($0)) })
    }
}
