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

/// A model without an `id`: its documents get generated keys, never written in.
struct Memo: Codable, Equatable, Sendable {
    var text: String
}

/// Generated keys, the same test and the same answers on SQLite and on
/// PostgreSQL: optional-id models get the key written back, models without an
/// id get one too, untyped documents get it as their `"id"`.
@Suite("Generated keys written back into optional-id models", .postgresServer)
struct GeneratedKeyWriteBackTests {
    @Test(arguments: Backend.allCases)
    func insertInoutSetsTheGeneratedId(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let gamers = store.collection(Gamer.self, named: "gamers")
            var arthur = Gamer(id: nil, name: "Arthur", score: 10)
            let key = try await gamers.insert(&arthur)
            #expect(key == .integer(1))
            #expect(arthur.id == 1)
            #expect(try await gamers.get(1) == arthur, "the stored document decodes the same id")
            var barbara = Gamer(id: nil, name: "Barbara", score: 20)
            try await gamers.insert(&barbara)
            #expect(barbara.id == 2)
        }
    }

    @Test(arguments: Backend.allCases)
    func plainInsertStoresTheKeyAsTheDocumentsId(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let gamers = store.collection(Gamer.self, named: "gamers")
            let key = try await gamers.insert(Gamer(id: nil, name: "Arthur", score: 10))
            #expect(try await gamers.get(key)?.id == key.integerValue)
            #expect(try await store.collection(named: "gamers").get(key)?["id"] == .integer(1))
        }
    }

    @Test(arguments: Backend.allCases)
    func aModelWithAnIdIsStoredUnderIt(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let gamers = store.collection(Gamer.self, named: "gamers")
            var chosen = Gamer(id: 42, name: "Chosen", score: 1)
            #expect(try await gamers.insert(&chosen) == .integer(42))
            #expect(chosen.id == 42)
            #expect(try await gamers.get(42) == chosen)
            #expect(try await gamers.inserted(Gamer(id: nil, name: "Next", score: 2)).id == 43, "generated keys follow the largest")
            let error = try await #require(throws: DocStoreError.self) { try await gamers.insert(Gamer(id: 42, name: "Again", score: 3)) }
            guard case .duplicateKey(_, .integer(42)) = error else { Issue.record("expected duplicateKey, got \(error)"); return }
        }
    }

    @Test(arguments: Backend.allCases)
    func intOptionalIdsWorkLikeInt64(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let gamers = store.collection(IntGamer.self, named: "intGamers")
            let inserted = try await gamers.inserted(IntGamer(id: nil, name: "Int"))
            #expect(inserted == IntGamer(id: 1, name: "Int"))
            #expect(try await gamers.get(1) == inserted)
            #expect(try await gamers.all() == [inserted])
        }
    }

    @Test(arguments: Backend.allCases)
    func batchInsertWritesEveryKeyBack(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let gamers = store.collection(Gamer.self, named: "gamers")
            var batch = [
                Gamer(id: nil, name: "A", score: 1), Gamer(id: nil, name: "B", score: 2),
                Gamer(id: 7, name: "C", score: 3), Gamer(id: nil, name: "D", score: 4),
            ]
            let keys = try await gamers.insert(contentsOf: &batch)
            #expect(keys == [1, 2, 7, 8].map { DocumentKey.integer($0) })
            #expect(batch.map(\.id) == [1, 2, 7, 8])
            #expect(try await gamers.all() == batch)

            let more = try await gamers.inserted(contentsOf: [Gamer(id: nil, name: "E", score: 5), Gamer(id: nil, name: "F", score: 6)])
            #expect(more.map(\.id) == [9, 10])
            #expect(try await gamers.all().suffix(2) == more[...])
        }
    }

    @Test(arguments: Backend.allCases)
    func aFailingBatchStoresNothingAndWritesNothingBack(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let gamers = store.collection(Gamer.self, named: "gamers")
            try await gamers.insert(Gamer(id: 3, name: "Taken", score: 0))
            let original = [
                Gamer(id: nil, name: "A", score: 1), Gamer(id: nil, name: "B", score: 2),
                Gamer(id: 3, name: "Duplicate", score: 3), Gamer(id: nil, name: "D", score: 4),
            ]
            var batch = original
            await #expect(throws: DocStoreError.self) { try await gamers.insert(contentsOf: &batch) }
            #expect(batch == original, "no id was written back")
            await #expect(throws: DocStoreError.self) { try await gamers.inserted(contentsOf: original) }
            #expect(try await gamers.keys() == [.integer(3)], "the failed batches left nothing behind")

            var single = Gamer(id: 3, name: "Duplicate", score: 3)
            await #expect(throws: DocStoreError.self) { try await gamers.insert(&single) }
            #expect(single.id == 3 && single.name == "Duplicate")
        }
    }

    @Test(arguments: Backend.allCases)
    func saveInoutInsertsThenReplaces(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let gamers = store.collection(Gamer.self, named: "gamers")
            var gamer = Gamer(id: nil, name: "Saved", score: 1)
            try await gamers.save(&gamer)
            #expect(gamer.id == 1)
            gamer.score = 99
            try await gamers.save(&gamer)
            try await gamers.save(gamer)
            #expect(try await gamers.count() == 1)
            #expect(try await gamers.get(1)?.score == 99)

            let error = try await #require(throws: DocStoreError.self) { try await gamers.save(Gamer(id: nil, name: "No id", score: 0)) }
            guard case .missingKey(_, let reason) = error else { Issue.record("expected missingKey, got \(error)"); return }
            #expect(reason.contains("insert(&model)"))
        }
    }

    @Test(arguments: Backend.allCases)
    func modelsWithoutAnIdGetKeysNotWrittenIn(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let memos = store.collection(Memo.self, named: "memos")
            #expect(try await memos.insert(Memo(text: "a")) == .integer(1))
            #expect(try await memos.insert(contentsOf: [Memo(text: "b"), Memo(text: "c")]) == [2, 3].map { DocumentKey.integer($0) })
            #expect(try await memos.get(2) == Memo(text: "b"))
            #expect(try await store.collection(named: "memos").get(1) == ["text": "a"], "no id in the document")
            let error = try await #require(throws: DocStoreError.self) { try await memos.save(Memo(text: "d")) }
            guard case .missingKey(_, let reason) = error else { Issue.record("expected missingKey, got \(error)"); return }
            #expect(reason.contains("the model has no id"))
        }
    }

    @Test(arguments: Backend.allCases)
    func onlyIntegerKeysAreGenerated(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let gamers = store.collection(NamedGamer.self, named: "namedGamers")
            var named = NamedGamer(id: "ann", name: "Ann")
            try await gamers.insert(&named)
            #expect(try await gamers.get("ann") == named)
            var unnamed = NamedGamer(id: nil, name: "Nobody")
            let error = try await #require(throws: DocStoreError.self) { try await gamers.insert(&unnamed) }
            guard case .missingKey(_, let reason) = error else { Issue.record("expected missingKey, got \(error)"); return }
            #expect(reason.contains("string keys"))
            #expect(unnamed.id == nil)
            #expect(try await gamers.count() == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func anIdCodedUnderAnotherNameIsAnErrorNotASilentNil(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let gamers = store.collection(RenamedIdGamer.self, named: "renamed")
            var gamer = RenamedIdGamer(id: nil, name: "Renamed")
            let error = try await #require(throws: DocStoreError.self) { try await gamers.insert(&gamer) }
            guard case .missingKey(_, let reason) = error else { Issue.record("expected missingKey, got \(error)"); return }
            #expect(reason.contains("CodingKeys"))
            #expect(gamer.id == nil)
            #expect(try await gamers.count() == 0)
        }
    }

    @Test(arguments: Backend.allCases)
    func documentsAlreadyHoldingAnIdMemberGetTheKeyToo(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let squads = store.collection(Squad.self, named: "squads")
            var squad = Squad(id: nil, captain: .init(id: 99, name: "Cap"))
            try await squads.insert(&squad)
            #expect(squad == Squad(id: 1, captain: .init(id: 99, name: "Cap")))
            #expect(try await squads.get(1) == squad)

            let nulls = store.collection(NullIdGamer.self, named: "nullIdGamers")
            let stored = try await nulls.inserted(NullIdGamer(id: nil, name: "Null"))
            #expect(stored.id == 1)
            #expect(try await store.collection(named: "nullIdGamers").get(1) == ["id": 1, "name": "Null"])
        }
    }

    @Test(arguments: Backend.allCases)
    func untypedDocumentsStillGetTheirIdWrittenIn(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let raw = store.collection(named: "things")
            let key = try await raw.insert(["name": "thing"])
            #expect(try await raw.get(key)?["id"] == .integer(1))
            let error = try await #require(throws: DocStoreError.self) { try await raw.insert(["id": 1.5, "name": "odd"]) }
            guard case .missingKey(_, let reason) = error else { Issue.record("expected missingKey, got \(error)"); return }
            #expect(reason.contains("not an integer or a string"), "\(reason)")
        }
    }

    @Test(arguments: Backend.allCases)
    func noKeyIsGeneratedPastInt64Max(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let gamers = store.collection(Gamer.self, named: "gamers")
            try await gamers.insert(Gamer(id: .max, name: "Last", score: 0))
            let error = try await #require(throws: DocStoreError.self) { try await gamers.insert(Gamer(id: nil, name: "Past", score: 0)) }
            guard case .numericOverflow = error else { Issue.record("expected numericOverflow, got \(error)"); return }
            #expect(try await gamers.count() == 1)
        }
    }
}

extension GeneratedKeyWriteBackTests {
    /// Writers that generate keys at the same time get one each: on PostgreSQL
    /// they read the largest key one after the other (a lock per collection).
    @Test(arguments: Backend.allCases)
    func concurrentInsertsGetDistinctKeys(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let memos = store.collection(Memo.self, named: "memos")
            try await memos.insert(Memo(text: "first"))  // the table exists before the race
            let keys = try await withThrowingTaskGroup(of: DocumentKey.self) { group in
                for index in 0..<16 {
                    group.addTask { try await memos.insert(Memo(text: "memo \(index)")) }
                }
                return try await group.reduce(into: [DocumentKey]()) { $0.append($1) }
            }
            #expect(Set(keys) == Set((2...17).map { DocumentKey.integer($0) }))
            #expect(try await memos.count() == 17)
        }
    }
}

/// What only SQLite's synchronous API has: updates of one document by a closure,
/// and `store.write`.
@Suite("Generated keys written back: SQLite's own calls")
struct GeneratedKeySQLiteTests {
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
}
