import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// postgres-nio 1.33's `COPY` never returned when its connection died in the
    /// middle of one, so an `.import` whose server backend was ended waited
    /// forever (every other statement fails at once). A real process, a real
    /// server backend ended from another connection while its `COPY` runs.
    @Suite("Fault: the connection ends during an import's COPY", .serialized)
    struct CopyConnectionLossTests {
        @Test(.timeLimit(.minutes(10))) func theImportFailsNamingTheConnectionInsteadOfWaitingForever() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("big.ndjson")
            let line = { (i: Int) in #"{"id": \#(i), "name": "player \#(i) with a longer name to make the rows wider", "n": \#(i % 100)}"# }
            try (1...400_000).map(line).joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)

            let process = Process()
            process.executableURL = try docstoreBinary()
            process.arguments = [url, "-c", ".import big \(file.path)"]
            let errors = directory.appendingPathComponent("stderr.txt")
            try Data().write(to: errors)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
            defer {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }

            // Its backend is ended while a COPY of it is running.
            let copying = "FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE 'COPY%' AND pid <> pg_backend_pid()"
            var ended = false
            let deadline = Date().addingTimeInterval(60)
            while !ended, process.isRunning, Date() < deadline {
                ended = try PostgresREPLServer.psql("SELECT count(pg_terminate_backend(pid)) \(copying)", databaseURL: url)
                    .trimmingCharacters(in: .whitespacesAndNewlines) == "1"
            }
            try #require(ended, "no COPY was caught running: \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")

            let stop = Date().addingTimeInterval(20)
            while process.isRunning, Date() < stop { Thread.sleep(forTimeInterval: 0.05) }
            let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            try #require(!process.isRunning, "the import still waits 20 s after its connection ended: \(stderr)")
            #expect(process.terminationStatus == 1, "\(stderr)")
            #expect(stderr.contains("connection") && stderr.contains("nothing was imported"), "\(stderr)")
            let after = try runProcess(try docstoreBinary(), [url, "-c", ".collections"])
            #expect(!after.stdout.contains("big"), "nothing was imported: \(after.stdout)")
        }
    }
}
