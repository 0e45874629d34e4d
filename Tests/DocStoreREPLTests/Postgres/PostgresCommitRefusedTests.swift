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
