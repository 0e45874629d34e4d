import DocStorePostgres
import Foundation
import Synchronization
import Testing
@testable import DocStore

extension PostgresTests {
    /// Collection names equal as Swift strings but not in bytes (a composed
    /// "é" and "e" with a combining accent), as on a file store
    /// (CanonicalNamesTests): PostgreSQL made a second table, which the
    /// store's own catalog, keyed by `String`, took for the first.
    @Suite("PostgreSQL: collection names in two Unicode forms")
    struct CanonicalNameTests {
        static let composed = "c\u{E9}"
        static let decomposed = "ce\u{301}"

        @Test func aSecondCollectionNamedTheSameWayIsRefused() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            try await PostgresConnections.run(url, count: 1) { store, _ async throws in
                try await store.collection(named: Self.composed).insert(["id": 1])
                // In the session that made the first, whose catalog knows it.
                let error = try await #require(throws: DocStoreError.self) {
                    try await store.collection(named: Self.decomposed).insert(["id": 2])
                }
                guard case .invalidCollectionName = error else { Issue.record("\(error)"); return }
                #expect("\(error)".contains("the same name written with other Unicode characters (U+0063 U+00E9 there, U+0063 U+0065 U+0301 here)"), "\(error)")
                #expect(try await store.collection(named: Self.composed).count() == 1)
                #expect(try await store.collection(named: Self.decomposed).count() == 0)
                let names = try await store.collectionNames()
                #expect(names.map { Array($0.unicodeScalars) } == [Array(Self.composed.unicodeScalars)], "\(names)")
            }
            // In another session, which never saw the first in its cache.
            try await PostgresConnections.run(url, count: 1) { store, _ async throws in
                await #expect(throws: DocStoreError.self) { try await store.collection(named: Self.decomposed).insert(["id": 3]) }
                #expect(try await store.collection(named: Self.composed).count() == 1)
            }
        }

        /// Two connections creating the two spellings at the same moment: each
        /// checked the catalog before the other committed, and both collections
        /// were made in 6 tries of 13 (helper-48). They now wait for one lock.
        @Test func twoConnectionsCreatingBothSpellingsAtOnceMakeOneCollection() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            for round in 0..<6 {
                let made = Mutex(0)
                try await PostgresConnections.run(url, count: 2) { store, number async throws in
                    let name = "r\(round)" + (number == 0 ? Self.composed : Self.decomposed)
                    do {
                        try await store.collection(named: name).insert(["id": 1])
                        made.withLock { $0 += 1 }
                    } catch let error as DocStoreError {
                        guard case .invalidCollectionName = error else { throw error }
                    }
                }
                #expect(made.withLock { $0 } == 1, "round \(round)")
            }
            try await PostgresConnections.run(url, count: 1) { store, _ async throws in
                #expect(try await store.collectionNames().count == 6)
            }
        }

        /// An index or search index recorded ahead of a collection that can
        /// never be made (the other spelling of an existing one's name) was
        /// reported made and stayed in the catalog (helper-48): refused.
        @Test func indexesAheadOfTheOtherSpellingAreRefused() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            try await PostgresConnections.run(url, count: 1) { store, _ async throws in
                try await store.collection(named: Self.composed).insert(["id": 1, "a": 1])
                let other = store.collection(named: Self.decomposed)
                for (what, attempt) in [("index", { _ = try await other.createIndex(on: FieldPath("a")) }),
                                        ("search index", { _ = try await other.createSearchIndex(on: FieldPath("a")) })]
                    as [(String, () async throws -> Void)] {
                    let error = try await #require(throws: DocStoreError.self, "\(what)") { try await attempt() }
                    guard case .invalidCollectionName = error else { Issue.record("\(what): \(error)"); continue }
                    #expect("\(error)".contains("U+0063 U+00E9 there, U+0063 U+0065 U+0301 here"), "\(error)")
                }
                #expect(try await other.indexes().isEmpty)
                #expect(try await other.searchIndexes().isEmpty)
                // A new name still takes an index ahead of its first document.
                _ = try await store.collection(named: "later").createIndex(on: FieldPath("a"))
                #expect(try await store.collection(named: "later").indexes().count == 1)
            }
        }
    }
}
