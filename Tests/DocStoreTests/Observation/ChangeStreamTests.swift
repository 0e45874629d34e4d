import Foundation
import Testing
@testable import DocStore

/// Change sets: per commit, the keys inserted, updated and deleted, net.
@Suite("Change sets", .timeLimit(.minutes(10)))
struct ChangeStreamTests {
    static func keys(_ ids: Int64...) -> [DocumentKey] { ids.map(DocumentKey.integer) }

    static func player(_ id: Int, team: Int = 1) -> Player {
        Player(id: id, firstName: "F\(id)", lastName: "L\(id)", number: id, teamId: team, position: .pitcher, nickname: nil, tags: [])
    }

    @Test func oneNetChangeSetPerCommitAndNoneForRollbacks() async throws {
        let store = try DocumentStore.inMemory()
        let players = store.collection(Player.self)
        try await players.insert(contentsOf: (1...3).map { Self.player($0) })
        var changes = players.changes(includingDocuments: true).makeAsyncIterator()

        struct Rollback: Error {}
        _ = try? await store.write { _ in
            try players.delete(1)
            throw Rollback()
        }
        try await store.write { _ in
            try players.insert(Self.player(4))
            try players.update(4) { $0.number = 40 }      // inserted then updated: inserted
            try players.insert(Self.player(5))
            try players.delete(5)                          // inserted then deleted: nothing
            try players.update(2) { $0.number = 20 }
            try players.delete(3)
            try players.save(Self.player(3, team: 2))      // deleted then saved again: updated
            try players.delete(1)
        }
        let change = try #require(try await changes.next())
        #expect(change.inserted == Self.keys(4))
        #expect(change.updated == Self.keys(2, 3))
        #expect(change.deleted == Self.keys(1))
        #expect(change.documents[.integer(4)]?.number == 40)
        #expect(change.documents[.integer(3)]?.teamId == 2)
        #expect(change.isComplete)

        // Update and delete by query report their keys too.
        try await players.filter { $0.teamId == 1 }.update { $0.number.increment(by: 1) }
        let updated = try #require(try await changes.next())
        #expect(Set(updated.updated) == Set(Self.keys(2, 4)))
        try await players.filter { $0.number > 30 }.delete()
        #expect(try await changes.next()?.deleted == Self.keys(4))
        try await players.deleteAll()
        #expect(Set(try #require(try await changes.next()).deleted) == Set(Self.keys(2, 3)))
    }

    /// A delete by query is one statement and one commit: on a file store it
    /// was reported as a change set per document, states that never existed
    /// (helper-43).
    @Test func aDeleteByQueryIsOneChangeSetOnAFileStore() async throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        let players = store.collection(Player.self)
        try await players.insert(contentsOf: (1...5).map { Self.player($0) })
        var changes = players.changes().makeAsyncIterator()
        try await players.filter { $0.id > 2 }.delete()
        try await players.insert(Self.player(9))
        let deleted = try #require(try await changes.next())
        #expect(Set(deleted.deleted) == Set(Self.keys(3, 4, 5)) && deleted.inserted.isEmpty, "one set for the one commit: \(deleted.deleted)")
        #expect(try await changes.next()?.inserted == Self.keys(9))
        try store.close()
    }

    /// A batch insert hands its writes to the change tracker at its end, in one
    /// piece: they must keep their place among the transaction's other writes,
    /// and a batch that failed (its savepoint rolled back) must report nothing.
    @Test func batchInsertsAmongOtherWritesAndAFailedBatch() async throws {
        let store = try DocumentStore.inMemory()
        let players = store.collection(Player.self)
        var changes = players.changes(includingDocuments: true).makeAsyncIterator()
        // A new collection: the first document creates it, the others follow as a batch.
        try await players.insert(contentsOf: (1...50).map { Self.player($0) })
        let created = try #require(try await changes.next())
        #expect(created.inserted == (1...50).map { DocumentKey.integer(Int64($0)) })

        try await store.write { _ in
            try players.insert(Self.player(90))
            try players.delete(1)
            try players.delete(3)  // then inserted again by a batch: updated
            // Fails at its third document (key 2 exists): the two before it go too.
            #expect(throws: DocStoreError.self) {
                try players.insert(contentsOf: [Self.player(60), Self.player(61), Self.player(2)])
            }
            try players.insert(contentsOf: [Self.player(3, team: 2)] + (70...72).map { Self.player($0) })
            try players.update(70) { $0.number = 700 }
            try players.delete(90)
        }
        let change = try #require(try await changes.next())
        #expect(change.inserted == Self.keys(70, 71, 72), "90 was inserted then deleted; 60 and 61 rolled back")
        #expect(change.deleted == Self.keys(1))
        #expect(change.updated == Self.keys(3), "deleted, then inserted by the batch")
        #expect(change.documents[.integer(3)]?.teamId == 2)
        #expect(change.documents[.integer(70)]?.number == 700)
        #expect(try await players.get(60) == nil)
    }

    @Test func otherCollectionsAndDroppedCollections() async throws {
        let store = try DocumentStore.inMemory()
        let players = store.collection(Player.self)
        try await players.insert(Self.player(1))
        var changes = players.changes().makeAsyncIterator()
        try await store.collection(Team.self).insert(Team(id: 1, city: "Boston", nickName: "Red Sox", abbreviation: "BOS"))
        try await store.dropCollection(named: "players")
        let dropped = try #require(try await changes.next())
        #expect(dropped.deleted == Self.keys(1), "the team insert yielded nothing; the drop deleted player 1")
        #expect(dropped.documents.isEmpty, "documents only when asked")
    }

    @Test func closingTheStoreEndsLiveQueriesAndRefusesNewOnes() async throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        let players = store.collection(Player.self)
        try await players.insert(Self.player(1))
        var results = players.query.values().makeAsyncIterator()
        #expect(try await results.next()?.count == 1)
        var counts = players.query.observe { try $0.count() }.makeAsyncIterator()
        #expect(try await counts.next() == 1)
        var changes = players.changes().makeAsyncIterator()
        try store.close()
        // Running observations end with storeClosed: they waited forever, and
        // kept the store's connections open (helper-43).
        for (name, next) in [("values", { _ = try await results.next() }), ("observe", { _ = try await counts.next() }),
                             ("changes", { _ = try await changes.next() })] as [(String, () async throws -> Void)] {
            let error = await #expect(throws: DocStoreError.self, "\(name)") { try await next() }
            guard case .storeClosed? = error else { Issue.record("\(name): \(String(describing: error))"); continue }
        }
        await #expect(throws: DocStoreError.self) {
            var afterClose = players.query.values().makeAsyncIterator()
            _ = try await afterClose.next()
        }
        await #expect(throws: DocStoreError.self) { _ = try await players.count() }
    }
}
