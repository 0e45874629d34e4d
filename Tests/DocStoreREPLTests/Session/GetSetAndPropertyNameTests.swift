import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// `get` prints a document, `set(to:)` stores objects and arrays, and fields
/// named like the DSL's `count`, `isEmpty` and `exists` are reachable and never
/// silently taken for them.
@Suite("REPL: get, set(to:) and fields named count, isEmpty, exists")
struct GetSetAndPropertyNameTests {
    @Test func getPrintsTheDocumentItselfInEveryMode() throws {
        let harness = try SessionHarness(interactive: false)
        harness.feed(".mode json", "players.get(34)")
        let json = try JSONSerialization.jsonObject(with: Data(harness.output.text.utf8))
        let document = try #require(json as? [String: Any], "an object, not an array: \(harness.output.text)")
        #expect(document["id"] as? Int == 34)

        let ndjson = try SessionHarness(interactive: false)
        ndjson.feed(".mode ndjson", "players.get(34)")
        #expect(ndjson.output.text.hasPrefix("{") && ndjson.output.text.split(separator: "\n").count == 1, "\(ndjson.output.text)")

        let missing = try SessionHarness(interactive: false)
        missing.feed(".mode json", "players.get(4242)")
        // A message, not a result: on stderr when not interactive.
        #expect(missing.errors.text.contains("no document with key 4242 in players"), "\(missing.errors.text)")
        #expect(!missing.output.text.contains("4242"))
    }

    @Test func setToTakesAnObjectOrAnArray() throws {
        let harness = try SessionHarness(interactive: false)
        #expect(harness.feed(#"players.filter { $0.id == 34 }.update { $0.stats.set(to: {"hr": 73, "years": [2001, 2002]}); $0.tags.set(to: [{"a": 1}, 2]) }"#) == .done,
                "\(harness.errors.text)")
        #expect(harness.feed(#"players.filter { $0.id == 34 }.update { $0.extra = {"k": ["x", {"y": null}]}; $0.number = 7 }"#) == .done,
                "\(harness.errors.text)")
        #expect(harness.feed(#"players.filter { $0.id == 34 }.update { $0.list.set(to: [1, 2]); $0.dict.set(to: ["a": 1]) }"#) == .done,
                "\(harness.errors.text)")
        let player = try #require(try harness.store.collection(named: "players").get(34))
        #expect(player["stats"] == ["hr": 73, "years": [2001, 2002]])
        #expect(player["tags"] == [["a": 1], 2])
        #expect(player["extra"] == ["k": ["x", ["y": .null]]])
        #expect(player["number"] == 7)
        #expect(player["list"] == [1, 2])
        #expect(player["dict"] == ["a": 1])

        let bad = try SessionHarness(interactive: false)
        #expect(bad.feed(#"players.filter { $0.id == 34 }.update { $0.stats.set(to: {"hr": }) }"#) == .failed)
        #expect(bad.errors.text.contains("invalid JSON"), "\(bad.errors.text)")
    }

    @Test func countIsEmptyAndExistsOnTheDocumentSayHowToNameTheField() throws {
        for name in ["count", "isEmpty", "exists"] {
            let comparison = name == "count" ? " == 3" : ""
            let error = try #require(parseError("players.filter { $0.\(name)\(comparison) }"), "\(name)")
            #expect(error.message.contains("$0 is the whole document: for a field named \(name) write $0[\"\(name)\"]"), "\(error.message)")
            #expect(error.location.column == 21)
        }
    }

    @Test func aNestedFieldNamedCountIsWarnedAbout() throws {
        let schema = StaticSchema(["shelves": [FieldPath("box"): ["object"], FieldPath("box", "count"): ["integer"], FieldPath("tags"): ["array"]]])
        let parsed = try CommandParser.parse("shelves.filter { $0.box.count == 3 }", schema: schema)
        #expect(parsed.warnings.map(\.message) == [#"$0.box.count counts the elements of an array ($0.box), not the field named count that sampled documents have: write $0.box["count"] for the field"#])
        // An array's count, where no such field was seen, is what it says.
        #expect(try CommandParser.parse("shelves.filter { $0.tags.count == 3 }", schema: schema).warnings.isEmpty)
    }

    @Test func subscriptsReachFieldsNamedCountIsEmptyAndExists() throws {
        let harness = try SessionHarness(interactive: false, sample: false)
        harness.feed(#"boxes.insert([{"id": 1, "count": 3, "isEmpty": false, "exists": "yes", "box": {"count": 1}}, {"id": 2, "count": 5, "isEmpty": true}])"#)
        harness.feed(".mode ndjson")
        let queries = [
            (#"boxes.filter { $0["count"] == 3 }.keys()"#, "[1]"),
            (#"boxes.filter { $0["isEmpty"] == true }.keys()"#, "[2]"),
            (#"boxes.filter { $0["exists"] == "yes" }.keys()"#, "[1]"),
            (#"boxes.filter { $0["count"] > 2; $0.box["count"] == 1 }.keys()"#, "[1]"),
            (#"boxes.filter { $0["exists"].exists }.keys()"#, "[1]"),
            (#"boxes.sorted { $0["count"].descending }.keys()"#, "[2,1]"),
        ]
        for (query, keys) in queries {
            let before = harness.output.text.endIndex
            #expect(harness.feed(query) == .done, "\(query): \(harness.errors.text)")
            #expect(harness.output.text[before...].trimmingCharacters(in: .whitespacesAndNewlines) == keys, "\(query)")
        }
        // Status lines ("inserted 2 documents…") go to stderr too; no error or warning does.
        #expect(!harness.errors.text.contains("error") && !harness.errors.text.contains("warning"), "\(harness.errors.text)")
    }
}
