import DocStore
import Foundation
import Synchronization
import Testing
@testable import DocStoreREPL

@Suite(".watch: parsing, help and completion")
struct WatchCommandTests {
    @Test func readsAreWatched() throws {
        #expect(try parse(".watch players.count()") == .watch(playersQuery(.count)))
        #expect(try parse(".watch players.filter { $0.teamId == 1 }")
            == .watch(playersQuery(.compare(FieldPath("teamId"), .equal, 1))))
        guard case .watch(.get(collection: "players", _)) = try parse(".watch players.get(34)") else {
            Issue.record("get is not watched")
            return
        }
    }

    @Test func writesAndNonQueriesAreRefusedClearly() throws {
        for write in [".watch players.delete(34)", ".watch players.filter { $0.teamId == 1 }.update { $0.number = 1 }",
                      #".watch players.insert({"id": 1})"#, ".watch players.deleteAll()"] {
            let error = try #require(parseError(write), "\(write) was accepted")
            #expect(error.message.contains(".watch only watches reads: this command writes"), "\(error.message)")
        }
        #expect(parseError(".watch")?.message.contains(".watch needs a query, such as .watch players") == true)
        #expect(parseError(".watch .collections")?.message.contains(".watch takes a query") == true)
        #expect(parseError(".watch .explain players")?.message.contains("can't watch .explain") == true)
        #expect(parseError(#".watch players.group(by: \.teamId) { (n: $0.count()) }"#)?.message
            .contains(".watch doesn't watch groups, joins or computed values yet") == true)
        // A mistake in the query is located in the line as typed.
        #expect(parseError(".watch players.filter { $0.id == }")?.location.column == 34)
    }

    @Test func helpAndCompletionKnowIt() {
        #expect(HelpText.text(topic: nil).contains(".watch QUERY"))
        #expect(HelpText.text(topic: "watch").contains("ctrl-C stops"))
        #expect(Completer.complete(".wat", schema: sampleSchema).candidates == [".watch"])
        #expect(Completer.complete(".watch pla", schema: sampleSchema).candidates == ["players"])
    }

    /// In process: a commit made on another thread is printed, ctrl-C (the flag
    /// SIGINT sets) stops the watch, and the session goes on.
    @Test(.timeLimit(.minutes(10)))
    func aSessionPrintsEachChangeUntilCtrlC() throws {
        let harness = try SessionHarness()
        let store = harness.store, interruption = harness.session.interruption
        let count = try store.collection(named: "players").count(DocumentQuery(.compare(FieldPath("teamId"), .equal, 1)))
        // On a thread of its own, not Dispatch's: this test blocks one of the few
        // threads Dispatch and Swift concurrency share while it watches.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.3)
            _ = try? store.collection(named: "players").insert(["id": 99, "teamId": 1])
            _ = try? store.collection(named: "teams").insert(["id": 99])  // not watched: nothing printed
            Thread.sleep(forTimeInterval: 0.4)
            interruption.request()
        }
        #expect(harness.feed(".watch players.count { $0.teamId == 1 }") == .done)
        let text = harness.output.text
        #expect(text.hasPrefix("watching: printed again after each change"))
        #expect(text.contains("\n\(count)\n"))
        #expect(text.contains("\n\(count + 1)\n"))
        #expect(text.components(separatedBy: "── ").count - 1 == 2, "\(text)")
        #expect(text.hasSuffix("stopped watching\n"))
        #expect(harness.errors.text.isEmpty)
        #expect(harness.store.otherProcessPollingInterval == nil)  // polling was for the watch only
        // The observation ended with the watch: a commit now runs no query.
        store.waitForObservers()
        let fetches = store.liveQueryFetches
        try store.collection(named: "players").insert(["id": 100, "teamId": 1])
        store.waitForObservers()
        #expect(store.liveQueryFetches == fetches)
        #expect(harness.feed("teams.count { $0.id == 99 }") == .done)
        #expect(harness.output.text.hasSuffix("stopped watching\n1\n") || harness.output.text.contains("stopped watching\n1\n("))
    }
}

@Suite(".watch in a real terminal and in scripts", .serialized)
struct WatchProcessTests {
    /// A store file with three players, two of them on team 1.
    func makeStore() throws -> (path: String, directory: URL, store: DocumentStore) {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("watched.sqlite").path
        let store = try DocumentStore(path: path)
        try store.collection(named: "players").insert(contentsOf: [["id": 1, "teamId": 1], ["id": 2, "teamId": 1], ["id": 3, "teamId": 2]])
        return (path, directory, store)
    }

    func headers(_ text: String) -> Int { text.components(separatedBy: "── ").count - 1 }

    @Test(.timeLimit(.minutes(10)))
    func ctrlCStopsAWatchThatSeesOtherProcessesCommits() throws {
        let (path, directory, store) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = try docstoreBinary()
        let screen = try TmuxScreen(command: "env DOCSTORE_HISTORY= NO_COLOR=1 TERM=xterm-256color LANG=C.UTF-8 \(binary.path) \(path)")
        try screen.waitFor("the prompt") { $0.contains("docstore>") }
        try screen.type(".watch players.count { $0.teamId == 1 }")
        try screen.send("Enter")
        try screen.waitFor("the first result") { $0.contains("ctrl-C stops") && self.headers($0) == 1 && $0.contains("\n2\n") }

        // Another docstore process commits: the watch prints the new count.
        let other = try runProcess(binary, [path, "-c", #"players.insert({"id": 4, "teamId": 1})"#])
        #expect(other.status == 0, "\(other.stderr)")
        try screen.waitFor("the re-print after another process's commit") { self.headers($0) == 2 && $0.contains("\n3\n") }
        // This test process commits through DocStore on the same file.
        try store.collection(named: "players").insert(["id": 5, "teamId": 1])
        try screen.waitFor("the re-print after the test's commit") { self.headers($0) == 3 && $0.contains("\n4\n") }
        // A commit that leaves the count as it was prints nothing.
        try store.collection(named: "players").insert(["id": 6, "teamId": 2])
        Thread.sleep(forTimeInterval: 1)
        #expect(headers(try screen.screen()) == 3)

        try screen.send("C-c")
        try screen.waitFor("the watch stopped") { $0.contains("stopped watching") }
        try screen.waitFor("a fresh prompt") { _ in (try? screen.promptLine()) == "docstore>" }
        try screen.type("players.count()")
        try screen.send("Enter")
        try screen.waitFor("the next command's result") { $0.contains("docstore> players.count()\n6\n") }
    }

    /// Another process drops the watched collection: the watch said 0 and
    /// went on watching, where the prompt says "no collection named"; it now
    /// stops with an error, as psql's `\watch` does (helper-55).
    @Test(.timeLimit(.minutes(10)))
    func aWatchStopsWhenAnotherProcessDropsTheCollection() throws {
        let (path, directory, _) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        try expectAWatchStopsWhenAnotherProcessDrops("players", in: path, watching: "players.count()", firstResult: "3\n")
    }

    /// A watch shows as many rows as `.maxrows` lets a result at the prompt
    /// show: it showed up to 100 whatever `.maxrows` said, so that each
    /// refresh's header scrolled off the screen (helper-55).
    @Test(.timeLimit(.minutes(10)))
    func aWatchShowsTheRowsMaxrowsAllows() throws {
        let (path, directory, _) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = try docstoreBinary()
        let screen = try TmuxScreen(command: "env DOCSTORE_HISTORY= NO_COLOR=1 TERM=xterm-256color LANG=C.UTF-8 \(binary.path) \(path)")
        try screen.waitFor("the prompt") { $0.contains("docstore>") }
        try screen.type(".maxrows 2")
        try screen.send("Enter")
        try screen.type(".watch players")
        try screen.send("Enter")
        try screen.waitFor("the first two of three players") { $0.contains("· the first 2 documents; more match") }
        let shown = try screen.screen()
        #expect(!shown.contains("│ 3 "), "\(shown)")
        try screen.send("C-c")
        try screen.waitFor("the watch stopped") { $0.contains("stopped watching") }
    }

    /// `.watch` printed on the screen whatever `.output` or `.once` said, and a
    /// pending `.once` then took the next command's result; `-c '.watch …'
    /// -c other` never ran the other. Both are refused now, and the `.once`
    /// is used up by the refused command, as by any failing one (helper-55).
    @Test(.timeLimit(.minutes(10)))
    func aWatchIsRefusedWhereItsResultsCouldNotGoOrLaterCommandsWouldNotRun() throws {
        let (path, directory, _) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let once = directory.appendingPathComponent("once.txt").path
        let onceResult = try runProcess(try docstoreBinary(), [path, "--keep-going", "--mode", "ndjson",
                                                               "-c", ".once \(once)", "-c", ".watch players.count()", "-c", "players.count()"])
        #expect(onceResult.status == 1)
        #expect(onceResult.stderr.contains("error in -c 2 at line 1: .watch prints its results on the screen, and .once sends results to \(once); nothing was watched"), "\(onceResult.stderr)")
        #expect(onceResult.stdout == "3\n", "the next command prints where it would have: \(onceResult.stdout)")
        #expect(!FileManager.default.fileExists(atPath: once))

        let output = directory.appendingPathComponent("output.txt").path
        let outputResult = try runProcess(try docstoreBinary(), [path], input: ".output \(output)\n.watch players.count()\n")
        #expect(outputResult.status == 1)
        #expect(outputResult.stderr.contains("and .output sends results to \(output); nothing was watched (end .output first"), "\(outputResult.stderr)")

        let following = try runProcess(try docstoreBinary(), [path, "-c", ".watch players.count()", "-c", "players.count()"])
        #expect(following.status == 1)
        #expect(following.stderr.contains("error in -c 1 at line 1: .watch runs until ctrl-C, so the -c commands after it would never run; make it the last -c"), "\(following.stderr)")
        #expect(following.stdout.isEmpty)
    }

    /// A watched `get` that finds nothing says so on stderr: on stdout, the
    /// message broke a reader of the NDJSON results (helper-55).
    @Test(.timeLimit(.minutes(10)))
    func aWatchedGetThatFindsNothingSaysSoOnStderr() throws {
        let (path, directory, store) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let watching = try PipedSession([path, "--mode", "ndjson", "-c", ".watch players.get(1)"])
        let document = #"{"id":1,"teamId":1}"# + "\n"
        #expect(watching.availableOutput() == document)
        _ = try store.collection(named: "players").delete(1)
        Thread.sleep(forTimeInterval: 1)   // the watch looks every 200 ms
        try store.collection(named: "players").insert(["id": 1, "teamId": 1])
        // The message went to stdout, where this read it instead of the document.
        #expect(watching.availableOutput() == document)
        _ = try store.dropCollection(named: "players")
        let ended = try #require(watching.ended(within: 20))
        #expect(ended.stdout.isEmpty, "\(ended.stdout)")
        #expect(ended.stderr.contains("no document with key 1 in players"), "\(ended.stderr)")
    }

    @Test(.timeLimit(.minutes(10)))
    func aPipedScriptRefusesWatchBeforeRunningPastIt() throws {
        let (path, directory, _) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try runProcess(try docstoreBinary(), [path], input: ".watch players.count()\nplayers.count()\n")
        #expect(result.status == 1)
        #expect(result.stderr.contains("error at line 1: .watch runs until ctrl-C, so the rest of a script would never run"))
        #expect(result.stdout.isEmpty)
    }

    /// `-c '.watch QUERY'` streams results to stdout (headers to stderr) until
    /// the process is ended, as `tail -f` does.
    @Test(.timeLimit(.minutes(10)))
    func aSingleCommandWatchStreamsUntilInterrupted() throws {
        let (path, directory, store) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = try docstoreBinary()
        process.arguments = [path, "--mode", "ndjson", "-c", ".watch players.filter { $0.teamId == 1 }.keys()"]
        let stdout = Pipe(), stderr = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        let printed = Mutex(("", ""))
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            printed.withLock { $0.0 += String(decoding: data, as: UTF8.self) }
        }
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            printed.withLock { $0.1 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        let pid = process.processIdentifier
        defer {
            endProcesses([pid], within: 0)
            stdout.fileHandleForReading.readabilityHandler = nil
            stderr.fileHandleForReading.readabilityHandler = nil
        }
        func waitFor(_ what: String, _ condition: (String, String) -> Bool) {
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline {
                if printed.withLock({ condition($0.0, $0.1) }) { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
            Issue.record("timed out waiting for \(what); printed: \(printed.withLock { $0 })")
        }
        waitFor("the first result") { out, _ in out == "[1,2]\n" }
        try store.collection(named: "players").insert(["id": 7, "teamId": 1])
        waitFor("the second result") { out, err in out == "[1,2]\n[1,2,7]\n" && self.headers(err) == 2 }
        #expect(printed.withLock { $0.1 }.hasPrefix("watching: "))
        kill(pid, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
    }
}
