import DocStore
import Testing
@testable import DocStoreREPL

@Suite("Tables fit the terminal")
struct TableWidthTests {
    let documents: [JSONValue] = [
        ["id": 123456, "name": "Xander", "note": .string(String(repeating: "long text ", count: 4))],
        ["id": 2, "name": "日本語の名前", "note": "short"],
    ]

    func width(_ table: String) -> Int {
        table.split(separator: "\n").map { TerminalText.displayWidth(String($0)) }.max() ?? 0
    }

    @Test func textColumnsAreNarrowedWidestFirstAndNumbersKept() {
        let natural = TableRenderer(style: .plain).render(documents: documents)
        #expect(width(natural) == 68)
        let table = TableRenderer(style: .plain, maximumWidth: 40).render(documents: documents)
        #expect(table == """
            ┌────────┬──────────────┬──────────────┐
            │ id     │ name         │ note         │
            ├────────┼──────────────┼──────────────┤
            │ 123456 │ Xander       │ long text l… │
            │      2 │ 日本語の名前 │ short        │
            └────────┴──────────────┴──────────────┘
            """)
        #expect(table.split(separator: "\n").allSatisfy { TerminalText.displayWidth(String($0)) == 40 })
    }

    @Test func wideCharactersAreCutOnACellBoundary() {
        let table = TableRenderer(style: .plain, maximumWidth: 34).render(documents: documents)
        #expect(table.contains("│ 日本語の… │"), "\(table)")
        #expect(width(table) <= 34)
    }

    @Test func aTableThatCannotFitKeepsItsNaturalWidth() {
        let natural = TableRenderer(style: .plain).render(documents: documents)
        #expect(TableRenderer(style: .plain, maximumWidth: 20).render(documents: documents) == natural)
        #expect(TableRenderer(style: .plain, maximumWidth: 200).render(documents: documents) == natural)
    }

    @Test func theSessionFollowsTheTerminalAndSaysWhenATableIsTooWide() throws {
        let harness = try SessionHarness()
        harness.output.terminalWidth = 120
        #expect(harness.feed("players") == .done)
        let lines = harness.output.text.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("│") || $0.hasPrefix("┌") }.allSatisfy { TerminalText.displayWidth(String($0)) <= 120 })
        #expect(!harness.output.text.contains("wider than the terminal"))
        harness.output.terminalWidth = 60
        #expect(harness.feed("players") == .done)
        #expect(harness.output.text.contains("(wider than the terminal: .mode line shows one field per line)"))
    }
}
