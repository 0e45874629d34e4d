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

            let process = Process()
            process.executableURL = binary
            process.arguments = [url, "--keep-going", "--mode", "ndjson"]
            let input = Pipe(), output = Pipe(), errors = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            defer {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
            try input.fileHandleForWriting.write(contentsOf: Data("c.count()\n".utf8))
            #expect(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self) == "2\n")

            try runProcess(binary, [url, "-c", ".drop c"]).expectSuccess()
            Thread.sleep(forTimeInterval: 0.5)  // past the session's quarter second between catalog reads
            try input.fileHandleForWriting.write(contentsOf: Data("""
                c.count()
                c.keys()
                c.filter { $0.n > 0 }.update { $0.n += 1 }
                c.insert({"id": 5})
                c.count()

                """.utf8))
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 1)
            for line in 2...4 {
                #expect(stderr.contains("error at line \(line), column 1: no collection named \"c\""), "\(stderr)")
            }
            // A write makes the collection anew, as in a new session.
            #expect(stdout == "1\n", "\(stdout)")
        }
    }
}
