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
                #expect("\(error)".contains("the same name written with other Unicode characters (2 and 3 of them)"), "\(error)")
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
    }
}
