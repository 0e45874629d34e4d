import DocStore
import Foundation
import GRDB
import Testing
@testable import DocStoreREPL

/// A session ended by a termination signal (SIGTERM, SIGHUP from a closed
/// terminal) settles the files it was writing instead of leaving hidden
/// `.partial` files and its targets unwritten: `.output`'s file gets the
/// results of the commands that finished, whole, as `.output` alone would have
/// put them; a `.once` file whose command was still running is removed, its
/// target untouched. Real processes, real signals, a real lock held by another
/// connection to keep a command running.
@Suite("Fault: termination signals settle the files being written", .serialized)
struct TerminationOutputTests {
    /// A store with three teams, in a fresh folder, and its expected NDJSON.
    func makeStore() throws -> (path: String, directory: URL, teams: String) {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("s.sqlite").path
        let store = try DocumentStore(path: path)
        try store.collection(named: "teams").insert(contentsOf: (1...3).map { ["id": .integer(Int64($0)), "city": .string("City \($0)")] })
        try store.close()
        let teams = (1...3).map { #"{"id":\#($0),"city":"City \#($0)"}"# + "\n" }.joined()
        return (path, directory, teams)
    }

    /// Starts `docstore STORE --mode ndjson --busy-timeout 60` reading `lines`
    /// from a pipe kept open (so it waits for more), its stderr into a file.
    ///
    /// SIGPIPE's disposition is set to its default (through env): this test
    /// process ignores it once NIO has run, and the session would inherit that.
    func startSession(_ path: String, in directory: URL, lines: String) throws -> (Process, Pipe, URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal=PIPE", try docstoreBinary().path, path, "--mode", "ndjson", "--busy-timeout", "60"]
        let input = Pipe()
        let errors = directory.appendingPathComponent("stderr.txt")
        try Data().write(to: errors)
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(lines.utf8))
        return (process, input, errors)
    }

    /// Waits up to 20 s for `condition`.
    func waitUntil(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while !condition(), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        try #require(condition(), "timed out waiting for \(what)")
    }

    func partialFiles(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".partial") }
    }

    func contents(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "<missing>" }

    /// SIGPIPE too (a reader gone): it left the `.partial` file behind
    /// (helper-48); it ends quietly, as its default action does.
    @Test(.timeLimit(.minutes(10)), arguments: [SIGTERM, SIGHUP, SIGPIPE])
    func outputKeepsTheFinishedCommandsResults(signal: Int32) throws {
        let (path, directory, teams) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.ndjson")
        try Data("old\n".utf8).write(to: out)
        let (process, input, errors) = try startSession(path, in: directory, lines: """
            .output \(out.path)
            teams.sorted { $0.id }
            teams.insert({"id": 4})

            """)
        defer {
            endProcesses([process.processIdentifier], within: 0)
            try? input.fileHandleForWriting.close()
        }
        // The insert's message (on stderr) comes after the query finished.
        try waitUntil("the insert") { contents(errors).contains("inserted 1 document") }
        kill(process.processIdentifier, signal)
        try waitUntil("the session to end") { !process.isRunning }
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
                "ended by the signal: \(process.terminationReason) \(process.terminationStatus)")
        #expect(contents(out) == teams, "the finished query's results, in place")
        #expect(try partialFiles(in: directory).isEmpty)
        #expect(contents(errors).contains("docstore: interrupted by SIG") == (signal != SIGPIPE), "it says why it ended: \(contents(errors))")
    }

    /// The signal's settling cuts `.output`'s file back to the finished
    /// results and renames it into place while the session is still writing a
    /// long result into it: those writes, at their old offset, landed in the
    /// file in place, leaving millions of NUL bytes and half a result after
    /// the whole ones (10 times in 14). Writes now wait for the settling, and
    /// none starts after it.
    @Test(.timeLimit(.minutes(10)))
    func aSignalDuringALongResultLeavesOnlyTheFinishedResults() throws {
        let (path, directory, teams) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        try store.collection(named: "big").insert(contentsOf: (1...60_000).map {
            ["id": .integer(Int64($0)), "name": .string("player \($0) with a name long enough to make the rows wide")]
        })
        try store.close()
        for round in 1...4 {
            let out = directory.appendingPathComponent("out\(round).ndjson")
            let (process, input, _) = try startSession(path, in: directory, lines: """
                .output \(out.path)
                teams.sorted { $0.id }
                big.sorted { $0.name.descending }
                big.sorted { $0.name }

                """)
            defer {
                endProcesses([process.processIdentifier], within: 0)
                try? input.fileHandleForWriting.close()
            }
            // Signalled while the long results are being written.
            try waitUntil("the long result") {
                let partial = (try? partialFiles(in: directory))?.first.map { directory.appendingPathComponent($0).path }
                let size = partial.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int } ?? 0
                return size > 200_000 * round
            }
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            Thread.sleep(forTimeInterval: 0.2)
            let written = try Data(contentsOf: out)
            #expect(!written.contains(0), "round \(round): \(written.filter { $0 == 0 }.count) NUL bytes in the file in place")
            #expect(String(decoding: written, as: UTF8.self) == teams, "round \(round): only the finished query's results (\(written.count) bytes)")
            #expect(try partialFiles(in: directory).isEmpty)
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func aCommandStillRunningLeavesNoHalfResultAndNoPartialFile() throws {
        let (path, directory, teams) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.ndjson"), once = directory.appendingPathComponent("once.ndjson")
        try Data("old\n".utf8).write(to: once)
        // Another connection holds the write lock: the insert waits for it.
        let holder = try DatabaseQueue(path: path)
        defer { try? holder.close() }
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            defer { try? db.execute(sql: "ROLLBACK") }
            let (process, input, _) = try startSession(path, in: directory, lines: """
                .output \(out.path)
                teams.sorted { $0.id }
                .once \(once.path)
                teams.insert({"id": 4})

                """)
            defer {
                endProcesses([process.processIdentifier], within: 0)
                try? input.fileHandleForWriting.close()
            }
            // Two partial files: .output's, holding the query's results, and the
            // .once file of the insert, which waits for the lock.
            try waitUntil("both files") { ((try? partialFiles(in: directory)) ?? []).count == 2 }
            Thread.sleep(forTimeInterval: 0.3)
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
        }
        #expect(contents(out) == teams, ".output's file holds the finished query's results")
        #expect(contents(once) == "old\n", "the running command's .once file was left as it was")
        #expect(try partialFiles(in: directory).isEmpty)
        #expect(try DocumentStore(path: path, readOnly: true).collection(named: "teams").count() == 3, "the insert never ran")
    }

    /// A script ended by a signal after whoever read its stderr has gone (a
    /// closed pipe, as when `docstore … 2>&1 | head` has finished) still ends
    /// by that signal. Writing "interrupted by …" to the closed pipe ended it
    /// by SIGPIPE instead; and where SIGPIPE was ignored (inherited from the
    /// parent, as from this test runner once NIO has run), the write trapped
    /// (FileHandle's `write(_:)` on an error), 2 or 3 times a test run: the
    /// process died by SIGILL, with a crash report.
    @Test(.timeLimit(.minutes(10)), arguments: [false, true])
    func aSignalAfterStderrsReaderIsGoneEndsTheProcessByThatSignal(inheritingIgnoredSIGPIPE: Bool) throws {
        let (path, directory, _) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        // env sets SIGPIPE's disposition, which `exec` keeps, whatever this
        // test process's own is.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [inheritingIgnoredSIGPIPE ? "--ignore-signal=PIPE" : "--default-signal=PIPE",
                             try docstoreBinary().path, path, "--mode", "ndjson"]
        let input = Pipe(), errors = Pipe()
        let out = directory.appendingPathComponent("stdout.txt")
        try Data().write(to: out)
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = errors
        try process.run()
        defer {
            endProcesses([process.processIdentifier], within: 0)
            try? input.fileHandleForWriting.close()
        }
        try input.fileHandleForWriting.write(contentsOf: Data("teams.count()\n".utf8))
        try waitUntil("the count") { contents(out) == "3\n" }
        try errors.fileHandleForReading.close()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM,
                "ended by SIGTERM, not by SIGPIPE (13) or a trap (SIGILL, 4): \(process.terminationReason) \(process.terminationStatus)")
    }

    /// A signal's settling that starts while a file is being put in place
    /// waits for it. It used to find the file already forgotten and end the
    /// process before the rename: a terminal closed as the session ended left
    /// `.output`'s results in the hidden file, one time in five.
    @Test(.timeLimit(.minutes(10)))
    func settlingWaitsForAFileBeingPutInPlace() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let temporary = directory.appendingPathComponent(".out.txt.1.partial").path
        let target = directory.appendingPathComponent("out.txt").path
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
        try Data("results\n".utf8).write(to: URL(fileURLWithPath: temporary))
        let descriptor = open(temporary, O_WRONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        // A registry of its own: settling the process's would touch other tests' files.
        let registry = PendingFileRegistry()
        let token = registry.register(temporary: temporary, target: target, descriptor: descriptor)
        let inside = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            registry.finish(token) {
                inside.signal()
                Thread.sleep(forTimeInterval: 0.3)  // a slow fsync
                close(descriptor)
                rename(temporary, target)
            }
            finished.signal()
        }
        inside.wait()
        registry.settleAll()
        // Settled: the file is in place, not left hidden (nor removed as unfinished).
        #expect(contents(URL(fileURLWithPath: target)) == "results\n")
        #expect(try partialFiles(in: directory).isEmpty)
        finished.wait()
    }
}
