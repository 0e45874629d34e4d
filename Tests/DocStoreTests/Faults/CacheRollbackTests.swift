import Foundation
import Testing
@testable import DocStore

/// Issue 9, item 4: the store's collection cache follows commits, rollbacks,
/// savepoints and other connections exactly.
@Suite("Fault: caches follow rollbacks, savepoints and other connections")
struct CacheRollbackTests {
    struct Thing: Codable, Identifiable, Equatable {
        var id: Int
        var name: String
    }

    struct Named: Codable, Identifiable, Equatable {
        var id: String
        var name: String
    }

    /// What `.import --skip-bad` does: a failed savepoint that had created the
    /// collection is rolled back, and the transaction goes on writing to it.
    @Test func aRolledBackSavepointThatCreatedTheCollectionForgetsIt() throws {
        let store = try DocumentStore.inMemory()
        let things = store.collection(Thing.self)
        try store.write { _ in
            #expect(throws: DocStoreError.self) {
                try store.write { _ in
                    try things.insert(Thing(id: 1, name: "one"))
                    try things.insert(Thing(id: 1, name: "duplicate"))
                }
            }
            try things.insert(Thing(id: 2, name: "two"))
            try things.insert(Thing(id: 3, name: "three"))
        }
        #expect(try things.all() == [Thing(id: 2, name: "two"), Thing(id: 3, name: "three")])
        #expect(try store.collections().map(\.name) == ["things"])
    }

    @Test func aRolledBackTransactionThatCreatedTheCollectionLeavesNothingCached() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        let things = store.collection(Thing.self)
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.write { _ in
                try things.insert(Thing(id: 1, name: "one"))
                throw Abort()
            }
        }
        #expect(try things.get(1) == nil)
        #expect(try things.count() == 0)
        #expect(try store.collections().isEmpty)
        try things.insert(Thing(id: 1, name: "again"))
        #expect(try things.get(1) == Thing(id: 1, name: "again"))
    }

    @Test func aDropInsideATransactionIsSeenByItAndUndoneByItsRollback() throws {
        let store = try DocumentStore.inMemory()
        let things = store.collection(Thing.self)
        try things.insert(Thing(id: 1, name: "one"))
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.write { _ in
                try store.dropCollection(named: "things")
                #expect(try things.count() == 0)
                #expect(try things.get(1) == nil)
                throw Abort()
            }
        }
        #expect(try things.get(1) == Thing(id: 1, name: "one"), "the rolled-back drop lost nothing")
    }

    @Test func aDropInARolledBackSavepointRestoresTheCreationBeforeIt() throws {
        let store = try DocumentStore.inMemory()
        let things = store.collection(Thing.self)
        try store.write { _ in
            try things.insert(Thing(id: 1, name: "one"))
            struct Abort: Error {}
            #expect(throws: Abort.self) {
                try store.write { _ in
                    try store.dropCollection(named: "things")
                    throw Abort()
                }
            }
            try things.insert(Thing(id: 2, name: "two"))
        }
        #expect(try things.keys(DocumentQuery()) == [.integer(1), .integer(2)])
    }

    /// Another connection (here a second store on the same file, as another process
    /// would be) drops and re-creates a collection with another key kind.
    @Test func changesByAnotherConnectionAreSeenAtOnce() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mine = try DocumentStore(path: path)
        let other = try DocumentStore(path: path)
        try mine.collection(Thing.self, named: "shared").insert(Thing(id: 1, name: "one"))
        #expect(try mine.collection(Thing.self, named: "shared").get(1) != nil, "cached now")
        #expect(try mine.collection(Thing.self, named: "shared").count() == 1)

        try other.dropCollection(named: "shared")
        #expect(try mine.collection(Thing.self, named: "shared").get(1) == nil)
        #expect(try mine.collection(Thing.self, named: "shared").exists(1) == false)
        #expect(try mine.collection(Thing.self, named: "shared").count() == 0)

        try other.collection(Named.self, named: "shared").insert(Named(id: "a", name: "string keys now"))
        #expect(try mine.collection(Named.self, named: "shared").get("a") == Named(id: "a", name: "string keys now"))
        #expect(throws: DocStoreError.self, "the cached integer key kind is gone") {
            try mine.collection(Thing.self, named: "shared").insert(Thing(id: 2, name: "two"))
        }
        #expect(try mine.collection(named: "shared").all().count == 1)
    }
}
