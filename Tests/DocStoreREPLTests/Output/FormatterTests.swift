import DocStore
import GRDB
import Testing
@testable import DocStoreREPL

/// The text formats, cell by cell: what needs quoting or escaping, and what doesn't.
@Suite("Output modes: csv, tsv, markdown, streamed tables")
struct FormatterTests {
    private func printed(_ mode: OutputMode, headers: Bool = true, _ result: CommandResult) -> String? {
        ResultPrinter(mode: mode, style: .plain, headers: headers).format(result)
    }

    @Test func csvQuotesOnlyWhatRFC4180Requires() {
        let rows: CommandResult = .rows(columns: ["a", "b,c"], [
            [.string("plain"), .string("say \"hi\"")],
            [.string("two\nlines"), .string("x,y")],
            [nil, .null],
            [.integer(-4), .array([1, ["k": "v"]])],
            [.double(0.5), .bool(true)],
        ])
        let expected = [
            #"a,"b,c""#,
            #"plain,"say ""hi""""#,
            "\"two\nlines\",\"x,y\"",
            ",",
            #"-4,"[1,{""k"":""v""}]""#,
            "0.5,true",
        ]
        #expect(printed(.csv, rows) == expected.joined(separator: "\r\n"))
        #expect(printed(.csv, headers: false, .rows(columns: ["a"], [[.string("x")]])) == "x")
    }

    @Test func tsvEscapesTabsLineBreaksAndBackslashes() {
        let rows: CommandResult = .rows(columns: ["a", "b"], [[.string("t\tab"), .string("n\nl\\r\r")], [.string("\"q\", c"), nil]])
        #expect(printed(.tsv, rows) == "a\tb\nt\\tab\tn\\nl\\\\r\\r\n\"q\", c\t")
    }

    @Test func markdownKeepsEveryRowOnOneLine() {
        let rows: CommandResult = .rows(columns: ["a|b", "c"], [[.string("x|y"), .string("1\n2")], [nil, .integer(3)]])
        #expect(printed(.markdown, rows) == "| a\\|b | c |\n| --- | --- |\n| x\\|y | 1<br>2 |\n|  | 3 |")
        #expect(printed(.markdown, headers: false, rows) == "| x\\|y | 1<br>2 |\n|  | 3 |")
    }

    @Test func documentsTakeTheirMembersAsColumnsInOrderOfAppearance() {
        let documents: CommandResult = .documents([["id": 1, "a": "x"], ["id": 2, "b": true], 7])
        #expect(printed(.csv, documents) == "id,a,b,value\r\n1,x,,\r\n2,,true,\r\n,,,7")
    }

    @Test func streamedTableMatchesTheWholeTable() {
        let documents: [JSONValue] = [["id": 34, "name": "David", "tags": ["a"]], ["id": 2, "name": "日本語 😀", "note": nil]]
        #expect(printed(.table, .documents(documents)) == TableRenderer(style: .plain).render(documents: documents))
        #expect(printed(.table, headers: false, .rows(columns: ["n"], [[1], [22]])) == """
            ┌────┐
            │  1 │
            │ 22 │
            └────┘
            """)
    }

    @Test func valuesInTextModes() {
        #expect(printed(.csv, .value(.string("a,b"))) == "\"a,b\"")
        #expect(printed(.tsv, .value(3)) == "3")
        #expect(printed(.markdown, .value(3)) == "3")
    }

    /// A long result at an interactive prompt: the first and last rows of the
    /// table, a ⋮ row for the others, and the count.
    @Test func longTableShowsFirstAndLastRows() throws {
        let harness = try SessionHarness(sample: false)
        harness.feed("n.insert([" + (1...25).map { "{\"id\": \($0)}" }.joined(separator: ", ") + "])")
        harness.feed(".maxrows 4", "n")
        let lines = harness.output.text.split(separator: "\n").map(String.init)
        let cells = lines.filter { $0.hasPrefix("│") }.map { $0.dropFirst().dropLast().trimmingCharacters(in: .whitespaces) }
        #expect(cells == ["id", "1", "2", "⋮", "24", "25"], "\(harness.output.text)")
        #expect(lines.last?.hasPrefix("25 documents, 4 shown; .maxrows N, or .once FILE for all") == true, "\(harness.output.text)")
        harness.feed(".maxrows all", "n.count { $0.id > 0 }", "n")
        #expect(harness.output.text.contains("│ 13 │"))
        #expect(harness.output.text.contains("25 documents ("))
    }

    /// Cells read from the stored text in place mean what parsing it means:
    /// escapes decoded, the first of repeated names kept, white space skipped.
    @Test func storedTextReadInPlaceAgreesWithParsing() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(named: "d").insert(contentsOf: [["id": 1], ["id": 2]])
        try store.databaseWriter.write { db in
            try db.execute(sql: #"UPDATE d SET body = ' { "id" : 1, "a\u0022b" : "t\u00e9", "x": 2, "x": 3, "n": [1, {"k": null}] } ' WHERE key = 1"#)
        }
        let harness = try SessionHarness(interactive: false, sample: false, store: store)
        harness.feed(".mode csv", "d")
        #expect(harness.output.text == "id,\"a\"\"b\",x,n\r\n1,té,2,\"[1,{\"\"k\"\":null}]\"\r\n2,,,\r\n", "\(harness.output.text)")
        harness.feed(".mode ndjson", "d")
        let ndjson: String = #"{"id":1,"a\"b":"té","x":2,"n":[1,{"k":null}]}"# + "\n" + #"{"id":2}"# + "\n"
        #expect(harness.output.text.hasSuffix(ndjson), "\(harness.output.text)")
        #expect(harness.errors.text.isEmpty, "\(harness.errors.text)")
    }

    @Test func groupedCounts() {
        #expect(CommandResult.grouped(108_789) == "108 789")
        #expect(CommandResult.grouped(1_000_000) == "1 000 000")
        #expect(CommandResult.grouped(999) == "999")
    }
}
