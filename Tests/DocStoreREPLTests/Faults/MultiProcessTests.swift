import DocStore
import Foundation
import GRDB
import Synchronization
import Testing

/// Issue 9, item 8: several real processes share one store file. Opening needs
/// no write lock, a held lock makes writers wait and then say "locked", and the
/// caches of a long-lived store notice what other processes changed.
@Suite("Fault: several processes on one store", .serialized)
struct MultiProcessTests {
    func makeStore() throws -> (path: String, directory: URL) {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("shared.sqlite").path
        try DocumentStore(path: path).collection(named: "events").insert(["id": 0, "worker": -1])
        return (path, directory)
    }

    @Test(.timeLimit(.minutes(10)))
    func fourProcessesOpeningAndWritingAtOnceNeverFail() throws {
        let (path, directory) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = try docstoreBinary()
        let workers = 4, writesPerWorker = 12
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for n in 0..<writesPerWorker {
                let command = #"events.insert({"worker": \#(worker), "n": \#(n)})"#
                do {
                    let result = try runProcess(binary, [path, "-c", command])
                    // stderr holds the message alone (stdout only results, of which an insert has none).
                    if result.status != 0 || !result.stderr.hasPrefix("inserted 1 document (key ") || !result.stdout.isEmpty {
                        failures.withLock { $0.append("worker \(worker) write \(n): exit \(result.status): \(result.stderr)") }
                    }
                } catch {
                    failures.withLock { $0.append("worker \(worker) write \(n): \(error)") }
                }
            }
        }
        let seen = failures.withLock { $0 }
        #expect(seen.isEmpty, "\(seen.count) of \(workers * writesPerWorker) processes failed: \(seen.prefix(3))")
        #expect(try DocumentStore(path: path).collection(named: "events").count() == 1 + workers * writesPerWorker)
    }

    /// Another process holds the write lock (an open write transaction).
    func holdingTheWriteLock(on path: String, _ body: () throws -> Void) throws {
        let holder = try DatabaseQueue(path: path)
        defer { try? holder.close() }
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            defer { try? db.execute(sql: "ROLLBACK") }
            try body()
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func whileAWriterHoldsTheLockOthersOpenAndReadAtOnceAndWritersSayLocked() throws {
        let (path, directory) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = try docstoreBinary()
        try holdingTheWriteLock(on: path) {
            let start = Date()
            let read = try runProcess(binary, [path, "--mode", "ndjson", "-c", "events.count()"])
            #expect(read.status == 0, "opening and reading need no write lock: \(read.stderr)")
            #expect(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
            #expect(Date().timeIntervalSince(start) < 4, "no waiting for the lock")

            let write = try runProcess(binary, [path, "--busy-timeout", "0.3", "-c", #"events.insert({"worker": 9})"#])
            #expect(write.status == 1)
            #expect(write.stderr.contains("locked by another connection or process"), "a lock is reported as a lock: \(write.stderr)")
            #expect(!write.stderr.contains("not a DocStore store"))
        }
        let write = try runProcess(binary, [path, "-c", #"events.insert({"worker": 9})"#])
        #expect(write.status == 0, "once the lock is released the write goes through: \(write.stderr)")
        #expect(try DocumentStore(path: path).collection(named: "events").count() == 2)
    }

    @Test(.timeLimit(.minutes(10)))
    func aLongLivedStoreSeesCollectionsAndIndexesOtherProcessesChangeAtOnce() throws {
        let (path, directory) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = try docstoreBinary()
        let store = try DocumentStore(path: path)
        let events = store.collection(named: "events")
        #expect(try events.get(0) != nil)
        #expect(try events.count() == 1)

        let drop = try runProcess(binary, [path, "-c", ".drop events"])
        #expect(drop.status == 0, "\(drop.stderr)")
        #expect(try events.get(0) == nil, "the dropped collection is gone at once")
        #expect(try events.count() == 0)
        #expect(try store.collections().isEmpty)

        let create = try runProcess(binary, [path, "-c", #"scores.insert({"id": "a", "points": 3})"#])
        #expect(create.status == 0, "\(create.stderr)")
        let index = try runProcess(binary, [path, "-c", "scores.createIndex(\\.points)"])
        #expect(index.status == 0, "\(index.stderr)")
        #expect(try store.collections().map(\.name) == ["scores"])
        #expect(try store.collection(named: "scores").get("a")?["points"] == 3)
        #expect(try store.collection(named: "scores").indexes().map(\.fields) == [[FieldPath("points")]])
        try store.collection(named: "events").insert(["id": 1, "worker": 0])
        #expect(try store.collection(named: "events").count() == 1, "re-created by this process after the other dropped it")
    }
}

/// The REPL's own schema cache (collection names for the parser, sampled fields)
/// follows other processes' changes too.
@Suite("Fault: a REPL session sees other processes' collections")
struct REPLSessionSeesOtherProcessesTests {
    @Test func aCollectionCreatedElsewhereIsKnownAtOnceAndADroppedOneIsGone() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.sqlite").path
        let harness = try SessionHarness(interactive: false, sample: false, store: DocumentStore(path: path))
        #expect(harness.feed(".collections") == .done)

        let other = try DocumentStore(path: path)
        try other.collection(named: "late").insert(["id": 1, "score": 7])
        #expect(harness.feed("late.filter { $0.score == 7 }.count()") == .done, "\(harness.errors.text)")
        #expect(harness.output.text.contains("1"))
        #expect(!harness.errors.text.contains("unknown collection"))

        try other.dropCollection(named: "late")
        #expect(harness.feed("late.count()") == .failed, "a dropped collection is unknown again")
        #expect(harness.errors.text.contains("late"))
    }
}
