import Foundation
import Testing

extension PostgresREPLTests {
    /// A command on a collection another session holds waits for it once, as
    /// `--busy-timeout` says, then fails saying so. The parser's sample of the
    /// collection's field names waited for the lock first, once or twice,
    /// so that a 2 s timeout took 4 s or more.
    @Suite("PostgreSQL: waiting for another session's lock")
    struct LockWaitTests {
        @Test(.timeLimit(.minutes(2))) func aCommandWaitsForAnotherSessionsLockOnce() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let binary = try docstoreBinary()
            let setUp = try runProcess(binary, [url, "-c", #"players.insert([{"id": 1, "position": "Catcher"}, {"id": 2, "position": "Pitcher"}])"#])
            #expect(setUp.status == 0, "\(setUp.stderr)")

            let (psql, arguments) = try PostgresREPLServer.psqlCommand(
                "BEGIN; LOCK TABLE players IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60); COMMIT;", databaseURL: url)
            let holder = Process()
            holder.executableURL = psql
            holder.arguments = arguments
            holder.standardOutput = FileHandle.nullDevice
            try holder.run()
            defer {
                // Its backend sleeps on without its client: ended too.
                _ = try? PostgresREPLServer.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid()", databaseURL: url)
                holder.terminate()
                holder.waitUntilExit()
            }
            var held = false
            for _ in 0..<100 where !held {
                let locks = try PostgresREPLServer.psql("SELECT count(*) FROM pg_locks WHERE relation = 'players'::regclass AND mode = 'AccessExclusiveLock' AND granted", databaseURL: url)
                held = locks.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
                if !held { Thread.sleep(forTimeInterval: 0.1) }
            }
            try #require(held, "psql never took the lock")

            let started = Date()
            let result = try runProcess(binary, [url, "--busy-timeout", "3", "-c", #"players.filter { $0.position == "Catcher" }.count()"#])
            let seconds = Date().timeIntervalSince(started)
            #expect(result.status == 1)
            #expect(result.stderr.contains("another session held the collection") && result.stderr.contains("[SQLSTATE 55P03]"), "\(result.stderr)")
            #expect(seconds < 5.5, "\(seconds) s for a 3 s lock timeout")
        }
    }
}
