import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

extension PostgresTests {
    /// A store whose cached catalog another session changed: a collection
    /// dropped and made anew with another key kind. Every call sees the new
    /// kind (as a file store, which reads its catalog anew), and none shows
    /// postgres-nio's generic `PostgresDecodingError` (helper-50).
    @Suite("PostgreSQL: a collection made anew by another session")
    struct OtherSessionTests {
        /// Two stores on one fresh database; `stale` reads collection "things"
        /// with integer keys, then `other` makes it anew with string keys.
        static func withStaleStore(_ body: (PostgresDocumentStore, PostgresDocumentStore) async throws -> Void) async throws {
            try await withChangedCollection(from: [["id": 1, "name": "Ana"]],
                                            to: [["id": "gold", "name": "Gold"], ["id": "tin", "name": "Tin"]], body)
        }

        /// Two stores on one fresh database: `stale` writes `before` into
        /// "things" and counts it (its key kind is cached then), then `other`
        /// drops the collection and writes `after` (of another key kind).
        static func withChangedCollection(from before: [JSONValue], to after: [JSONValue],
                                          _ body: (PostgresDocumentStore, PostgresDocumentStore) async throws -> Void) async throws {
            guard let server = PostgresTestServer.current else { throw PostgresTestServer.ServerError(message: "no server") }
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let stale = try await PostgresDocumentStore(url: url)
            let other = try await PostgresDocumentStore(url: url)
            do {
                try await stale.collection(named: "things").insert(contentsOf: before)
                #expect(try await stale.collection(named: "things").count() == before.count)
                #expect(try await other.dropCollection(named: "things"))
                try await other.collection(named: "things").insert(contentsOf: after)
                try await body(stale, other)
            } catch {
                await stale.close()
                await other.close()
                throw error
            }
            await stale.close()
            await other.close()
        }

        @Test func readsSeeTheNewKeyKind() async throws {
            try await Self.withStaleStore { (stale: PostgresDocumentStore, _: PostgresDocumentStore) async throws in
                let badges = stale.collection(Badge.self, named: "things")
                #expect(try await badges.keys(DocumentQuery()) == [.string("gold"), .string("tin")])
                #expect(try await badges.get("gold")?.name == "Gold")
                #expect(try await badges.keys(DocumentQuery(.compare(FieldPath("name"), .equal, .string("Tin")))) == [.string("tin")])
            }
            // A typed key of the new kind, first call after the change.
            try await Self.withStaleStore { (stale: PostgresDocumentStore, _: PostgresDocumentStore) async throws in
                #expect(try await stale.collection(Badge.self, named: "things").get("tin")?.name == "Tin")
            }
            // Streaming: the first row's key is read as the new kind.
            try await Self.withStaleStore { (stale: PostgresDocumentStore, _: PostgresDocumentStore) async throws in
                var names: [String] = []
                try await stale.collection(Badge.self, named: "things").forEach(DocumentQuery()) { names.append($0.name) }
                #expect(names == ["Gold", "Tin"])
            }
        }

        @Test func writesSeeTheNewKeyKind() async throws {
            try await Self.withStaleStore { (stale: PostgresDocumentStore, other: PostgresDocumentStore) async throws in
                // A generated key: the collection's keys are strings now, which
                // can't be generated (not postgres-nio's decoding error).
                let error = try await #require(throws: DocStoreError.self) {
                    try await stale.collection(named: "things").insert(["name": "no key"])
                }
                guard case .missingKey(collection: "things", let reason) = error else {
                    Issue.record("expected missingKey, got \(error)")
                    return
                }
                #expect(reason.contains("string keys"))
                #expect(try await other.collection(named: "things").count() == 2)
            }
            try await Self.withStaleStore { (stale: PostgresDocumentStore, other: PostgresDocumentStore) async throws in
                let badges = stale.collection(Badge.self, named: "things")
                try await badges.save(Badge(id: "lead", name: "Lead"))
                try await badges.update(Badge(id: "gold", name: "Gold!"))
                #expect(try await badges.delete("tin"))
                #expect(try await other.collection(Badge.self, named: "things").all() == [Badge(id: "gold", name: "Gold!"), Badge(id: "lead", name: "Lead")])
            }
        }

        @Test func aTransactionThatMeetsTheChangeSaysToRunItAgain() async throws {
            try await Self.withStaleStore { (stale: PostgresDocumentStore, other: PostgresDocumentStore) async throws in
                let error = try await #require(throws: DocStoreError.self) {
                    try await stale.transaction { transaction in
                        try await transaction.collection(Badge.self, named: "things").save(Badge(id: "lead", name: "Lead"))
                    }
                }
                guard case .database(let message, collection: "things") = error else {
                    Issue.record("expected a database error naming the collection, got \(error)")
                    return
                }
                #expect(message.contains("another session made collection \"things\" anew with string keys (it had integer keys) while this transaction ran") && message.contains("run it again"), "\(message)")
                #expect(try await other.collection(Badge.self, named: "things").all().map(\.id) == ["gold", "tin"])
                // Run again, it meets the new kind.
                try await stale.transaction { transaction in
                    try await transaction.collection(Badge.self, named: "things").save(Badge(id: "lead", name: "Lead"))
                }
                #expect(try await other.collection(Badge.self, named: "things").all().map(\.id) == ["gold", "lead", "tin"])
            }
        }

        /// An integer key where the keys are strings now: refused, where the
        /// key column took 9 as "9", and a save of 1 replaced the document
        /// stored under "1" (helper-53).
        @Test(arguments: ["save", "insert", "insert(contentsOf:)"])
        func anIntegerKeyIsRefusedWhereTheKeysAreStringsNow(_ write: String) async throws {
            let strings: [JSONValue] = [["id": "1", "name": "kept"], ["id": "9", "name": "nine"]]
            try await Self.withChangedCollection(from: [["id": 1, "name": "Ana"]], to: strings) { (stale: PostgresDocumentStore, other: PostgresDocumentStore) async throws in
                let things = stale.collection(named: "things")
                let error = try await #require(throws: DocStoreError.self) {
                    switch write {
                    case "save": try await things.save(["id": 1, "name": "stale"])  // over "1"
                    case "insert": try await things.insert(["id": 78, "name": "stale"])
                    default: try await things.insert(contentsOf: [["id": 79, "name": "a"], ["id": 80, "name": "b"]])  // COPY
                    }
                }
                guard case .keyKindMismatch(collection: "things", expected: .string, found: .integer) = error else {
                    Issue.record("expected keyKindMismatch, got \(error)")
                    return
                }
                #expect(try await other.collection(named: "things").all() == strings)
            }
        }

        /// Integer keys where this store knew strings: read as integers, not as
        /// a bigint's eight bytes in a string (helper-53).
        @Test func integerKeysAreReadAsIntegersWhereTheKeysWereStrings() async throws {
            try await Self.withChangedCollection(from: [["id": "a"]], to: [["id": 1], ["id": 2]]) { (stale: PostgresDocumentStore, _: PostgresDocumentStore) async throws in
                #expect(try await stale.collection(named: "things").keys(DocumentQuery()) == [.integer(1), .integer(2)])
            }
            try await Self.withChangedCollection(from: [["id": "a"]], to: [["id": 1], ["id": 2]]) { (stale: PostgresDocumentStore, _: PostgresDocumentStore) async throws in
                let page = try await stale.collection(named: "things").page(after: nil, limit: 10)
                #expect(page.map(\.key) == [.integer(1), .integer(2)])
            }
        }

        /// A subquery on the keys of a collection made anew with string keys
        /// matches no integer (it read the key "1" as 1; helper-53).
        @Test func aSubqueryOnKeysDoesNotMatchAcrossKinds() async throws {
            try await Self.withChangedCollection(from: [["id": 1], ["id": 9]], to: [["id": "1"], ["id": "9"]]) { (stale: PostgresDocumentStore, _: PostgresDocumentStore) async throws in
                let others = stale.collection(named: "others")
                try await others.insert(contentsOf: [["id": 1], ["id": 2], ["id": 9]])
                let inThings = DocumentQuery(.isInSubquery(FieldPath("id"), Subquery(collection: "things", condition: .always)))
                #expect(try await others.count(inThings) == 0)
            }
        }

        /// A document without a key where the keys were strings and are
        /// integers now (or the collection is gone): it gets the next integer
        /// key, where it was refused as if the keys were still strings (helper-54).
        @Test func aGeneratedKeyFollowsTheNewKeyKind() async throws {
            try await Self.withChangedCollection(from: [["id": "a"]], to: [["id": 1], ["id": 2]]) { (stale: PostgresDocumentStore, other: PostgresDocumentStore) async throws in
                #expect(try await stale.collection(named: "things").insert(["n": 5]) == .integer(3))
                #expect(try await other.collection(named: "things").count() == 3)
            }
            try await Self.withChangedCollection(from: [["id": "a"]], to: []) { (stale: PostgresDocumentStore, other: PostgresDocumentStore) async throws in
                #expect(try await stale.collection(named: "things").insert(contentsOf: [["n": 5], ["n": 6]]) == [.integer(1), .integer(2)])
                #expect(try await other.collection(named: "things").keys(DocumentQuery()) == [.integer(1), .integer(2)])
            }
        }
    }
}
