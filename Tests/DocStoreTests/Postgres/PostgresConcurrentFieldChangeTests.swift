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
        @Test(.timeLimit(.minutes(10))) func fieldChangesAtOnceNeitherDeadlockNorLoseAValue() async throws {
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
            try await PostgresConnections.run(url, count: 3) { store, number in
                let p = store.collection(named: "p")
                for _ in 0..<rounds {
                    switch number {
                    case 0:
                        try await p.renameField(FieldPath("a"), to: FieldPath("z"))
                        try await p.renameField(FieldPath("z"), to: FieldPath("a"))
                    case 1:
                        try await p.copyField(FieldPath("b"), to: FieldPath("q"))
                        try await p.removeField(FieldPath("q"))
                    default:
                        try await p.setDefault(FieldPath("d"), to: 1)
                        try await p.removeField(FieldPath("d"))
                    }
                }
            }

            // Every document as it began: each value where it started, nothing extra.
            let store = try await PostgresDocumentStore(url: url)
            let documents = try await store.collection(named: "p").all()
            await store.close()
            #expect(documents.count == 3001)
            let intact = documents.allSatisfy { document in
                guard case .object(let members) = document, let id = document["id"] else { return false }
                return members.count == 3 && document["a"] == id && document["b"]?["c"] == id
            }
            #expect(intact)
        }
    }
}
