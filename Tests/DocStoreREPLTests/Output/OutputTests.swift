import DocStore
import Testing
@testable import DocStoreREPL

@Suite("Output: tables, JSON, NDJSON, lines")
struct OutputTests {
    let documents: [JSONValue] = [
        ["id": 34, "firstName": "David", "number": 34, "tags": ["veteran"]],
        ["id": 2, "firstName": "Xander", "nickname": nil, "note": "日本語 😀 \u{0}end"],
    ]

    @Test func tablesAlignColumnsInDocumentOrder() {
        let table = TableRenderer(style: .plain).render(documents: documents)
        #expect(table == """
            ┌────┬───────────┬────────┬─────────────┬──────────┬────────────────┐
            │ id │ firstName │ number │ tags        │ nickname │ note           │
            ├────┼───────────┼────────┼─────────────┼──────────┼────────────────┤
            │ 34 │ David     │     34 │ ["veteran"] │          │                │
            │  2 │ Xander    │        │             │ null     │ 日本語 😀 ␀end │
            └────┴───────────┴────────┴─────────────┴──────────┴────────────────┘
            """)
    }

    @Test func longCellsAreCut() {
        let table = TableRenderer(style: .plain, maximumCellWidth: 10).render(documents: [["text": .string(String(repeating: "x", count: 50))]])
        #expect(table.contains("│ xxxxxxxxx… │"))
    }

    @Test func modes() {
        let one: [JSONValue] = [["id": 1, "name": "a", "list": [1, 2]]]
        #expect(ResultPrinter(mode: .ndjson, style: .plain).format(.documents(one)) == #"{"id":1,"name":"a","list":[1,2]}"#)
        #expect(ResultPrinter(mode: .json, style: .plain).format(.documents(one)) == "[\n  {\n    \"id\": 1,\n    \"name\": \"a\",\n    \"list\": [\n      1,\n      2\n    ]\n  }\n]")
        #expect(ResultPrinter(mode: .line, style: .plain).format(.documents(one + one)) == "  id = 1\nname = a\nlist = [1, 2]\n\n  id = 1\nname = a\nlist = [1, 2]")
        #expect(ResultPrinter(mode: .table, style: .plain).format(.value(3)) == "3")
        #expect(ResultPrinter(mode: .ndjson, style: .plain).format(.rows(columns: ["a", "b"], [[1, nil]])) == #"{"a":1}"#)
    }

    @Test func colourOnlyWhenAsked() {
        let plain = ResultPrinter(mode: .json, style: .plain).format(.documents(documents)) ?? ""
        let colored = ResultPrinter(mode: .json, style: .colored).format(.documents(documents)) ?? ""
        #expect(!plain.contains("\u{1B}["))
        #expect(colored.contains("\u{1B}[36m34\u{1B}[0m"))
    }

    @Test func exportTextSortsKeysAndEscapesOnlyWhatJSONRequires() {
        let document: JSONValue = ["b": "say \"hi\"", "a": "é\n\u{7}", "c": ["z": 1, "y": "plain 😀"]]
        #expect(JSONText(options: .sortedKeys).string(document) == #"{"a":"é\n\u0007","b":"say \"hi\"","c":{"y":"plain 😀","z":1}}"#)
    }
}
