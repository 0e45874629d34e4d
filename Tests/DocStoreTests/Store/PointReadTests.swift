import Foundation
import Testing
@testable import DocStore

/// File stores serve `get` and `exists` outside transactions from their own
/// read-only connections; these tests pin down what those reads must see.
@Suite("Point reads on file stores")
struct PointReadTests {
    let store: DocumentStore
    let teams: DocumentCollection<Team>
    let directory: URL

    init() throws {
        let (path, directory) = try temporaryStorePath()
        self.directory = directory
        store = try DocumentStore(path: path)
        teams = store.collection(Team.self)
        try teams.insert(contentsOf: sampleTeams)
    }

    @Test func aThreadReadsItsOwnCommittedWritesAtOnce() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(store.pointReaderOutsideTransactions != nil, "file stores have a point reader")
        #expect(try teams.get(1)?.nickName == "Red Sox")
        for round in 0..<50 {
            try teams.update(1) { $0.nickName = "Sox \(round)" }
            #expect(try teams.get(1)?.nickName == "Sox \(round)")
            try teams.delete(2)
            #expect(try !teams.exists(2))
            try teams.insert(sampleTeams[1])
            #expect(try teams.exists(2))
        }
    }

    @Test func readsInsideAWriteSeeItsUncommittedChanges() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try store.write { _ in
            #expect(store.pointReaderOutsideTransactions == nil)
            try teams.update(1) { $0.nickName = "Sox" }
            #expect(try teams.get(1)?.nickName == "Sox")
            try teams.delete(2)
            #expect(try !teams.exists(2))
        }
        #expect(store.pointReaderOutsideTransactions != nil)
        #expect(try teams.get(1)?.nickName == "Sox")
    }

    @Test func readsInsideASnapshotDoNotSeeLaterCommits() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try store.read { (_: StoreTransaction) throws in
            #expect(try teams.get(1)?.nickName == "Red Sox")
            runOnOwnThread {
                _ = try? teams.update(1) { $0.nickName = "Changed" }
            }
            #expect(try teams.get(1)?.nickName == "Red Sox", "the snapshot holds")
        }
        #expect(try teams.get(1)?.nickName == "Changed")
    }

    @Test func aDroppedCollectionReadsAsEmpty() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try teams.get(1) != nil)
        #expect(try store.dropCollection(named: "teams"))
        #expect(try teams.get(1) == nil)
        #expect(try !teams.exists(1))
        try teams.insert(sampleTeams[2])
        #expect(try teams.get(3) == sampleTeams[2])
        #expect(try teams.get(1) == nil)
    }

    /// Another process drops the collection and makes it again with keys of the
    /// other kind: the cached entry would bind key 1 to the text key "1" and
    /// return that document, or refuse the new kind of key.
    @Test func aCollectionMadeAgainElsewhereWithOtherKeysIsReadWithThem() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        struct Named: Codable, Identifiable { var id: String; var a: Int }
        let docs = store.collection(named: "c")
        try docs.insert(["id": 1, "a": 1])
        #expect(try docs.get(1) == ["id": 1, "a": 1])
        let other = try DocumentStore(path: directory.appendingPathComponent("store.sqlite").path)
        #expect(try other.dropCollection(named: "c"))
        try other.collection(Named.self, named: "c").insert(Named(id: "1", a: 2))
        #expect(throws: DocStoreError.self, "c has string keys now") { try docs.get(1) }
        #expect(try docs.get("1") == ["id": "1", "a": 2])
        #expect(try other.dropCollection(named: "c"))
        try other.collection(named: "c").insert(["id": 1, "a": 3])
        #expect(throws: DocStoreError.self, "c has integer keys again") { try docs.get("1") }
        #expect(try docs.get(1) == ["id": 1, "a": 3])
        #expect(try docs.exists(1))
        // The change comes before this store's first point read of `d`: its
        // statement is prepared after the change, which SQLite then can't report.
        let first = store.collection(named: "d")
        try first.insert(["id": 1, "a": 1])
        #expect(try other.dropCollection(named: "d"))
        try other.collection(Named.self, named: "d").insert(Named(id: "1", a: 2))
        #expect(throws: DocStoreError.self, "d has string keys now") { try first.get(1) }
        #expect(try !first.exists("2"))
        try other.close()
    }

    @Test func manyThreadsReadInParallel() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let teams = self.teams
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    var wrong = 0
                    for i in 0..<500 {
                        let id = i % 4 + 1
                        if (try? teams.get(id))??.id != id { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
