import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

/// A model keyed by strings, for a collection made again with another key kind.
struct Badge: Codable, Identifiable, Equatable, Sendable {
    var id: String
    var name: String
}

extension PostgresTests {
    /// Streaming reads (`forEach`) and the prepared statements point reads and
    /// writes reuse on each connection.
    @Suite("PostgreSQL: streaming and reused statements")
    struct StreamingTests {
        struct Enough: Error {}

        @Test func forEachHandsOverTheSelectedDocumentsInTheQuerysOrder() async throws {
            try await PostgresTests.withStore { store in
                let racers = store.collection(Racer.self, named: "racers")
                try await racers.insert(contentsOf: (1...2500).map { Racer(id: $0, name: "r\($0)", number: $0 % 7, tags: []) })
                let query = racers.filter { $0.number == 3 }.sorted { $0.name.descending }
                var seen: [Int] = []
                try await query.forEach { seen.append($0.id) }
                #expect(seen.count == 357)  // 3, 10, … 2495
                #expect(seen == (try await query.fetch().map(\.id)))
                #expect(seen.first == 997 && seen.last == 10)  // as text: "r997" first, "r10" last
                var total = 0
                try await racers.forEach { total += $0.id }
                #expect(total == 2500 * 2501 / 2)

                // Throwing stops the query with the body's own error, and the store reads on.
                var read = 0
                do {
                    try await racers.forEach { _ in
                        read += 1
                        if read == 10 { throw Enough() }
                    }
                    Issue.record("forEach went on after its body threw")
                } catch is Enough {}
                #expect(read == 10)
                #expect(try await racers.get(2500)?.name == "r2500")
                #expect(try await racers.count() == 2500)
            }
        }

        /// A pipeline's rows, streamed: the rows ``PostgresCollection/rows(_:)``
        /// collects, in its order; throwing stops the statement.
        @Test func forEachRowHandsOverAPipelinesRowsInItsOrder() async throws {
            try await PostgresTests.withStore { store in
                let racers = store.collection(Racer.self, named: "racers")
                try await racers.insert(contentsOf: (1...2500).map { Racer(id: $0, name: "r\($0)", number: $0 % 7, tags: []) })
                let teams = store.collection(named: "teams")
                try await teams.insert(contentsOf: (0..<7).map { JSONValue.object(["id": .integer(Int64($0)), "city": .string("c\($0)")]) })
                let pipelines = [
                    QueryPipeline(DocumentQuery(sort: [SortKey(FieldPath("name"), descending: true)]),
                                  stages: [.join(Join("teams", on: FieldPath("number"), equals: .key, as: "team"))]),
                    QueryPipeline(stages: [.group(Grouping(keys: [FieldPath("number")], aggregates: [NamedAggregate("n", .count)]))]),
                ]
                for pipeline in pipelines {
                    var streamed: [JSONValue] = []
                    try await store.forEachRow(of: "racers", pipeline) { streamed.append($0) }
                    let collected = try await store.rows(of: "racers", pipeline)
                    #expect(streamed.count == collected.count && streamed.count >= 7)
                    #expect(streamed == collected)
                }
                var read = 0
                do {
                    try await store.forEachRow(of: "racers", pipelines[0]) { _ in
                        read += 1
                        if read == 10 { throw Enough() }
                    }
                    Issue.record("forEachRow went on after its body threw")
                } catch is Enough {}
                #expect(read == 10)
                #expect(try await racers.count() == 2500)
            }
        }

        @Test func reusedStatementsFollowACollectionDroppedAndMadeAgainWithAnotherKeyKind() async throws {
            try await PostgresTests.withStore { store in
                let racers = store.collection(Racer.self, named: "things")
                try await racers.insert(Racer(id: 1, name: "Ana", number: 7, tags: []))
                #expect(try await racers.get(1)?.name == "Ana")
                #expect(try await store.dropCollection(named: "things"))
                #expect(try await racers.get(1) == nil)

                let badges = store.collection(Badge.self, named: "things")
                try await badges.insert(Badge(id: "gold", name: "Gold"))
                try await badges.save(Badge(id: "gold", name: "Gold!"))
                #expect(try await badges.get("gold") == Badge(id: "gold", name: "Gold!"))
                #expect(try await badges.delete("gold"))
                #expect(try await badges.get("gold") == nil)
            }
        }

        @Test func aTableDroppedBehindTheStoresBackIsAnErrorUntilItIsBack() async throws {
            guard let server = PostgresTestServer.current else { throw PostgresTestServer.ServerError(message: "no server") }
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let store = try await PostgresDocumentStore(url: url)
            do {
                let racers = store.collection(Racer.self, named: "racers")
                try await racers.insert(Racer(id: 1, name: "Ana", number: 7, tags: []))
                #expect(try await racers.get(1)?.name == "Ana")
                try PostgresTestServer.psql("DROP TABLE racers", databaseURL: url)
                let error = try await #require(throws: DocStoreError.self) { try await racers.get(1) }
                if case .missingTable("racers") = error {} else { Issue.record("expected missingTable, got \(error)") }
                // Made again by hand: the statement is prepared anew, not its failure remembered.
                try PostgresTestServer.psql("""
                    CREATE TABLE racers (key bigint PRIMARY KEY, body jsonb NOT NULL);
                    INSERT INTO racers VALUES (1, '{"id": 1, "name": "Bea", "number": 2, "tags": []}');
                    """, databaseURL: url)
                #expect(try await racers.get(1)?.name == "Bea")
                try await racers.insert(Racer(id: 2, name: "Cy", number: 3, tags: []))
                #expect(try await racers.all().map(\.name) == ["Bea", "Cy"])
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }
}
