import Foundation
import Testing
@testable import DocStore

// GRDB's auto-increment idiom: `id` is nil until the model is inserted.

@Document
struct Gamer: Codable, Identifiable, Equatable {
    var id: Int64?
    var name: String
    var score: Int
}

struct IntGamer: Codable, Identifiable, Equatable {
    var id: Int?
    var name: String
}

struct NamedGamer: Codable, Identifiable, Equatable {
    var id: String?
    var name: String
}

/// Codes its id as `_id`: the generated key, written as `"id"`, can't reach it.
struct RenamedIdGamer: Codable, Identifiable, Equatable {
    var id: Int64?
    var name: String
    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case name
    }
}

/// Holds another `"id"` member, nested.
struct Squad: Codable, Identifiable, Equatable {
    struct Captain: Codable, Equatable { var id: Int; var name: String }
    var id: Int64?
    var captain: Captain
}

/// Writes a nil id as `"id": null` rather than leaving it out.
struct NullIdGamer: Codable, Identifiable, Equatable {
    var id: Int64?
    var name: String
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(id, forKey: .id)
    }
}

@Suite("Generated keys written back into optional-id models")
struct GeneratedKeyWriteBackTests {
    @Test func insertInoutSetsTheGeneratedId() throws {
        let store = try DocumentStore.inMemory()
        let gamers = store.collection(Gamer.self)
        var arthur = Gamer(id: nil, name: "Arthur", score: 10)
        let key = try gamers.insert(&arthur)
        #expect(key == .integer(1))
        #expect(arthur.id == 1)
        #expect(try gamers.get(1) == arthur, "the stored document decodes the same id")
        var barbara = Gamer(id: nil, name: "Barbara", score: 20)
        try gamers.insert(&barbara)
        #expect(barbara.id == 2)
    }

    @Test func plainInsertStoresTheKeyAsTheDocumentsId() throws {
        let store = try DocumentStore.inMemory()
        let gamers = store.collection(Gamer.self)
        let key = try gamers.insert(Gamer(id: nil, name: "Arthur", score: 10))
        #expect(try gamers.get(key)?.id == key.integerValue)
        #expect(try store.collection(named: "gamers").get(key)?["id"] == .integer(1))
    }

    @Test func aModelWithAnIdIsStoredUnderIt() throws {
        let store = try DocumentStore.inMemory()
        let gamers = store.collection(Gamer.self)
        var chosen = Gamer(id: 42, name: "Chosen", score: 1)
        #expect(try gamers.insert(&chosen) == .integer(42))
        #expect(chosen.id == 42)
        #expect(try gamers.get(42) == chosen)
        #expect(try gamers.inserted(Gamer(id: nil, name: "Next", score: 2)).id == 43, "generated keys follow the largest")
        let error = try #require(throws: DocStoreError.self) { try gamers.insert(Gamer(id: 42, name: "Again", score: 3)) }
        guard case .duplicateKey(_, .integer(42)) = error else { Issue.record("expected duplicateKey, got \(error)"); return }
    }

    @Test func intOptionalIdsWorkLikeInt64() throws {
        let store = try DocumentStore.inMemory()
        let gamers = store.collection(IntGamer.self)
        let inserted = try gamers.inserted(IntGamer(id: nil, name: "Int"))
        #expect(inserted == IntGamer(id: 1, name: "Int"))
        #expect(try gamers.get(1) == inserted)
        #expect(try gamers.all() == [inserted])
    }

    @Test func batchInsertWritesEveryKeyBack() throws {
        let store = try DocumentStore.inMemory()
        let gamers = store.collection(Gamer.self)
        var batch = [
            Gamer(id: nil, name: "A", score: 1), Gamer(id: nil, name: "B", score: 2),
            Gamer(id: 7, name: "C", score: 3), Gamer(id: nil, name: "D", score: 4),
        ]
        let keys = try gamers.insert(contentsOf: &batch)
        #expect(keys == [1, 2, 7, 8].map { DocumentKey.integer($0) })
        #expect(batch.map(\.id) == [1, 2, 7, 8])
        #expect(try gamers.all() == batch)

        let more = try gamers.inserted(contentsOf: [Gamer(id: nil, name: "E", score: 5), Gamer(id: nil, name: "F", score: 6)])
        #expect(more.map(\.id) == [9, 10])
        #expect(try gamers.get([9, 10]) == more)
    }

    @Test func aFailingBatchStoresNothingAndWritesNothingBack() throws {
        let store = try DocumentStore.inMemory()
        let gamers = store.collection(Gamer.self)
        try gamers.insert(Gamer(id: 3, name: "Taken", score: 0))
        let original = [
            Gamer(id: nil, name: "A", score: 1), Gamer(id: nil, name: "B", score: 2),
            Gamer(id: 3, name: "Duplicate", score: 3), Gamer(id: nil, name: "D", score: 4),
        ]
        var batch = original
        #expect(throws: DocStoreError.self) { try gamers.insert(contentsOf: &batch) }
        #expect(batch == original, "no id was written back")
        #expect(throws: DocStoreError.self) { try gamers.inserted(contentsOf: original) }
        #expect(try gamers.keys() == [.integer(3)], "the failed batches left nothing behind")

        var single = Gamer(id: 3, name: "Duplicate", score: 3)
        #expect(throws: DocStoreError.self) { try gamers.insert(&single) }
        #expect(single.id == 3 && single.name == "Duplicate")
    }

    @Test func saveInoutInsertsThenReplaces() throws {
        let store = try DocumentStore.inMemory()
        let gamers = store.collection(Gamer.self)
        var gamer = Gamer(id: nil, name: "Saved", score: 1)
        try gamers.save(&gamer)
        #expect(gamer.id == 1)
        gamer.score = 99
        try gamers.save(&gamer)
        try gamers.save(gamer)
        #expect(try gamers.count() == 1)
        #expect(try gamers.get(1)?.score == 99)

        let error = try #require(throws: DocStoreError.self) { try gamers.save(Gamer(id: nil, name: "No id", score: 0)) }
        guard case .missingKey(_, let reason) = error else { Issue.record("expected missingKey, got \(error)"); return }
        #expect(reason.contains("insert(&model)"))
    }

    @Test func updateDeleteAndTypedQueriesWork() throws {
        let store = try DocumentStore.inMemory()
        let gamers = store.collection(Gamer.self)
        let stored = try gamers.inserted(contentsOf: (1...5).map { Gamer(id: nil, name: "G\($0)", score: $0 * 10) })
        let updated = try gamers.update(2) { $0.score = 25 }
        #expect(updated.id == 2 && updated.score == 25)
        #expect(try gamers.delete(5))
        #expect(try gamers.filter { $0.score > 20 }.sorted { $0.score.descending }.fetch().map(\.id) == [4, 3, 2])
        #expect(try gamers.filter { $0.id == 1 }.fetch() == [stored[0]])
        #expect(try gamers.count { $0.id >= 3 } == 2)
        let error = try #require(throws: DocStoreError.self) { try gamers.update(1) { $0.id = 9 } }
        guard case .keyChanged = error else { Issue.record("expected keyChanged, got \(error)"); return }
        let cleared = try #require(throws: DocStoreError.self) { try gamers.update(1) { $0.id = nil } }
        guard case .missingKey = cleared else { Issue.record("expected missingKey, got \(cleared)"); return }
        #expect(try gamers.get(1) == stored[0], "the document is unchanged")
    }

    @Test func transactionCollectionsWriteKeysBack() throws {
        let store = try DocumentStore.inMemory()
        let gamer = try store.write { tx in
            var gamer = Gamer(id: nil, name: "In a transaction", score: 1)
            try tx.collection(Gamer.self).insert(&gamer)
            return gamer
        }
        #expect(gamer.id == 1)
        #expect(try store.collection(Gamer.self).get(1) == gamer)
    }

    @Test func onlyIntegerKeysAreGenerated() throws {
        let store = try DocumentStore.inMemory()
        let gamers = store.collection(NamedGamer.self)
        var named = NamedGamer(id: "ann", name: "Ann")
        try gamers.insert(&named)
        #expect(try gamers.get("ann") == named)
        var unnamed = NamedGamer(id: nil, name: "Nobody")
        let error = try #require(throws: DocStoreError.self) { try gamers.insert(&unnamed) }
        guard case .missingKey(_, let reason) = error else { Issue.record("expected missingKey, got \(error)"); return }
        #expect(reason.contains("string keys"))
        #expect(unnamed.id == nil)
        #expect(try gamers.count() == 1)
    }

    @Test func anIdCodedUnderAnotherNameIsAnErrorNotASilentNil() throws {
        let store = try DocumentStore.inMemory()
        let gamers = store.collection(RenamedIdGamer.self)
        var gamer = RenamedIdGamer(id: nil, name: "Renamed")
        let error = try #require(throws: DocStoreError.self) { try gamers.insert(&gamer) }
        guard case .missingKey(_, let reason) = error else { Issue.record("expected missingKey, got \(error)"); return }
        #expect(reason.contains("CodingKeys"))
        #expect(gamer.id == nil)
        #expect(try gamers.count() == 0)
    }

    @Test func documentsAlreadyHoldingAnIdMemberGetTheKeyToo() throws {
        let store = try DocumentStore.inMemory()
        let squads = store.collection(Squad.self)
        var squad = Squad(id: nil, captain: .init(id: 99, name: "Cap"))
        try squads.insert(&squad)
        #expect(squad == Squad(id: 1, captain: .init(id: 99, name: "Cap")))
        #expect(try squads.get(1) == squad)

        let nulls = store.collection(NullIdGamer.self)
        let stored = try nulls.inserted(NullIdGamer(id: nil, name: "Null"))
        #expect(stored.id == 1)
        #expect(try store.collection(named: "nullIdGamers").get(1) == ["id": 1, "name": "Null"])
    }

    @Test func untypedDocumentsStillGetTheirIdWrittenIn() throws {
        let store = try DocumentStore.inMemory()
        let raw = store.collection(named: "things")
        let key = try raw.insert(["name": "thing"])
        #expect(try raw.get(key)?["id"] == .integer(1))
    }
}
