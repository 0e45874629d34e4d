import Foundation
import Testing

/// A result longer than the screen, in a real pseudo-terminal: its first and
/// last rows and the count; `.maxrows` and `.once FILE` for the rest.
@Suite("Long results in a terminal (tmux)", .serialized)
struct LongResultTerminalTests {
    @Test(.timeLimit(.minutes(10)))
    func firstAndLastRowsAndTheCount() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.db").path
        let documents = (1...500).map { #"{"id": \#($0), "square": \#($0 * $0)}"# }.joined(separator: ", ")
        let loaded = try runProcess(try docstoreBinary(), [store], input: "n.insert([\(documents)])\n")
        try #require(loaded.status == 0, "\(loaded.stderr)")

        let screen = try TmuxScreen(command: "env DOCSTORE_HISTORY= TERM=xterm-256color LANG=C.UTF-8 NO_COLOR=1 \(try docstoreBinary().path) \(store)")
        try screen.waitFor("the prompt") { $0.contains("docstore>") }
        try screen.type("n")
        try screen.send("Enter")
        // 40 lines: 32 rows fit with the borders, the ⋮ row, the count and the prompt.
        let shown = try screen.waitFor("the count") { $0.contains("500 documents, 32 shown; .maxrows N, or .once FILE for all") }
        let rows = shown.split(separator: "\n").filter { $0.hasPrefix("│") }
            .map { $0.split(separator: "│").map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(rows.first == ["id", "square"], "\(shown)")
        #expect(rows.dropFirst().first == ["1", "1"], "\(shown)")
        #expect(rows.contains(["⋮", "⋮"]), "\(shown)")
        #expect(rows.last == ["500", "250000"], "\(shown)")
        #expect(rows.count == 1 + 32 + 1, "\(shown)")

        try screen.type(".maxrows 6")
        try screen.send("Enter")
        try screen.type("n.filter { $0.id > 100 }")
        try screen.send("Enter")
        try screen.waitFor("six rows") { $0.contains("400 documents, 6 shown;") && $0.contains("│ 101 │") && $0.contains("│ 498 │") }

        // .once writes every row, the screen shows none of them.
        let file = directory.appendingPathComponent("all.txt").path
        try screen.send("C-l")
        try screen.type(".once \(file)")
        try screen.send("Enter")
        try screen.type("n")
        try screen.send("Enter")
        try screen.waitFor("the count of all") { $0.contains("500 documents (") }
        let written = try String(contentsOfFile: file, encoding: .utf8)
        let writtenRows = written.split(separator: "\n").filter { $0.hasPrefix("│") }
        #expect(writtenRows.count == 501)
        #expect(!written.contains("⋮"))
        #expect(!(try screen.screen()).contains("│ 250 │"))
    }
}
