import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

extension PostgresTests {
    /// Field changes of one collection from several connections at once (three
    /// shells migrating, or an app's instances starting together): each runs
    /// whole, none fails. Two UPDATEs of every document used to deadlock, each
    /// holding rows the other wanted, and PostgreSQL ended one with 40P01
    /// (seen about once in 25 rounds of three shells).
    @Suite("PostgreSQL: field changes from several connections")
    struct ConcurrentFieldChangeTests {
        @Test(.timeLimit(.minutes(2))) func fieldChangesAtOnceNeitherDeadlockNorLoseAValue() async throws {
            guard let server = PostgresTestServer.current else { throw PostgresTestServer.ServerError(message: "no server") }
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            try PostgresTestServer.psql("""
                CREATE TABLE seed AS SELECT g AS key, jsonb_build_object('id', g, 'a', g, 'b', jsonb_build_object('c', g)) AS body
                FROM generate_series(1, 3000) AS g;
                """, databaseURL: url)
            let setup = try await PostgresDocumentStore(url: url)
            try await setup.collection(named: "p").insert(["id": 0, "a": 0, "b": ["c": 0]])
            try PostgresTestServer.psql("INSERT INTO p SELECT key, body FROM seed; DROP TABLE seed;", databaseURL: url)
            await setup.close()

            let rounds = 40
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await Self.withCollection(url) { p in
                        for _ in 0..<rounds {
                            try await p.renameField(FieldPath("a"), to: FieldPath("z"))
                            try await p.renameField(FieldPath("z"), to: FieldPath("a"))
                        }
                    }
                }
                group.addTask {
                    try await Self.withCollection(url) { p in
                        for _ in 0..<rounds {
                            try await p.copyField(FieldPath("b"), to: FieldPath("q"))
                            try await p.removeField(FieldPath("q"))
                        }
                    }
                }
                group.addTask {
                    try await Self.withCollection(url) { p in
                        for _ in 0..<rounds {
                            try await p.setDefault(FieldPath("d"), to: 1)
                            try await p.removeField(FieldPath("d"))
                        }
                    }
                }
                try await group.waitForAll()
            }

            try await Self.withCollection(url) { p in
                // Every document as it began: each value where it started, nothing extra.
                let documents = try await p.all()
                #expect(documents.count == 3001)
                let intact = documents.allSatisfy { document in
                    guard case .object(let members) = document, let id = document["id"] else { return false }
                    return members.count == 3 && document["a"] == id && document["b"]?["c"] == id
                }
                #expect(intact)
            }
        }

        /// The collection `p` on a connection of its own, closed after `body`.
        static func withCollection(_ url: String, _ body: (PostgresCollection<JSONValue>) async throws -> Void) async throws {
            let store = try await PostgresDocumentStore(url: url)
            do {
                try await body(store.collection(named: "p"))
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }
}
