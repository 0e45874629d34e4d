import DocStore
import Foundation
import Testing
@testable import DocStorePostgres

extension PostgresTests {
    /// Two stores on one new database (two processes' worth of connections),
    /// and its URL for `psql`; both closed at the end, also when `body` throws.
    static func withTwoStores(
        _ body: (_ observing: PostgresDocumentStore, _ writing: PostgresDocumentStore, _ url: String) async throws -> Void
    ) async throws {
        let server = try #require(PostgresTestServer.current)
        let url = try await PostgresTestServer.freshDatabaseURL(server)
        let observing = try await PostgresDocumentStore(url: url)
        let writing: PostgresDocumentStore
        do {
            writing = try await PostgresDocumentStore(url: url)
        } catch {
            await observing.close()
            throw error
        }
        do {
            try await body(observing, writing, url)
        } catch {
            await observing.close()
            await writing.close()
            throw error
        }
        await observing.close()
        await writing.close()
    }

    @Suite("PostgreSQL: live queries (LISTEN/NOTIFY)")
    struct LiveQueryTests {
        static let racers = StoreTests.racers

        /// The first result at once; then one result per commit that changed it:
        /// none for a commit that left it as it was, a rolled-back transaction or
        /// a write to another collection (which runs no fetch at all).
        @Test func eachCommitInProcessGivesOneNewResult() async throws {
            try await PostgresTests.withStore { store in
                let racers = store.collection(Racer.self, named: "racers")
                let teams = store.collection(named: "teams")
                try await racers.insert(contentsOf: Self.racers)
                try await teams.insert(["id": 1])
                let fast = LiveRecorder(racers.filter { $0.number >= 10 }.sorted { $0.id }.values())
                defer { fast.stop() }
                #expect(try await fast.waitFor(1, "the first result")[0].map(\.id) == [2, 4])

                try await racers.insert(Racer(id: 5, name: "Eve", number: 30, tags: []))
                #expect(try await fast.waitFor(2, "the result after an insert")[1].map(\.id) == [2, 4, 5])

                let fetches = store.changeHub.fetches.load(ordering: .relaxed)
                try await racers.insert(Racer(id: 6, name: "Slowpoke", number: 1, tags: []))  // selected neither before nor after
                // Its fetch has begun (a commit arriving before it began would share it).
                try await eventually("the fetch after racer 6") { store.changeHub.fetches.load(ordering: .relaxed) - fetches == 1 }
                try await teams.insert(["id": 2])                                             // another collection
                await #expect(throws: (any Error).self) {
                    try await store.transaction { transaction in
                        try await transaction.collection(Racer.self, named: "racers").insert(Racer(id: 7, name: "Ghost", number: 99, tags: []))
                        throw LiveTestError("rolled back")
                    }
                }
                try await racers.delete(2)
                let values = try await fast.waitFor(3, "the result after a delete")
                #expect(values[2].map(\.id) == [4, 5])
                #expect(values.count == 3)
                // One fetch for the unchanged result (racer 6), one for the delete:
                // none for the team, none for the rolled-back insert.
                #expect(store.changeHub.fetches.load(ordering: .relaxed) - fetches == 2)
            }
        }

        /// Commits of another store (its own connections) and of another
        /// process (`psql`) reach counts, single documents and query results;
        /// `psql`'s rolled-back transaction reaches nothing.
        @Test func anotherStoreAndAnotherProcessReachTheObserver() async throws {
            try await PostgresTests.withTwoStores { observing, writing, url in
                try await writing.collection(Racer.self, named: "racers").insert(contentsOf: Self.racers)
                let racers = observing.collection(Racer.self, named: "racers")
                let count = LiveRecorder(racers.filter { $0.tags.contains("fast") }.observe { try await $0.count() })
                let three = LiveRecorder(racers.values(forKey: 3))
                defer { count.stop(); three.stop() }
                #expect(try await count.waitFor(1, "the first count") == [2])
                #expect(try await three.waitFor(1, "the first document")[0]?.name == "Émile")

                var emile = Self.racers[2]
                emile.tags = ["fast"]
                try await writing.collection(Racer.self, named: "racers").update(emile)
                #expect(try await count.waitFor(2, "the count after another store's update") == [2, 3])
                #expect(try await three.waitFor(2, "the document after another store's update")[1]?.tags == ["fast"])

                try PostgresTestServer.psql(#"BEGIN; DELETE FROM racers WHERE key = 3; ROLLBACK;"#, databaseURL: url)
                try PostgresTestServer.psql(#"UPDATE racers SET body = jsonb_set(body, '{tags}', '[]') WHERE key = 1"#, databaseURL: url)
                #expect(try await count.waitFor(3, "the count after psql's update") == [2, 3, 2])
                try PostgresTestServer.psql("DELETE FROM racers WHERE key = 3", databaseURL: url)
                let document = try await three.waitFor(3, "the document after psql's delete")
                #expect(document.count == 3 && document[2] == nil, "the rolled-back delete yielded nothing; the committed one nil")
            }
        }

        /// A random sequence of transactions (inserts, saves, updates, deletes,
        /// updates by query, some rolled back) from another store: after each
        /// commit, the observed result is the fresh fetch.
        @Test func randomWritesKeepTheObservedResultEqualToAFreshFetch() async throws {
            try await PostgresTests.withTwoStores { observing, writing, url in
                let observed = observing.collection(Racer.self, named: "racers")
                let written = writing.collection(Racer.self, named: "racers")
                try await written.insert(contentsOf: Self.racers)
                let query = observed.filter { $0.number >= 5 }.sorted { $0.name }.limit(6)
                let fresh = { try await written.filter { $0.number >= 5 }.sorted { $0.name }.limit(6).fetch() }
                let recorder = LiveRecorder(query.values())
                defer { recorder.stop() }
                var last = try await recorder.waitFor(1, "the first result")[0]
                var seen = 1
                #expect(last == (try await fresh()))
                var random = SeededGenerator(seed: 13)
                for step in 0..<80 {
                    let rollsBack = Int.random(in: 0..<6, using: &random) == 0
                    _ = try? await writing.transaction { transaction in
                        let racers = transaction.collection(Racer.self, named: "racers")
                        for _ in 0...Int.random(in: 0..<3, using: &random) {
                            let id = 1 + Int.random(in: 0..<12, using: &random)
                            let racer = Racer(id: id, name: "r\(Int.random(in: 0..<9, using: &random))", number: Int.random(in: 0..<15, using: &random), tags: [])
                            switch Int.random(in: 0..<5, using: &random) {
                            case 0: _ = try? await transaction.savepointInsert(racers, racer)
                            case 1: try await racers.save(racer)
                            case 2: try await racers.delete(id)
                            case 3: try await racers.filter { $0.number < 4 }.update { $0.number.increment(by: 3) }
                            default: try await racers.save(Racer(id: id, name: racer.name, number: 20, tags: []))
                            }
                        }
                        if rollsBack { throw LiveTestError("rolled back") }
                    }
                    let expected = try await fresh()
                    if expected != last {
                        let values = try await recorder.waitFor(seen + 1, "the result after step \(step)")
                        #expect(values[seen] == expected, "step \(step)")
                        seen += 1
                        last = expected
                    }
                }
                // A last commit that changes the result: nothing unexpected came before it.
                try await written.save(Racer(id: 40, name: "A last one", number: 50, tags: []))
                let values = try await recorder.waitFor(seen + 1, "the result after the last commit")
                #expect(values[seen] == (try await fresh()))
                try await Task.sleep(for: .milliseconds(200))
                #expect(recorder.values.count == seen + 1, "one result per change, none more")
                // Each transaction's commit mark was deleted at its commit (by
                // its ctid), rolled back ones and savepoints included.
                let marks = try PostgresTestServer.psql("SELECT 'marks=' || count(*) FROM docstore_live_commits", databaseURL: url)
                #expect(marks.contains("marks=0"), "\(marks)")
            }
        }
    }
}

extension PostgresTransaction {
    /// Inserts in a savepoint: a taken key fails without spoiling the transaction.
    func savepointInsert(_ racers: PostgresCollection<Racer>, _ racer: Racer) async throws {
        _ = try await savepoint { try await racers.insert(racer) }
    }
}
