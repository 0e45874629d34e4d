import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// A docstore process killed while its statement runs or waits on the
    /// server: the server noticed only when it had rows to send, so a long
    /// join ran on for minutes after SIGTERM or a closed terminal (helper-56),
    /// and a statement waiting on a lock waited on for as long as the lock was
    /// held. DocStore's connections ask the server to check for their client
    /// every second while a statement runs.
    @Suite("REPL on PostgreSQL: a killed client's statement")
    struct KilledClientTests {
        @Test(.timeLimit(.minutes(10)))
        func theServerEndsTheStatementOfAKilledProcess() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let binary = try docstoreBinary()
            let setUp = try runProcess(binary, [url, "-c", #"p.insert({"id": 1})"#])
            #expect(setUp.status == 0, "\(setUp.stderr)")

            // psql holds a lock on the collection's table in an open transaction.
            let (psql, oneShot) = try PostgresREPLServer.psqlCommand("", databaseURL: url)
            let holder = Process(), holderInput = Pipe(), holderOutput = Pipe()
            holder.executableURL = psql
            holder.arguments = Array(oneShot.dropLast(2))
            holder.standardInput = holderInput
            holder.standardOutput = holderOutput
            holder.standardError = FileHandle.nullDevice
            try holder.run()
            defer {
                if holder.isRunning { kill(holder.processIdentifier, SIGKILL) }
                holder.waitUntilExit()
            }
            try holderInput.fileHandleForWriting.write(contentsOf: Data("BEGIN; LOCK TABLE p IN ACCESS EXCLUSIVE MODE; SELECT 'locked';\n".utf8))
            var said = ""
            while !said.contains("locked") {
                let data = holderOutput.fileHandleForReading.availableData
                if data.isEmpty { break }
                said += String(decoding: data, as: UTF8.self)
            }
            #expect(said.contains("locked"), "\(said)")

            let waiting = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            func waiters() throws -> Int { Int(try PostgresREPLServer.psql(waiting, databaseURL: url).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
            func waitFor(_ count: Int, within seconds: Double) throws -> Bool {
                let deadline = Date().addingTimeInterval(seconds)
                while Date() < deadline {
                    if try waiters() == count { return true }
                    Thread.sleep(forTimeInterval: 0.1)
                }
                return false
            }
            // Waiting far longer than the test: only the server can end it.
            let reader = try PipedSession([url, "--busy-timeout", "600", "-c", "p.count()"])
            #expect(try waitFor(1, within: 20), "the count waits on the lock")
            reader.killNow()
            #expect(try waitFor(0, within: 5), "the killed process's statement still waits on the server")

            try holderInput.fileHandleForWriting.write(contentsOf: Data("COMMIT;\n".utf8))
            try holderInput.fileHandleForWriting.close()
        }
    }
}
