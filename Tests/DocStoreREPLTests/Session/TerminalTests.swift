import Foundation
import Testing
@testable import DocStoreREPL

/// A real pseudo-terminal: `docstore` runs in a detached tmux session, keys are
/// sent with `send-keys` and the screen read with `capture-pane`.
final class TmuxScreen {
    let socket = "docstore-test-\(UUID().uuidString.prefix(8))"
    let session = "repl"

    init(command: String) throws {
        // The tmux server this starts outlives the client and keeps whatever file
        // descriptors it inherits, while Foundation's Process (and other tests
        // reading pipes) wait for theirs to close. So bash closes every
        // descriptor above stderr in the child before it becomes the tmux client.
        let script = #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; if [ "$fd" -gt 2 ]; then eval "exec $fd>&-"; fi; done; exec "$@""#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, "bash", "tmux", "-L", socket, "new-session", "-d", "-s", session, "-x", "120", "-y", "40", command]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // The test runner's threads block SIGTERM and SIGHUP, and the tmux
        // server would inherit that: then `kill-server` (which is tmux
        // signalling itself SIGTERM) does nothing and the server lives on.
        try withSignalMask(unblocking: [SIGHUP, SIGTERM, SIGINT]) { try process.run() }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandError("tmux new-session failed (is tmux installed? .ci/install-deps installs it)")
        }
        // Known now, so that deinit can end them even if tmux won't.
        let pids = (try? tmux(["display-message", "-p", "-t", session, "#{pid} #{pane_pid}"])) ?? ""
        processes = pids.split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
    }

    /// The tmux server and the program in its pane.
    private(set) var processes: [Int32] = []

    /// Ends the server and the program in it, also when the test failed or
    /// threw: `kill-server` hangs up the pane, and whatever survives that (a
    /// program that blocks SIGHUP) is killed.
    deinit {
        _ = try? tmux(["kill-server"])
        endProcesses(processes, within: 3)
        try? FileManager.default.removeItem(atPath: "/tmp/tmux-\(getuid())/\(socket)")
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["tmux", "-L", socket] + arguments)
        guard result.status == 0 else { throw CommandError("tmux \(arguments.first ?? ""): \(result.stderr)") }
        return result.stdout
    }

    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", session] + keys)
    }

    /// Types text literally (no key-name interpretation).
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", session, "-l", text])
    }

    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", session])
    }

    /// Waits until the screen satisfies `condition`; returns the screen.
    @discardableResult
    func waitFor(_ what: String, timeout: TimeInterval = 30, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("timed out waiting for \(what); the screen shows:\n\(last)")
        return last
    }

    /// Waits until the program in the pane (and so tmux) has ended, as after
    /// `.quit`: what it writes on the way out (history) is then complete.
    func waitForExit(timeout: TimeInterval = 30) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, !processes.allSatisfy(processHasEnded) { Thread.sleep(forTimeInterval: 0.05) }
        if !processes.allSatisfy(processHasEnded) { Issue.record("the REPL did not end") }
    }

    /// Waits for an empty prompt: libedit has put the terminal in raw mode.
    /// Keys sent earlier meet the terminal's cooked mode, which acts on
    /// control keys itself (ctrl-R reprints the line, ctrl-C is SIGINT) —
    /// what made this suite flaky under load.
    func waitForPrompt(_ prompt: String = "docstore>") throws {
        try waitFor("the prompt") { _ in (try? self.promptLine()) == prompt }
    }

    /// The screen's last non-blank line (where the cursor's prompt is).
    func promptLine() throws -> String {
        try screen().split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? ""
    }
}

@Suite("A real terminal (tmux)", .serialized)
struct TerminalTests {
    func occurrences(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    // Generous limits: under a loaded machine each step (a tmux process per
    // key and per screen read) can take a second; every step waits for what
    // the screen shows, never for a fixed time.
    @Test(.timeLimit(.minutes(10)))
    func historyCompletionAndReverseSearch() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let history = directory.appendingPathComponent("history").path
        let command = "env DOCSTORE_HISTORY=\(history) TERM=xterm-256color LANG=C.UTF-8 \(try docstoreBinary().path)"
        do {
            let screen = try TmuxScreen(command: command)
            try screen.waitFor("the banner and prompt") { $0.contains("in-memory store of sample data") && $0.contains("docstore>") }

            // A query, typed and run.
            try screen.type("teams.get(1)")
            try screen.send("Enter")
            try screen.waitFor("the result") { $0.contains("Red Sox") && $0.contains("1 document (") }
            try screen.waitForPrompt()

            // TAB completes a collection name.
            try screen.type("pla")
            try screen.send("Tab")
            try screen.waitFor("the completed name") { $0.contains("docstore> players") }
            try screen.type(".get(2)")
            try screen.send("Enter")
            try screen.waitFor("Bogaerts") { $0.contains("Bogaerts") }
            try screen.waitForPrompt()

            // The up arrow recalls the previous command; twice, the one before.
            try screen.send("Up")
            try screen.waitFor("the recalled command") { _ in (try? screen.promptLine()) == "docstore> players.get(2)" }
            try screen.send("Up")
            try screen.waitFor("the command before") { _ in (try? screen.promptLine()) == "docstore> teams.get(1)" }
            try screen.send("Enter")
            try screen.waitFor("the query run again") { self.occurrences("Red Sox", in: $0) == 2 }
            try screen.waitForPrompt()

            // A multi-line block: the continuation prompt.
            try screen.type("teams.filter {")
            try screen.send("Enter")
            try screen.waitFor("the continuation prompt") { $0.contains("     ...>") }
            try screen.type("$0.id == }")
            try screen.send("Enter")
            try screen.waitFor("a located error") { $0.contains("error at line 2, column 10") }
            try screen.waitForPrompt()

            // ctrl-C drops the line being typed, and the session goes on.
            try screen.type("teams.filter {")
            try screen.send("Enter")
            try screen.waitFor("another open block") { self.occurrences("...>", in: $0) == 2 }
            try screen.send("C-c")
            try screen.waitFor("a fresh prompt") { _ in (try? screen.promptLine()) == "docstore>" }
            try screen.type("teams.count()")
            try screen.send("Enter")
            try screen.waitFor("the count") { $0.contains("teams.count()\n4\n") }
            try screen.waitForPrompt()

            // ctrl-R searches history backwards.
            try screen.send("C-r")
            try screen.type("get(2")
            try screen.waitFor("the search result") { $0.contains("docstore> players.get(2)\nbck:get(2") }
            try screen.send("Enter")
            try screen.waitFor("the found command run again") { self.occurrences("Bogaerts", in: $0) >= 2 }
            try screen.waitForPrompt()

            try screen.type(".quit")
            try screen.send("Enter")
            screen.waitForExit()
        }

        // History was saved, and a new session recalls it.
        let saved = try String(contentsOfFile: history, encoding: .utf8)
        #expect(saved.contains("teams.get(1)"))
        #expect(saved.contains("players.get(2)"))
        let second = try TmuxScreen(command: command)
        try second.waitForPrompt()
        try second.send("Up")
        try second.waitFor("history from the last run") { _ in (try? second.promptLine()) == "docstore> .quit" }
        try second.send("Up")
        try second.waitFor("older history") { _ in (try? second.promptLine())?.hasPrefix("docstore> ") == true && (try? second.promptLine()) != "docstore> .quit" }
    }

    /// DOCSTORE_HISTORY naming the store: saving history replaced the store
    /// with a 33-byte history file. A file that isn't history is left alone.
    @Test(.timeLimit(.minutes(10)))
    func historyIsNeverSavedOverAFileThatIsNotHistory() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("h.sqlite").path
        try runProcess(try docstoreBinary(), [store, "-c", #"teams.insert({"id": 1, "city": "Boston"})"#]).expectOK()
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let command = "env DOCSTORE_HISTORY=\(store) TERM=xterm-256color LANG=C.UTF-8 \(try docstoreBinary().path) \(store)"
        do {
            let screen = try TmuxScreen(command: command)
            try screen.waitFor("the warning") { $0.contains("warning: history is not saved: \(store) holds something else") }
            try screen.waitForPrompt()
            try screen.type("teams.count()")
            try screen.send("Enter")
            try screen.waitFor("the count") { $0.contains("teams.count()\n1\n") }
            try screen.waitForPrompt()
            try screen.type(".quit")
            try screen.send("Enter")
            screen.waitForExit()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)).prefix(16) == before.prefix(16), "still a SQLite database")
        let count = try runProcess(try docstoreBinary(), [store, "--mode", "ndjson", "-c", "teams.count()"])
        #expect(count.stdout == "1\n", "\(count.stderr)")
        #expect(EditLineReader.notAHistoryFile(directory.appendingPathComponent("missing").path) == nil)
        #expect(EditLineReader.notAHistoryFile(directory.path) == "is not a regular file")
    }

    @Test(.timeLimit(.minutes(10)))
    func ctrlCStopsACommandAndKeepsTheSession() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let big = directory.appendingPathComponent("big.ndjson").path
        try (1...300_000).map { #"{"n": \#($0), "text": "a line long enough to take a while"}"# }.joined(separator: "\n")
            .write(toFile: big, atomically: true, encoding: .utf8)
        let command = "env DOCSTORE_HISTORY= TERM=xterm-256color LANG=C.UTF-8 \(try docstoreBinary().path)"
        let screen = try TmuxScreen(command: command)
        try screen.waitForPrompt()
        try screen.type(#"big.insert({"n": 0})"#)
        try screen.send("Enter")
        try screen.waitFor("the document inserted") { $0.contains("inserted 1 document") }
        try screen.waitForPrompt()
        try screen.type(".import big \(big)")
        try screen.send("Enter")
        try screen.waitFor("the progress bar") { $0.contains("% ") && $0.contains("documents") }
        try screen.send("C-c")
        try screen.waitFor("the import stopped") { $0.contains("interrupted: nothing was imported, big is unchanged") }
        try screen.waitFor("a fresh prompt") { _ in (try? screen.promptLine()) == "docstore>" }
        // The session (and its in-memory store) lives on.
        try screen.type("teams.count()")
        try screen.send("Enter")
        try screen.waitFor("the count") { $0.contains("teams.count()\n4\n") }
        try screen.waitForPrompt()
        // The import was rolled back whole: big holds what it held before.
        try screen.type("big.count()")
        try screen.send("Enter")
        try screen.waitFor("big unchanged") { $0.contains("big.count()\n1\n") }
    }
}
