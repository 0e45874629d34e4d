import Foundation
import Testing

extension PostgresREPLTests {
    /// The server refuses an import's COMMIT (a deferred constraint trigger; a
    /// serialization failure would too): the held transaction ended once for
    /// the commit and was waited for again by the roll back, so `.import` and
    /// `docstore copy` never returned, ctrl-C included (helper-57).
    @Suite("Fault: the server refuses a commit", .serialized)
    struct CommitRefusedTests {
        @Test(.timeLimit(.minutes(5))) func anImportWhoseCommitIsRefusedFailsAndImportsNothing() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let made = try runProcess(try docstoreBinary(), [url, "-c", #"people.insert({"id": 1})"#])
            try #require(made.status == 0, "\(made.stderr)")
            try PostgresREPLServer.psql("""
                CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION 'refused at commit'; END$$;
                CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON people DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_at_commit();
                """, databaseURL: url)
            let file = directory.appendingPathComponent("people.ndjson")
            try (2...50).map { #"{"id": \#($0)}"# }.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)

            let session = try PipedSession([url, "-c", ".import people \(file.path)"])
            let result = try #require(session.ended(within: 60), "the import still waits a minute after its commit was refused")
            #expect(result.status == 1)
            #expect(result.stderr.contains("refused at commit") && result.stderr.contains("nothing was imported"), "\(result.stderr)")
            let count = try PostgresREPLServer.psql("SELECT count(*) FROM people", databaseURL: url)
            #expect(count.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        }
    }
}

extension PostgresREPLTests {
    /// The connection closes while the server commits: with synchronous
    /// replication waiting for a standby that isn't there, the commit is done
    /// locally and the backend ended before it answers. The REPL said "nothing
    /// of the transaction was committed"; the rows were there (helper-57).
    @Suite("Fault: the connection closes as the server commits", .serialized)
    struct CommitOutcomeUnknownTests {
        /// The server ends the connection in answer to a COMMIT (a fast stop,
        /// pg_terminate_backend: 57P01): it said only "terminating connection
        /// due to administrator command", though a commit is finished before
        /// such a request is heeded (helper-58).
        @Test(.timeLimit(.minutes(5))) func aConnectionEndedByTheServerDuringTheCommitSaysItMayHaveBeenCommitted() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let made = try runProcess(try docstoreBinary(), [url, "-c", #"slow.insert({"id": 1})"#])
            try #require(made.status == 0, "\(made.stderr)")
            try PostgresREPLServer.psql("""
                CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN PERFORM pg_sleep(30); RETURN NULL; END$$;
                CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON slow DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit();
                """, databaseURL: url)
            let session = try PipedSession([url, "-c", #"slow.insert({"id": 2})"#])
            var ended = ""
            let deadline = Date().addingTimeInterval(60)
            while ended != "1", Date() < deadline {
                ended = try PostgresREPLServer.psql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'", databaseURL: url)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                if ended != "1" { Thread.sleep(forTimeInterval: 0.1) }
            }
            try #require(ended == "1", "no commit was caught in its deferred trigger")
            let result = try #require(session.ended(within: 60))
            #expect(result.status == 1)
            #expect(result.stderr.contains("may have committed it or not [SQLSTATE 08007]"), "\(result.stderr)")
        }

        @Test(.timeLimit(.minutes(5))) func aWriteWhoseCommitWasNotAnsweredSaysItMayHaveBeenCommitted() throws {
            let server = try PostgresREPLServer.start()
            defer { server.stop() }
            let url = "postgres://docstore@/postgres?host=\(server.directory)"
            let psql = { (sql: String) throws -> String in
                let (binary, arguments) = server.psqlCommand(sql, database: "postgres")
                let run = try runProcess(binary, arguments)
                try #require(run.status == 0, "\(run.stderr)")
                return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let made = try runProcess(try docstoreBinary(), [url, "-c", #"c.insert({"id": 1})"#])
            try #require(made.status == 0, "\(made.stderr)")
            _ = try psql("ALTER SYSTEM SET synchronous_standby_names = 'nosuchstandby'")
            _ = try psql("SELECT pg_reload_conf()")
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("more.ndjson")
            try (10...59).map { #"{"id": \#($0)}"# }.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)

            for (command, says) in [(#"c.insert({"id": 2})"#, "may have committed it or not [SQLSTATE 08007]"),
                                    (".import c \(file.path)", "c may hold all of this import or none of it")] {
                let session = try PipedSession([url, "-c", command])
                // The commit waits for the standby; its backend is ended then.
                var ended = ""
                let deadline = Date().addingTimeInterval(60)
                while ended != "1", Date() < deadline {
                    ended = try psql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")
                    if ended != "1" { Thread.sleep(forTimeInterval: 0.1) }
                }
                try #require(ended == "1", "no commit was caught waiting for the standby")
                let result = try #require(session.ended(within: 60))
                #expect(result.status == 1)
                #expect(result.stderr.contains(says) && result.stderr.contains("look"), "\(result.stderr)")
                #expect(!result.stderr.contains("nothing"), "\(result.stderr)")
            }
            // Both were committed (locally), as the messages allowed.
            _ = try psql("ALTER SYSTEM RESET synchronous_standby_names")
            _ = try psql("SELECT pg_reload_conf()")
            #expect(try psql("SELECT count(*) FROM c") == "52")
        }
    }
}
