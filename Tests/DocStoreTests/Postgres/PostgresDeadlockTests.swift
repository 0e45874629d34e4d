import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

extension PostgresTests {
    /// Updates of many documents from several connections at once lock rows in
    /// different orders, and PostgreSQL ends one of two that wait for each
    /// other (a deadlock, SQLSTATE 40P01), undoing it whole. DocStore runs its
    /// own transaction again, and runs one update by query of a collection at
    /// a time (PostgreSQL breaks a deadlock only after a second); it said
    /// "deadlock detected" for about one update in eight from three shells. A transaction the caller opened is not run
    /// again: its error says what happened and what to do.
    @Suite("PostgreSQL: deadlocks between connections")
    struct DeadlockTests {
        @Test(.timeLimit(.minutes(10))) func updatesByQueryFromThreeConnectionsAllApplyOnce() async throws {
            let url = try await PostgresConnections.freshDatabase(collection: "p", rows: """
                UPDATE p SET body = '{"id": 0, "a": 0}';
                INSERT INTO p SELECT g, jsonb_build_object('id', g, 'a', 0) FROM generate_series(1, 3000) AS g;
                """)

            let (connections, rounds) = (3, 8)
            try await PostgresConnections.run(url, count: connections) { store, _ in
                let p = store.collection(named: "p")
                for _ in 0..<rounds {
                    // All of them, then the upper half back and forth: rows
                    // met in another order by each statement.
                    try await p.update(DocumentQuery(), [.increment(FieldPath("a"), 2)])
                    try await p.update(DocumentQuery(.compare(FieldPath("id"), .greater, 1500)), [.increment(FieldPath("a"), -1)])
                    try await p.update(DocumentQuery(.compare(FieldPath("id"), .greater, 1500)), [.increment(FieldPath("a"), 1)])
                    try await p.update(DocumentQuery(), [.increment(FieldPath("a"), -1)])
                }
            }

            // Each update applied exactly once: +1 per round per connection.
            let store = try await PostgresDocumentStore(url: url)
            let values = try await store.collection(named: "p").all().compactMap { $0["a"] }
            await store.close()
            #expect(values.count == 3001)
            #expect(values.allSatisfy { $0 == .integer(Int64(connections * rounds)) }, "\(Set(values.map { "\($0)" }))")
            // And none waited for PostgreSQL to break a deadlock (a second each).
            #expect(try await PostgresConnections.deadlocks(url) == 0)
        }

        /// Batches of saves sharing documents, from two connections in opposite
        /// orders: written in key order, they wait for each other and none
        /// deadlocks (three in ten did, from two shells).
        @Test(.timeLimit(.minutes(10))) func batchesOfSavesInOppositeOrdersNeverDeadlock() async throws {
            guard let server = PostgresTestServer.current else { throw PostgresTestServer.ServerError(message: "no server") }
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let setup = try await PostgresDocumentStore(url: url)
            try await setup.collection(named: "s").insert(["id": 0])
            await setup.close()
            try await PostgresConnections.run(url, count: 2) { store, number in
                for round in 0..<30 {
                    let ids = number == 1 ? Array((1...40).reversed()) : Array(1...40)
                    try await store.collection(named: "s").save(contentsOf: ids.map { ["id": .integer(Int64($0)), "round": .integer(Int64(round))] })
                }
            }
            let store = try await PostgresDocumentStore(url: url)
            #expect(try await store.collection(named: "s").count() == 41)
            await store.close()
            #expect(try await PostgresConnections.deadlocks(url) == 0)
        }

        /// An update by query (DocStore's own transaction) that PostgreSQL ends
        /// to break a deadlock with a caller's transaction is run again once
        /// that one commits, and applies to what it wrote; it threw 40P01.
        @Test(.timeLimit(.minutes(10))) func anUpdateByQueryEndedByADeadlockRunsAgain() async throws {
            guard let server = PostgresTestServer.current else { throw PostgresTestServer.ServerError(message: "no server") }
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let (caller, updater) = (try await PostgresDocumentStore(url: url), try await PostgresDocumentStore(url: url))
            try await caller.collection(named: "p").insert(contentsOf: [["id": 1, "a": 0], ["id": 2, "a": 0]])

            async let callerResult = Self.outcome {
                try await caller.transaction { transaction in
                    let p = transaction.collection(named: "p")
                    try await p.save(["id": 2, "a": 10])                // holds 2
                    try await Task.sleep(for: .milliseconds(400))       // the update holds 1 and waits for 2
                    try await p.save(["id": 1, "a": 10])                // waits for 1: a deadlock
                }
            }
            async let updateResult = Self.outcome {
                try await Task.sleep(for: .milliseconds(150))
                // Waiting first, its deadlock check runs first: it is the one ended.
                _ = try await updater.collection(named: "p").update(DocumentQuery(), [.increment(FieldPath("a"), 1)])
            }
            let results = await [callerResult, updateResult]
            let values = try await caller.collection(named: "p").all().map { $0["a"] }
            await caller.close()
            await updater.close()
            #expect(results.allSatisfy { if case .success = $0 { true } else { false } }, "\(results)")
            #expect(values == [11, 11], "the update ran again, after the caller's commit")
        }

        /// Two transactions of the caller, each holding a document the other
        /// then saves: one is ended by PostgreSQL, and its error says it was undone
        /// and to run it again; the other commits.
        @Test(.timeLimit(.minutes(10))) func aCallersTransactionEndedByADeadlockSaysToRunItAgain() async throws {
            guard let server = PostgresTestServer.current else { throw PostgresTestServer.ServerError(message: "no server") }
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let (first, second) = (try await PostgresDocumentStore(url: url), try await PostgresDocumentStore(url: url))
            try await first.collection(named: "p").insert(contentsOf: [["id": 1, "a": 0], ["id": 2, "a": 0]])
            let one: JSONValue = ["id": 1, "a": 1], two: JSONValue = ["id": 2, "a": 1]
            let (holdsTwo, signal) = AsyncStream<Void>.makeStream()

            async let firstResult = Self.outcome {
                try await first.transaction { transaction in
                    let p = transaction.collection(named: "p")
                    try await p.save(one)
                    for await _ in holdsTwo { break }                    // the other holds 2 and waits for 1
                    try await Task.sleep(for: .milliseconds(300))
                    try await p.save(two)
                }
            }
            async let secondResult = Self.outcome {
                try await Task.sleep(for: .milliseconds(200))           // after the first holds 1
                try await second.transaction { transaction in
                    let p = transaction.collection(named: "p")
                    try await p.save(two)
                    signal.yield()
                    try await p.save(one)
                }
            }
            let results = await [firstResult, secondResult]
            await first.close()
            await second.close()

            let failures = results.compactMap { result -> (any Error)? in
                if case .failure(let error) = result { error } else { nil }
            }
            #expect(failures.count == 1, "\(results)")
            let message = failures.first.map { "\($0.localizedDescription)" } ?? ""
            #expect(message.contains("deadlock detected [SQLSTATE 40P01]"), "\(message)")
            #expect(message.contains("PostgreSQL undid the whole transaction to end a deadlock with another connection: nothing of it was written; run it again"), "\(message)")
        }

        /// What an async throwing body gave.
        static func outcome(_ body: @Sendable () async throws -> Void) async -> Result<Void, any Error> {
            do { return .success(try await body()) } catch { return .failure(error) }
        }
    }
}

