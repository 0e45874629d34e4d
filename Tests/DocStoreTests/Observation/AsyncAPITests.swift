import Foundation
import Synchronization
import Testing
@testable import DocStore

/// The async API runs off Swift's cooperative pool and is cancellable.
@Suite("Async API", .timeLimit(.minutes(10)))
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
        task.cancel()
        // A body that runs to its end keeps its result even when its task was
        // cancelled meanwhile (a committed write stays committed), so the
        // CancellationError proves the statement itself was interrupted. (No time
        // bound: under a loaded test run, the awaiting task's resumption waits for
        // a thread of the cooperative pool, which other suites' tests occupy.)
        await #expect(throws: CancellationError.self) { try await task.value }
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

    /// Where the async API's SQLite work runs: on the store's own queues, never on
    /// a thread of Swift's cooperative pool. (That a ticker task keeps its schedule
    /// meanwhile is measured by the benchmark's L3 line: in a test run, other
    /// suites' synchronous tests occupy the pool's threads themselves.)
    @Test func theSQLiteWorkRunsOnTheStoresQueues() async throws {
        let store = try DocumentStore.inMemory()
        let label: @Sendable () -> String? = { DatabaseExecutor.currentQueue }
        #expect(label() == nil, "a test runs on the cooperative pool")
        #expect(try await store.executor.run(.read) { label() } == "reads")
        #expect(try await store.executor.run(.write) { label() } == "writes")
        #expect(try await store.executor.run(.pointRead) { label() } == "reads")
        // The public async methods go through the executor: a block given to them
        // runs on its thread, inside the async call's cancellation scope (GRDB's
        // queue then names itself as the current queue).
        let docs = store.collection(named: "docs")
        let onExecutor: @Sendable () -> Bool = { CancellationToken.current != nil }
        #expect(!onExecutor())
        let inWrite = try await store.write { _ in
            try docs.insert(["id": 1])
            return onExecutor()
        }
        #expect(inWrite)
        #expect(try await store.read { _ in onExecutor() })
        let inUpdate = LockedFlag()
        try await docs.update(1) { _ in inUpdate.set(onExecutor()) }
        #expect(inUpdate.value)
        // Point reads too: an async `get` is a cancellable job on the reads queue.
        let queueOfGet = Mutex<String?>(nil)
        let jsonDocs = store.collection(named: "docs")
        _ = try await store.executor.run(.pointRead) {
            queueOfGet.withLock { $0 = label() }
            return try jsonDocs.get(1)
        }
        #expect(queueOfGet.withLock { $0 } == "reads")
    }

    @Test func aCancelledPointReadThrowsAndTheNextOneWorks() async throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try await docs.insert(["id": 1, "name": "one"])
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await docs.get(1)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await docs.get(1)?["name"] == "one")
        #expect(try await docs.exists(1))
        #expect(try await !docs.exists(2))
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

/// A flag set from another thread.
final class LockedFlag: Sendable {
    private let flag = Mutex(false)
    var value: Bool { flag.withLock { $0 } }
    func set(_ value: Bool) { flag.withLock { $0 = value } }
}
