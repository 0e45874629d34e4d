import Foundation
import Testing
@testable import DocStore

/// Live queries: the first result at once, then one result per commit that
/// changed it, and nothing for rollbacks, unrelated writes or unchanged results.
@Suite("Live queries", .timeLimit(.minutes(10)))
struct LiveQueryTests {
    let store: DocumentStore
    let directory: URL
    let players: DocumentCollection<Player>

    init() throws {
        let (path, directory) = try temporaryStorePath()
        self.directory = directory
        store = try DocumentStore(path: path)
        players = store.collection(Player.self)
        try players.insert(contentsOf: (1...6).map(Self.player))
    }

    static func player(_ id: Int) -> Player {
        Player(id: id, firstName: "F\(id)", lastName: "L\(id)", number: id * 10, teamId: id % 2,
               position: .pitcher, nickname: nil, tags: [])
    }

    /// How many results live queries fetched and yielded since `start`.
    func fetches(since start: Int) -> Int {
        store.waitForObservers()
        return store.liveQueryFetches - start
    }

    @Test func yieldsTheCurrentResultThenEachChangedOne() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let query = players.filter { $0.teamId == 1 }.sorted { $0.number.descending }
        var results = query.values().makeAsyncIterator()
        #expect(try await results.next()?.map(\.id) == [5, 3, 1])

        try await players.insert(Self.player(7))
        #expect(try await results.next()?.map(\.id) == [7, 5, 3, 1])

        try await players.update(3) { $0.number = 99 }
        #expect(try await results.next()?.map(\.id) == [3, 7, 5, 1])

        try await players.delete(5)
        let afterDelete = try #require(try await results.next())
        #expect(afterDelete.map(\.id) == [3, 7, 1])
        #expect(try await afterDelete.map(\.id) == query.fetch().map(\.id), "the same as a fresh fetch")
    }

    @Test func rollbacksUnrelatedCollectionsAndUnselectedDocumentsFetchNothing() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var results = players.filter { $0.teamId == 1 }.values().makeAsyncIterator()
        _ = try await results.next()
        let start = store.liveQueryFetches

        // A rolled-back transaction.
        struct Rollback: Error {}
        #expect(throws: Rollback.self) {
            try store.write { _ in
                try players.insert(Self.player(9))
                throw Rollback()
            }
        }
        // Another collection, 10 000 documents in 100 commits.
        let teams = store.collection(Team.self)
        for batch in 0..<100 {
            try await teams.insert(contentsOf: (0..<100).map { Team(id: batch * 100 + $0, city: "C", nickName: "N", abbreviation: "A") })
        }
        // Documents the query selects neither before nor after (team 0 stays team 0).
        try await players.update(2) { $0.number = 1 }
        try await players.insert(Self.player(10))
        try await players.delete(4)
        try await players.update(DocumentQuery(.compare(FieldPath("teamId"), .equal, 0)), [.increment(FieldPath("number"), 1)])
        #expect(fetches(since: start) == 0)

        // A document entering the selection does cost a fetch, and yields.
        try await players.update(2) { $0.teamId = 1 }
        #expect(fetches(since: start) == 1)
        #expect(try await results.next()?.map(\.id) == [1, 2, 3, 5])
    }

    @Test func aCommitThatLeavesTheResultAsItWasYieldsNothing() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var counts = players.filter { $0.teamId == 1 }.observe { try $0.count() }.makeAsyncIterator()
        #expect(try await counts.next() == 3)
        try await players.update(1) { $0.number = 1000 }   // selected, count unchanged
        try await players.update(1) { $0.teamId = 0 }      // leaves the selection
        #expect(try await counts.next() == 2, "the unchanged count was not yielded")
    }

    @Test func slowConsumersGetTheNewestResult() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var counts = players.query.observe { try $0.count() }.makeAsyncIterator()
        #expect(try await counts.next() == 6)
        for id in 100..<150 { try await players.insert(Self.player(id)) }
        store.waitForObservers()
        #expect(try await counts.next() == 56, "the 50 intermediate counts were coalesced")
    }

    @Test func singleDocumentsAggregatesAndFirst() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var one = players.values(forKey: 2).makeAsyncIterator()
        var best = players.query.observe { try $0.max(\.number) }.makeAsyncIterator()
        var first = players.sorted { $0.lastName }.limit(1).values().makeAsyncIterator()
        #expect(try await one.next()??.number == 20)
        #expect(try await best.next() == 60)
        #expect(try await first.next()?.first?.id == 1)

        try await players.update(2) { $0.number = 500; $0.lastName = "A" }
        #expect(try await one.next()??.number == 500)
        #expect(try await best.next() == 500)
        #expect(try await first.next()?.first?.id == 2)

        let start = store.liveQueryFetches
        try await players.update(3) { $0.firstName = "X" }  // not key 2: the single-document observer fetches nothing
        store.waitForObservers()
        try await players.delete(2)
        #expect(try await one.next().map { $0 == nil } == true, "yields nil once deleted")
        _ = start
    }

    @Test func aFailingFetchEndsTheSequenceWithTheError() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var results = players.query.values().makeAsyncIterator()
        _ = try await results.next()
        // An untyped document that isn't a Player.
        try await store.collection(named: "players").insert(["id": 99, "firstName": "only a name"])
        await #expect(throws: DocStoreError.self) { _ = try await results.next() }
    }

    @Test func stoppingTheIterationRemovesTheObserver() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let task = Task {
            for try await _ in players.query.values() {}
        }
        while !store.changeTracker.hasObservers { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        _ = await task.result
        store.waitForObservers()
        #expect(!store.changeTracker.hasObservers)
        #expect(!store.changeTracker.isObserved("players"), "writes are no longer recorded")
    }
}
