import Foundation
import GRDB
import Testing
@testable import DocStore

/// Issue 9, items 8 and 9 at the library's level: opening and reading an existing
/// store never writes to it or waits for a lock; a closed store leaves everything
/// in its main file.
@Suite("Fault: opening a store")
struct StoreOpeningTests {
    func makeStore() throws -> (path: String, directory: URL) {
        let (path, directory) = try temporaryStorePath()
        try DocumentStore(path: path).collection(Team.self).insert(contentsOf: sampleTeams)
        return (path, directory)
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// SQLite's ":memory:" as a path gave each connection a database of its
    /// own, so reads did not see writes: refused, naming `inMemory()`.
    @Test func memoryAsAPathIsRefusedWithTheWayToAStoreInMemory() throws {
        let refused = try #require(throws: DocStoreError.self) { try DocumentStore(path: ":memory:") }
        #expect(refused.description.contains("for a store in memory use DocumentStore.inMemory()"), "\(refused)")
    }

    @Test func aReleasedStoreLeavesEverythingInItsMainFile() throws {
        let (path, directory) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the write-ahead log was moved into the file")
        let copy = directory.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        #expect(try DocumentStore(path: copy).collection(Team.self).all() == sampleTeams, "the file alone holds every document")
    }

    @Test func openingAndReadingAnExistingStoreChangesNoByteOfIt() throws {
        let (path, directory) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try bytes(path)
        do {
            let store = try DocumentStore(path: path)
            #expect(try store.collection(Team.self).count() == 4)
            #expect(try store.collection(Team.self).get(2) == sampleTeams[1])
            #expect(try store.collections().count == 1)
        }
        #expect(try bytes(path) == before)
    }

    /// A wait longer than SQLite's busy timeout can hold (milliseconds in 32
    /// bits) is its longest, not a trap: `--busy-timeout 1e7` crashed the REPL.
    @Test func aBusyTimeoutBeyondSQLitesLongestOpensTheStore() async throws {
        let (path, directory) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        for timeout: Duration in [.seconds(10_000_000), .seconds(Int64.max), .seconds(-5)] {
            let store = try DocumentStore(path: path, busyTimeout: timeout)
            #expect(try await store.collection(Team.self).count() == 4)
            #expect(try await store.collection(Team.self).get(1) != nil)  // the point reader's own connection
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func openingAndReadingWhileAnotherConnectionHoldsTheWriteLockNeedsNoWait() throws {
        let (path, directory) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let holder = try DatabaseQueue(path: path)
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            defer { try? db.execute(sql: "ROLLBACK") }
            let start = ContinuousClock.now
            let store = try DocumentStore(path: path, busyTimeout: .milliseconds(200))
            #expect(try store.collection(Team.self).count() == 4)
            let error = try #require(throws: DocStoreError.self) { try store.collection(Team.self).delete(1) }
            guard case .locked(let lockedPath, _) = error else { Issue.record("expected locked, got \(error)"); return }
            #expect(lockedPath == path)
            #expect(ContinuousClock.now - start < .seconds(3), "only the write waited, for its busy timeout")
        }
        try holder.close()
        #expect(try DocumentStore(path: path).collection(Team.self).delete(1))
    }

    @Test func appsShowTheSameTextAsTheTerminal() throws {
        let error = DocStoreError.locked(path: "/data/s.sqlite", reason: "database is locked")
        #expect(error.localizedDescription == error.description)
        #expect(error.localizedDescription.contains("locked by another connection or process"))
    }
}

/// `close()`: every connection ends, the file alone holds everything, and later
/// calls say the store is closed.
@Suite("Closing a store")
struct StoreClosingTests {
    @Test func closeCheckpointsTheFileAndLaterCallsThrowStoreClosed() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        let teams = store.collection(Team.self)
        try teams.insert(contentsOf: sampleTeams)
        #expect(try teams.get(1) != nil, "the point reader has a connection open")
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the log was moved into the file")
        let copy = directory.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        #expect(try DocumentStore(path: copy).collection(Team.self).all() == sampleTeams)

        for (what, call) in [("get", { _ = try teams.get(1) }), ("insert", { try teams.insert(sampleTeams[0]) }),
                             ("collections", { _ = try store.collections() }), ("write", { try store.write { _ in } })] as [(String, () throws -> Void)] {
            let error = try #require(throws: DocStoreError.self, "\(what)") { try call() }
            guard case .storeClosed(let closedPath) = error else { Issue.record("\(what): expected storeClosed, got \(error)"); continue }
            #expect(closedPath == path)
        }
        try store.close()  // twice is harmless
        #expect(try DocumentStore(path: path).collection(Team.self).count() == 4, "the file opens again")
    }

    @Test func closeInsideABlockIsRefusedAndTheStoreStaysOpen() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(Team.self).insert(sampleTeams[0])
        #expect(throws: DocStoreError.self) { try store.write { _ in try store.close() } }
        #expect(try store.collection(Team.self).count() == 1)
    }
}
