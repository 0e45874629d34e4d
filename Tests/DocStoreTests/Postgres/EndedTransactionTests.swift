import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

extension PostgresTests {
    /// A transaction whose connection the server ends (pg_terminate_backend,
    /// a fast shutdown) commits nothing, and the error says so, whether the
    /// connection was waiting for the transaction's next statement or running
    /// one (answered by SQLSTATE 57P01, which said only "terminating
    /// connection due to administrator command"). The transaction's
    /// connection is closed, not rolled back: a ROLLBACK sent on it as the
    /// server closed it waited forever now and then, and the pool lent it
    /// again before it saw the close (the next read failed with 08006).
    @Suite("PostgreSQL: a transaction the server ends")
    struct EndedTransactionTests {
        @Test(.timeLimit(.minutes(1)), arguments: [false, true])
        func aTransactionWhoseConnectionTheServerEndsSaysNothingWasCommitted(whileRunning: Bool) async throws {
            try await PostgresTests.withStoreAndURL { store, url in
                let racers = store.collection(Racer.self, named: "racers")
                try await racers.insert(Racer(id: 1, name: "kept", number: 1, tags: []))
                // An insert of a racer named "slow" waits in the server, to be ended there.
                try PostgresTestServer.psql("""
                    CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN IF NEW.body ->> 'name' = 'slow' THEN PERFORM pg_sleep(30); END IF; RETURN NEW; END $$;
                    CREATE TRIGGER slow BEFORE INSERT ON racers FOR EACH ROW EXECUTE FUNCTION slow();
                    """, databaseURL: url)
                let state = whileRunning ? "active" : "idle in transaction"
                let end = "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND state = '\(state)' AND pid <> pg_backend_pid()"
                let failure = await #expect(throws: (any Error).self) {
                    try await store.transaction { transaction in
                        let inside = transaction.collection(Racer.self, named: "racers")
                        try await inside.insert(Racer(id: 2, name: "lost", number: 2, tags: []))
                        if whileRunning {
                            let ender = Task {  // not detached: the test server is a task-local
                                try await Task.sleep(for: .seconds(1))
                                return try PostgresTestServer.psql(end, databaseURL: url)
                            }
                            defer { ender.cancel() }
                            try await inside.insert(Racer(id: 3, name: "slow", number: 3, tags: []))
                            _ = try await ender.value
                        } else {
                            let ended = try PostgresTestServer.psql(end, databaseURL: url)
                            #expect(ended.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.contains("1"), "\(ended)")
                            try await inside.insert(Racer(id: 3, name: "lost too", number: 3, tags: []))
                        }
                    }
                }
                let text = failure?.localizedDescription ?? ""
                #expect(text.contains("nothing of the transaction was committed"), "\(text)")
                #expect(try await racers.all().map(\.id) == [1])
            }
        }
    }
}
