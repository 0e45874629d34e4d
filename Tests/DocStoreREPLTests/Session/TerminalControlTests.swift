import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// Issue 12's control keys, history and completion in a real terminal (tmux).
@Suite("Control keys, history and completion in a real terminal", .serialized)
struct TerminalControlTests {
    func launch(_ arguments: String = "", history: String? = nil) throws -> TmuxScreen {
        let command = "env DOCSTORE_HISTORY=\(history ?? "") TERM=xterm-256color LANG=C.UTF-8 \(try docstoreBinary().path) \(arguments)"
        let screen = try TmuxScreen(command: command)
        try screen.waitForPrompt()
        return screen
    }

    func occurrences(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// Presses ctrl-C until the screen shows `interrupted` one more time. The
    /// terminal sends ctrl-C as SIGINT only once the line editor has handed
    /// the line over; until then it is a key. Returns whether it did.
    func interrupt(_ screen: TmuxScreen, until message: String) throws -> Bool {
        let before = occurrences(message, in: try screen.screen())
        for _ in 0..<10 {
            Thread.sleep(forTimeInterval: 0.3)
            try screen.send("C-c")
            let deadline = Date().addingTimeInterval(3)
            while Date() < deadline {
                if occurrences(message, in: try screen.screen()) > before { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        return false
    }

    /// A query that returns no row for minutes (a count over a 20 000 × 20 000
    /// join) is interrupted by ctrl-C: "interrupted", a prompt, the store as it
    /// was. In a `.read` script, ctrl-C also ends the script.
    @Test(.timeLimit(.minutes(10))) func ctrlCInterruptsALongQuery() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("big.sqlite").path
        do {
            let store = try DocumentStore(path: path)
            try store.collection(named: "big").insert(contentsOf: (1...20_000).map { ["id": .integer(Int64($0)), "k": 1] as JSONValue })
        }
        let query = #"big.joinAll(big, on: \.k, equals: \.k, as: \.o).count()"#
        let script = directory.appendingPathComponent("slow.docstore").path
        try "\(query)\nbig.get(7)\n".write(toFile: script, atomically: true, encoding: .utf8)
        let screen = try launch(path)
        try screen.type(query)
        try screen.send("Enter")
        try screen.waitFor("the query running") { _ in (try? screen.promptLine()) == "docstore> " + query }
        let interrupted = try interrupt(screen, until: "^Cinterrupted\n")
        let shown = try screen.screen()
        #expect(interrupted, "the query was not interrupted; the screen shows:\n\(shown)")
        try screen.waitForPrompt()
        try screen.type("big.count()")
        try screen.send("Enter")
        try screen.waitFor("the store as it was") { $0.contains("big.count()\n20000\n") }
        try screen.waitForPrompt()

        try screen.type(".read \(script)")
        try screen.send("Enter")
        try screen.waitFor("the script running") { _ in (try? screen.promptLine()) == "docstore> .read \(script)" }
        #expect(try interrupt(screen, until: "^Cinterrupted\n"))
        try screen.waitForPrompt()
        #expect(!(try screen.screen()).contains("1 document"))  // big.get(7) never ran
    }

    /// ctrl-C clears a partly typed line; ctrl-Space inserts nothing (it used
    /// to make the next key literal); ctrl-D at an empty prompt quits.
    @Test(.timeLimit(.minutes(10))) func ctrlCClearsTheLineCtrlSpaceIsHarmlessAndCtrlDQuits() throws {
        let screen = try launch()
        try screen.type("players.cou")
        try screen.send("C-c")
        try screen.waitFor("a cleared line") { _ in (try? screen.promptLine()) == "docstore>" }
        try screen.type("teams.count()")
        try screen.send("C-Space")
        try screen.send("Enter")
        try screen.waitFor("the count, the line unharmed") { $0.contains("docstore> teams.count()\n4\n") }
        #expect(!(try screen.screen()).contains("players.cou\n"))  // dropped, never run
        try screen.waitForPrompt()
        try screen.send("C-d")
        #expect(screen.processes.count == 2)
        screen.waitForExit()
    }

    /// A block typed over several lines is one history entry: the up arrow
    /// recalls it whole, now and in the next session.
    @Test(.timeLimit(.minutes(10))) func aMultiLineEntryIsOneHistoryEntry() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let history = directory.appendingPathComponent("history").path
        do {
            let screen = try launch(history: history)
            for (line, next) in [("teams.filter {", "     ...>"), ("$0.id == 2", "     ...>"), ("}", nil)] {
                try screen.type(line)
                try screen.send("Enter")
                if let next { try screen.waitForPrompt(next) }
            }
            try screen.waitFor("the result") { $0.contains("Orioles") && $0.contains("1 document (") }
            try screen.waitForPrompt()
            try screen.send("Up")
            try screen.waitFor("the block recalled whole") { $0.hasSuffix("docstore> teams.filter {\n$0.id == 2\n}\n") || $0.contains("docstore> teams.filter {\n$0.id == 2\n}\n\n") }
            try screen.send("Enter")
            try screen.waitFor("the block run again") { self.occurrences("Orioles", in: $0) == 2 }
            try screen.waitForPrompt()
            try screen.type(".quit")
            try screen.send("Enter")
            screen.waitForExit()
        }
        let next = try launch(history: history)
        try next.send("Up")
        try next.waitFor("the last entry") { _ in (try? next.promptLine()) == "docstore> .quit" }
        try next.send("Up")
        try next.waitFor("the block, from the last session") { $0.contains("docstore> teams.filter {\n$0.id == 2\n}") }
    }

    @Test(.timeLimit(.minutes(10))) func tabCompletesFileNames() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "teams.get(3)\n".write(to: directory.appendingPathComponent("script.docstore"), atomically: true, encoding: .utf8)
        let screen = try launch()
        try screen.type(".read \(directory.path)/scr")
        try screen.send("Tab")
        try screen.waitFor("the completed file name") { _ in (try? screen.promptLine()) == "docstore> .read \(directory.path)/script.docstore" }
        try screen.send("Enter")
        try screen.waitFor("the script's result") { $0.contains("Tampa Bay") }
    }

    /// The screen (40 lines) cuts an unbounded result to its first and last
    /// rows, but a query that asked for 50 rows gets all 50, in any mode.
    @Test(.timeLimit(.minutes(10))) func anExplicitLimitIsNotCutByTheScreen() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("rows.sqlite").path
        do {
            let store = try DocumentStore(path: path)
            try store.collection(named: "rows").insert(contentsOf: (1...100).map { ["id": .integer(Int64($0)), "n": .integer(Int64($0))] as JSONValue })
        }
        let screen = try launch(path + " --mode ndjson")
        try screen.type("rows")
        try screen.send("Enter")
        let cut = try screen.waitFor("the cut result") { $0.contains("100 documents, 32 shown; .maxrows N, or .once FILE for all") }
        #expect(cut.contains(#"{"id":100,"n":100}"#) && cut.contains("\n⋮\n"), "\(cut)")
        try screen.waitForPrompt()
        // 50 rows scroll the cut result off the 40-line screen.
        try screen.type("rows.sorted { $0.n.descending }.limit(50)")
        try screen.send("Enter")
        let whole = try screen.waitFor("the 50 rows") { $0.contains("\n50 documents (") }
        // The last of the 50 rows comes right before the count: nothing was left out.
        #expect(whole.contains(#"{"id":51,"n":51}"# + "\n50 documents ("), "\(whole)")
        #expect(!whole.contains("shown") && !whole.contains("⋮"), "\(whole)")
    }
}
