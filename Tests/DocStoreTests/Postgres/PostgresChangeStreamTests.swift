import DocStore
import Foundation
import Testing
@testable import DocStorePostgres

extension PostgresTests {
    @Suite("PostgreSQL: change streams and the listening connection")
    struct ChangeStreamTests {
        /// One change set per committed transaction, net per key; nothing for
        /// rolled-back transactions and other collections; keyless statements
        /// (too many rows, a long key, TRUNCATE) give an incomplete change set.
        @Test func changesListTheKeysOfEachCommit() async throws {
            try await PostgresTests.withTwoStores { observing, writing, url in
                let written = writing.collection(Racer.self, named: "racers")
                try await written.insert(contentsOf: StoreTests.racers)
                let changes = LiveRecorder(try await observing.collection(Racer.self, named: "racers").changes())
                defer { changes.stop() }

                try await writing.transaction { transaction in
                    let racers = transaction.collection(Racer.self, named: "racers")
                    try await racers.insert(Racer(id: 10, name: "Ten", number: 10, tags: []))
                    try await racers.update(Racer(id: 1, name: "Ana", number: 8, tags: []))
                    try await racers.delete(2)
                    try await racers.insert(Racer(id: 11, name: "Gone", number: 11, tags: []))
                    try await racers.delete(11)
                    try await racers.delete(3)
                    try await racers.insert(Racer(id: 3, name: "Back", number: 3, tags: []))
                }
                await #expect(throws: (any Error).self) {
                    try await writing.transaction { transaction in
                        try await transaction.collection(Racer.self, named: "racers").delete(4)
                        throw LiveTestError("rolled back")
                    }
                }
                try await writing.collection(named: "teams").insert(["id": 1])
                try PostgresTestServer.psql("INSERT INTO racers SELECT g, jsonb_build_object('id', g) FROM generate_series(100, 2099) g", databaseURL: url)
                try PostgresTestServer.psql("INSERT INTO racers SELECT g, jsonb_build_object('id', g) FROM generate_series(3000, 13099) g", databaseURL: url)
                try PostgresTestServer.psql("TRUNCATE racers", databaseURL: url)

                let sets = try await changes.waitFor(4, "four change sets")
                #expect(sets[0].inserted == [.integer(10)])
                #expect(sets[0].updated == [.integer(1), .integer(3)])
                #expect(sets[0].deleted == [.integer(2)])
                #expect(sets[0].isComplete)
                // 2 000 keys, in several notices: all listed, in one change set.
                let bulk: [DocumentKey] = (100...2099).map { DocumentKey.integer(Int64($0)) }
                #expect(sets[1].inserted == bulk)
                #expect(sets[1].isComplete)
                // 10 100 rows in one statement, then TRUNCATE: any key may have changed.
                #expect(!sets[2].isComplete && sets[2].inserted.isEmpty)
                #expect(!sets[3].isComplete)
                try await Task.sleep(for: .milliseconds(300))
                // The rolled-back delete and the team gave nothing.
                let delivered: Int = changes.values.count
                #expect(delivered == 4)
            }
        }

        /// A single-row write outside a transaction is its transaction's only
        /// statement, and its notice says so: each comes as a change set of its
        /// own at once (not when the next commit is heard), and no commit mark
        /// is written for it (a trigger of the test's counts them); a
        /// transaction of several writes still ends with its mark.
        @Test func singleWritesEndTheirOwnNotice() async throws {
            try await PostgresTests.withTwoStores { observing, writing, url in
                let written = writing.collection(Racer.self, named: "racers")
                try await written.insert(contentsOf: StoreTests.racers)
                try PostgresTestServer.psql("""
                    CREATE TABLE marks_seen (x bigint);
                    CREATE FUNCTION count_mark() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN INSERT INTO marks_seen VALUES (NEW.x); RETURN NULL; END $$;
                    CREATE TRIGGER count_mark AFTER INSERT ON docstore_live_commits FOR EACH ROW EXECUTE FUNCTION count_mark();
                    """, databaseURL: url)
                let changes = LiveRecorder(try await observing.collection(Racer.self, named: "racers").changes())
                defer { changes.stop() }

                let writes: [(String, () async throws -> Void)] = [
                    ("insert", { try await written.insert(Racer(id: 20, name: "New", number: 1, tags: [])) }),
                    ("save of a new document", { try await written.save(Racer(id: 21, name: "Saved", number: 2, tags: [])) }),
                    ("save over a document", { try await written.save(Racer(id: 20, name: "New", number: 5, tags: [])) }),
                    ("update", { try await written.update(Racer(id: 1, name: "Ana", number: 9, tags: [])) }),
                    ("delete", { let deleted = try await written.delete(2); #expect(deleted) }),
                ]
                for (index, (name, write)) in writes.enumerated() {
                    try await write()
                    try await changes.waitFor(index + 1, "the change set of the \(name)", within: .seconds(10))
                }
                let deletedNothing = try await !written.delete(99)
                #expect(deletedNothing, "nothing to delete: no notice")
                try await writing.transaction { transaction in
                    let racers = transaction.collection(Racer.self, named: "racers")
                    try await racers.insert(Racer(id: 30, name: "Thirty", number: 30, tags: []))
                    try await racers.delete(3)
                }
                let sets = try await changes.waitFor(6, "the transaction's change set")
                let keys = sets.map { ($0.inserted, $0.updated, $0.deleted) }
                #expect(keys.map(\.0) == [[.integer(20)], [.integer(21)], [], [], [], [.integer(30)]])
                #expect(keys.map(\.1) == [[], [], [.integer(20)], [.integer(1)], [], []])
                #expect(keys.map(\.2) == [[], [], [], [], [.integer(2)], [.integer(3)]])
                try await Task.sleep(for: .milliseconds(300))
                #expect(changes.values.count == 6)
                let marks = try PostgresTestServer.psql("SELECT 'marks=' || count(*) FROM marks_seen", databaseURL: url)
                #expect(marks.contains("marks=1"), "only the transaction wrote a commit mark: \(marks)")
            }
        }

        /// String keys come back as strings; a key too long for a notice makes
        /// the change set incomplete rather than losing it.
        @Test func longKeysFallBackToAnIncompleteChangeSet() async throws {
            try await PostgresTests.withStore { store in
                let notes = store.collection(named: "notes")
                try await notes.insert(["id": "first"])
                let changes = LiveRecorder(try await notes.changes())
                defer { changes.stop() }
                try await notes.insert(["id": "second"])
                try await notes.insert(["id": .string((0..<40).map { _ in UUID().uuidString }.joined())])  // 1 440 bytes
                let sets = try await changes.waitFor(2, "two change sets")
                #expect(sets[0].inserted == [.string("second")] && sets[0].isComplete)
                #expect(!sets[1].isComplete && sets[1].inserted.isEmpty)
            }
        }

        /// A lost listening connection is replaced; a commit made while no one
        /// listened still reaches the observer (every observer reads again).
        @Test func aLostConnectionIsReplacedAndNothingIsMissed() async throws {
            try await PostgresTests.withTwoStores { observing, writing, url in
                try await writing.collection(Racer.self, named: "racers").insert(contentsOf: StoreTests.racers)
                let count = LiveRecorder(observing.collection(Racer.self, named: "racers").query.observe { try await $0.count() })
                defer { count.stop() }
                #expect(try await count.waitFor(1, "the first count") == [4])
                let listener = try #require(observing.changeHub.listenerProcessID)
                // The listener is killed and, before it can listen again, a row committed.
                try PostgresTestServer.psql("SELECT pg_terminate_backend(\(listener)); DELETE FROM racers WHERE key = 1;", databaseURL: url)
                #expect(try await count.waitFor(2, "the count after the reconnection") == [4, 3])
                try await eventually("listening again") { observing.changeHub.reconnections.load(ordering: .relaxed) >= 1 }
                try await writing.collection(Racer.self, named: "racers").delete(2)
                #expect(try await count.waitFor(3, "a count heard on the new connection") == [4, 3, 2])
            }
        }

        /// A store made before live queries (its tables without triggers) gets
        /// them when a store opens it: nothing written from then on goes unheard.
        @Test func openingAnOldStoreAddsTheTriggers() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let old = try await PostgresDocumentStore(url: url)
            try await old.collection(Racer.self, named: "racers").insert(contentsOf: StoreTests.racers)
            await old.close()
            try PostgresTestServer.psql("""
                DROP TRIGGER docstore_notify_insert ON racers; DROP TRIGGER docstore_notify_update ON racers;
                DROP TRIGGER docstore_notify_delete ON racers; DROP FUNCTION docstore_notify_rows() CASCADE;
                """, databaseURL: url)
            let store = try await PostgresDocumentStore(url: url)
            let count = LiveRecorder(store.collection(Racer.self, named: "racers").query.observe { try await $0.count() })
            defer { count.stop() }
            #expect(try await count.waitFor(1, "the first count") == [4])
            try PostgresTestServer.psql("DELETE FROM racers WHERE key = 4", databaseURL: url)
            #expect(try await count.waitFor(2, "the count after psql's delete") == [4, 3])
            count.stop()
            await store.close()
        }

        /// Ending the iteration ends the observation; the last one gives the
        /// listening connection back. Closing the store ends the others with an error.
        @Test func endingTheIterationFreesTheListenerAndClosingEndsObservations() async throws {
            try await PostgresTests.withTwoStores { observing, writing, _ in
                try await writing.collection(Racer.self, named: "racers").insert(contentsOf: StoreTests.racers)
                let racers = observing.collection(Racer.self, named: "racers")
                let first = LiveRecorder(racers.values(forKey: 1))
                let second = LiveRecorder(racers.query.observe { try await $0.count() })
                try await first.waitFor(1, "the first document")
                try await second.waitFor(1, "the first count")
                #expect(observing.changeHub.observerCount == 2)
                first.stop()
                try await first.waitForEnd("the stopped observation")
                try await eventually("one observer left") { observing.changeHub.observerCount == 1 }
                #expect(observing.changeHub.listenerProcessID != nil)
                second.stop()
                try await eventually("the listener given back") {
                    observing.changeHub.observerCount == 0 && observing.changeHub.listenerProcessID == nil
                }

                let third = LiveRecorder(racers.query.observe { try await $0.count() })
                try await third.waitFor(1, "a count after listening again")
                await observing.close()
                try await third.waitForEnd("the observation of a closed store")
                #expect(third.error.map { "\($0)" } == "\(PostgresStoreError.closed)")
            }
        }
    }
}
