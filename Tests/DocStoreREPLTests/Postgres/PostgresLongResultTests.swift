import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// A long result at a terminal on PostgreSQL: cut for the screen as
    /// `.maxrows` says, and written whole to files. Only whole collections
    /// were streamed; other queries went through a display limit of 100, so
    /// `.export FILE QUERY`, `.once` and `.output` wrote the first 100
    /// documents or group rows without a word, and `.maxrows` was ignored
    /// (helper-56).
    @Suite("REPL on PostgreSQL: long results")
    struct LongResultTests {
        @Test(.timeLimit(.minutes(10)))
        func filesGetEveryRowAndTheScreenWhatMaxrowsSays() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let documents = (1...150).map { #"{"id": \#($0), "team": \#($0 % 120)}"# }.joined(separator: ", ")
            let setUp = try runProcess(try docstoreBinary(), [url, "-c", "p.insert([\(documents)])"])
            #expect(setUp.status == 0, "\(setUp.stderr)")

            let screen = try TmuxScreen(command: "env DOCSTORE_HISTORY= NO_COLOR=1 TERM=xterm-256color LANG=C.UTF-8 \(try docstoreBinary().path) '\(url)'")
            try screen.waitForPrompt("docstore postgres>")
            let exported = directory.appendingPathComponent("all.ndjson").path
            let groups = directory.appendingPathComponent("groups.csv").path
            let once = directory.appendingPathComponent("once.ndjson").path
            for line in [".export \(exported) p.filter { $0.id > 0 }",
                         ".export \(groups) p.group(by: \\.team) { (n: $0.count()) }",
                         ".mode ndjson", ".once \(once)", "p.filter { $0.id > 0 }.select(\\.id)", ".mode table",
                         ".maxrows 5", "p.filter { $0.id > 0 }.select(\\.id)"] {
                try screen.type(line)
                try screen.send("Enter")
                try screen.waitForPrompt("docstore postgres>")
            }
            try screen.waitFor("the select cut to the screen's rows") { $0.contains("150 rows, 5 shown; .maxrows N, or .once FILE for all") }
            try screen.type(".quit")
            try screen.send("Enter")
            screen.waitForExit()

            let text = try String(contentsOfFile: exported, encoding: .utf8)
            #expect(text.split(separator: "\n").count == 150)
            let groupLines = try String(contentsOfFile: groups, encoding: .utf8).split(whereSeparator: \.isNewline)   // CSV ends lines with CRLF
            #expect(groupLines.count == 121, "a header and 120 groups: \(groupLines.prefix(3)) … \(groupLines.count)")
            #expect(try String(contentsOfFile: once, encoding: .utf8).split(separator: "\n").count == 150)
        }
    }
}
