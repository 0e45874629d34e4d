import DocStorePostgres
import Foundation
import Testing
@_spi(Backends) @testable import DocStore

extension PostgresTests {
    /// `min`/`max` over arrays and objects in a group take the first in key
    /// order (they have no order among themselves). PostgreSQL picks it without
    /// an ordered aggregate, from the least `[key as sortable text, value]`:
    /// string keys must compare by their bytes (`"z"` before `"é"`), not by the
    /// database's collation, and integer keys by value (`3` before `10`, `-10`
    /// before `-5`), not as text. The random differential tests use small
    /// positive integer keys only, so these are pinned here, three ways.
    @Suite("Groups: min and max of arrays and objects take the first in key order")
    struct GroupContainerExtremesTests {
        static let pipeline = QueryPipeline(stages: [.group(Grouping(keys: [FieldPath("g")], aggregates: [
            NamedAggregate("most", .max(FieldPath("v"))), NamedAggregate("least", .min(FieldPath("v"))),
        ]))])

        func agreeThreeWays(_ documents: [JSONValue]) async throws {
            let sqliteStore = try DocumentStore.inMemory()
            let sqlite = sqliteStore.collection(named: "main")
            let keys = try await sqlite.insert(contentsOf: documents)
            // In the collection's key order: integers by value, strings by their bytes.
            let keyed = zip(keys, documents).sorted { a, b in
                switch (a.0, b.0) {
                case let (.integer(x), .integer(y)): x < y
                default: a.0.description.utf8.lexicographicallyPrecedes(b.0.description.utf8)
                }
            }.map { (key: $0.0, document: $0.1) }
            // Each backend against the evaluator reading values as it does (SQLite
            // orders arrays and objects by their JSON text, PostgreSQL by key).
            let expected = try JSONOrder.$reading.withValue(.postgres) { try Self.pipeline.run(on: keyed, collection: "main") }
            let expectedSQLite = try JSONOrder.$reading.withValue(.sqlite) { try Self.pipeline.run(on: keyed, collection: "main") }
            let store = try await PostgresTestServer.freshStore()
            do {
                let postgres = store.collection(named: "main")
                try await postgres.insert(contentsOf: documents)
                let rows = try await postgres.rows(Self.pipeline)
                #expect(rows.map(ThreeWayPipelineDifferentialTests.sortedMembers) == expected.map(ThreeWayPipelineDifferentialTests.sortedMembers))
                let sqliteRows = try await sqlite.rows(Self.pipeline)
                #expect(sqliteRows == expectedSQLite)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }

        @Test func stringKeysCompareByTheirBytes() async throws {
            try await agreeThreeWays([
                ["id": "b", "g": 1, "v": ["from": "b"]], ["id": "a", "g": 1, "v": ["from": "a"]], ["id": "c", "g": 1, "v": [1]],
                ["id": "B", "g": 2, "v": [2]], ["id": "A", "g": 2, "v": [3]],
                ["id": "é", "g": 3, "v": ["from": "é"]], ["id": "z", "g": 3, "v": ["from": "z"]],
            ])
        }

        @Test func integerKeysCompareByValue() async throws {
            try await agreeThreeWays([
                ["id": 10, "g": 1, "v": ["from": 10]], ["id": 3, "g": 1, "v": ["from": 3]],
                ["id": -5, "g": 2, "v": [-5]], ["id": -10, "g": 2, "v": [-10]], ["id": 4, "g": 2, "v": "a string"],
            ])
        }
    }
}
