import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// A collection another shell drops while a session has it open: the
    /// session's next commands say "no collection named", as a new session's
    /// do, where they answered 0, nothing or "updated 0 documents" from the
    /// session's cached list (helper-53). Real processes on a real server.
    @Suite("REPL on PostgreSQL: a collection dropped under a session")
    struct DroppedUnderSessionTests {
        @Test(.timeLimit(.minutes(10))) func readsSayTheCollectionIsGone() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let binary = try docstoreBinary()
            try runProcess(binary, [url, "-c", #"c.insert({"id": 1, "n": 1})"#, "-c", #"c.insert({"id": 2, "n": 2})"#]).expectSuccess()

            let session = try PipedSession([url, "--keep-going", "--mode", "ndjson"])
            try session.send("c.count()\n")
            #expect(session.availableOutput() == "2\n")

            try runProcess(binary, [url, "-c", ".drop c"]).expectSuccess()
            Thread.sleep(forTimeInterval: 0.5)  // past the session's quarter second between catalog reads
            try session.send("""
                c.count()
                c.keys()
                c.filter { $0.n > 0 }.update { $0.n += 1 }
                c.insert({"id": 5})
                c.count()

                """)
            let finished = try session.finish()
            #expect(finished.status == 1)
            for line in 2...4 {
                #expect(finished.stderr.contains("error at line \(line), column 1: no collection named \"c\""), "\(finished.stderr)")
            }
            // A write makes the collection anew, as in a new session.
            #expect(finished.stdout == "1\n", "\(finished.stdout)")
        }
    }
}
