import Foundation
import Synchronization
import Testing
@testable import DocStore

struct RosterEntry: Codable, Identifiable, Equatable {
    var id: Int
    var name: String
    var teamId: Int
}

@Suite("Transactions across collections")
struct TransactionTests {
    struct Abort: Error {}

    @Test func aThrownErrorRollsBackEveryCollection() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(Team.self).insert(sampleTeams[0])
        #expect(throws: Abort.self) {
            try store.write { tx in
                try tx.collection(Team.self).insert(sampleTeams[1])
                try tx.collection(RosterEntry.self).insert(RosterEntry(id: 7, name: "Ortiz", teamId: 1))
                try tx.collection(Team.self).delete(1)
                try tx.values.set(42, forKey: "answer")
                throw Abort()
            }
        }
        #expect(try store.collection(Team.self).all() == [sampleTeams[0]])
        #expect(try store.collection(RosterEntry.self).count() == 0)
        #expect(try store.values.get("answer", as: Int.self) == nil)
        // The collection created inside the rolled-back transaction does not exist,
        // and creating it again afterwards works.
        #expect(try store.collections().map(\.name) == ["teams"])
        try store.collection(RosterEntry.self).insert(RosterEntry(id: 7, name: "Ortiz", teamId: 1))
        #expect(try store.collection(RosterEntry.self).count() == 1)
    }

    @Test func readsInsideSeeTheWritesAndTheResultIsReturned() throws {
        let store = try DocumentStore.inMemory()
        let count = try store.write { tx in
            let teams = tx.collection(Team.self)
            try teams.insert(contentsOf: sampleTeams)
            try teams.update(1) { $0.nickName = "Sox" }
            #expect(try teams.get(1)?.nickName == "Sox")
            return try teams.count()
        }
        #expect(count == 4)
    }

    @Test func collectionsFromOutsideJoinTheTransaction() throws {
        let store = try DocumentStore.inMemory()
        let teams = store.collection(Team.self)
        #expect(throws: Abort.self) {
            try store.write { _ in
                try teams.insert(sampleTeams[0])
                #expect(try teams.count() == 1)
                throw Abort()
            }
        }
        #expect(try teams.count() == 0)
    }

    @Test func aFailedCallCaughtInsideATransactionLeavesNoPartialChange() throws {
        let store = try DocumentStore.inMemory()
        let teams = store.collection(Team.self)
        try teams.insert(sampleTeams[3])
        try store.write { _ in
            try teams.insert(sampleTeams[0])
            // The batch fails on its last team (a duplicate); the caller goes on.
            #expect(throws: DocStoreError.self) { try teams.insert(contentsOf: Array(sampleTeams[1...3])) }
        }
        #expect(try teams.keys() == [1, 4].map { DocumentKey.integer($0) })
    }

    @Test func nestedWritesBecomeSavepoints() throws {
        let store = try DocumentStore.inMemory()
        let teams = store.collection(Team.self)
        try store.write { _ in
            try teams.insert(sampleTeams[0])
            try? store.write { _ in
                try teams.insert(sampleTeams[1])
                throw Abort()
            }
            try teams.insert(sampleTeams[2])
        }
        #expect(try teams.keys() == [1, 3].map { DocumentKey.integer($0) })
    }

    @Test func readBlocksSeeOneSnapshot() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        let teams = store.collection(Team.self)
        try teams.insert(sampleTeams[0])
        try store.read { tx in
            let first = try tx.collection(Team.self).count()
            // A write from another thread commits while this snapshot is open.
            runOnOwnThread {
                _ = try? teams.insert(sampleTeams[1])
            }
            #expect(try tx.collection(Team.self).count() == first)
        }
        #expect(try teams.count() == 2)
    }

    @Test func aCollectionBeingCreatedIsInvisibleToOtherConnectionsUntilCommit() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        let teams = store.collection(Team.self)
        try store.write { _ in
            try teams.insert(contentsOf: sampleTeams)
            #expect(try teams.count() == 4, "the creating transaction sees its collection")
            // A reader on another connection sees the last committed state: nothing.
            let seen = Mutex<Int?>(nil)
            runOnOwnThread {
                seen.withLock { $0 = try? teams.count() }
            }
            #expect(seen.withLock { $0 } == 0)
        }
        #expect(try teams.count() == 4)
    }
}
