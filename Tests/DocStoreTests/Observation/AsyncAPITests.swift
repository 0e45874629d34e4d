import Foundation
import Synchronization
import Testing
@testable import DocStore

/// The async API runs off Swift's cooperative pool and is cancellable.
@Suite("Async API", .timeLimit(.minutes(2)))
struct AsyncAPITests {
    /// A collection whose documents are large, and a query that reads each of
    /// them two hundred times over: far more than a minute of SQLite work.
    static func slowStore() throws -> (DocumentStore, DocumentCollection<JSONValue>, DocumentQuery, URL) {
        let (path, directory) = try temporaryStorePath()
        let store = try DocumentStore(path: path)
        let docs = store.collection(named: "docs")
        let text = String(repeating: "abcdefghij", count: 5_000)
        try docs.insert(contentsOf: (1...2_000).map { ["id": .integer(Int64($0)), "text": .string(text)] })
        let slow = DocumentQuery(.or((0..<200).map { .string(FieldPath("text"), .contains, "needle\($0)", caseInsensitive: true) }))
        return (store, docs, slow, directory)
    }

    @Test func cancellingInterruptsALongQuery() async throws {
        let (store, docs, slow, directory) = try Self.slowStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = store.executor.startedCount.load(ordering: .relaxed)
        let task = Task { try await docs.fetch(slow) }
        // Cancel the query while SQLite runs it, not while it waits for a thread.
        while store.executor.startedCount.load(ordering: .relaxed) == started { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(100))
        let cancelled = ContinuousClock.now
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(ContinuousClock.now - cancelled < .seconds(1), "interrupted, not run to the end")
        // The store goes on working, on the same connections.
        #expect(try await docs.count() == 2_000)
        #expect(try await docs.count(DocumentQuery(.compare(FieldPath("id"), .equal, 7))) == 1)
    }

    @Test func cancellingAWriteRollsItAllBack() async throws {
        let (store, docs, _, directory) = try Self.slowStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let started = store.executor.startedCount.load(ordering: .relaxed)
        let task = Task {
            try await store.write { _ in
                var id: Int64 = 10_000
                while true {  // until interrupted
                    try docs.insert(["id": .integer(id), "text": "x"])
                    id += 1
                }
            }
        }
        while store.executor.startedCount.load(ordering: .relaxed) == started { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await docs.count() == 2_000, "nothing of the interrupted transaction was kept")
        try await docs.insert(["id": 99_999, "text": "after"])
        #expect(try await docs.count() == 2_001, "and the store takes writes again")
    }

    @Test func aCancelledTaskDoesNotStartItsWork() async throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await docs.insert(["id": 1])
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await docs.count() == 0)
    }

    @Test func slowQueriesFromManyTasksLeaveTheCooperativePoolFree() async throws {
        let (store, docs, slow, directory) = try Self.slowStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let narrower = DocumentQuery(.or((0..<2).map { .string(FieldPath("text"), .contains, "needle\($0)", caseInsensitive: true) }))
        let ticks = Atomic(0)
        let finished = Atomic(false)
        // A ticker on the cooperative pool, as an app's timers and UI tasks are.
        let ticker = Task {
            while !finished.load(ordering: .relaxed) {
                try await Task.sleep(for: .milliseconds(10))
                ticks.add(1, ordering: .relaxed)
            }
        }
        // Eight concurrent tasks, more than the pool has threads (one per core).
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await docs.count(narrower) } }
            for try await count in group { #expect(count == 0) }
        }
        let elapsed = ContinuousClock.now - started
        finished.store(true, ordering: .relaxed)
        try await ticker.value
        // Had the queries blocked the pool's threads, the ticker would have waited
        // for all of them; it got at least a quarter of its ticks instead.
        let expected = Int(elapsed / .milliseconds(10))
        #expect(ticks.load(ordering: .relaxed) >= max(1, expected / 4),
                "the ticker kept running while SQLite worked \(elapsed): \(ticks.load(ordering: .relaxed)) of \(expected) ticks")
        _ = (store, slow)
    }

    @Test func hundredsOfConcurrentTasksReadAndWriteCorrectly() async throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        let players = store.collection(Player.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 1...300 {
                group.addTask {
                    try await players.insert(Player(id: id, firstName: "F", lastName: "L\(id)", number: id, teamId: id % 3,
                                                    position: .catcher, nickname: nil, tags: []))
                    let read = try await players.get(id)
                    #expect(read?.lastName == "L\(id)")
                }
            }
            try await group.waitForAll()
        }
        #expect(try await players.count() == 300)
        #expect(try await players.filter { $0.teamId == 0 }.count() == 100)
        let total = try await store.write { tx in try tx.collection(Player.self).count() }
        #expect(total == 300)
    }
}
