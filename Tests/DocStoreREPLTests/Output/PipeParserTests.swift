import Foundation
import Testing

/// Every output mode of the real `docstore` binary, piped into real parsers
/// (Python's `json` and `csv` modules, jq), compared with the stored documents.
@Suite("Output modes through real parsers")
struct PipeParserTests {
    /// Documents with what text formats must quote or escape: commas, quotes,
    /// line breaks, tabs, backslashes, pipes, wide characters, nested values,
    /// `null` and missing fields.
    static let documents = #"""
        [{"id": 1, "name": "plain", "n": 10, "x": 1.5, "ok": true, "tags": ["a", "b"], "nested": {"k": "v, \"q\""}},
         {"id": 2, "name": "comma, \"quote\"\nnewline", "n": -3, "tab": "a\tb\\c"},
         {"id": 3, "name": "ünïcödé 😀 | pipe", "n": null, "ok": false}]
        """#

    /// A store file holding ``documents`` in collection `things`, and the
    /// documents' JSON in a file for the checker.
    private func makeStore() throws -> (directory: URL, store: String, expected: String) {
        let directory = try temporaryDirectory()
        let store = directory.appendingPathComponent("s.db").path
        let inserted = try runProcess(try docstoreBinary(), [store], input: "things.insert(\(Self.documents))\n")
        try #require(inserted.status == 0, "\(inserted.stderr)")
        let expected = directory.appendingPathComponent("expected.json").path
        try Data(Self.documents.utf8).write(to: URL(fileURLWithPath: expected))
        return (directory, store, expected)
    }

    private var checker: String {
        packageRoot.appendingPathComponent("Tests/DocStoreREPLTests/Fixtures/output_check.py").path
    }

    /// Runs `docstore STORE --mode MODE -c QUERY` and feeds its stdout to the checker.
    private func check(_ mode: String, store: String, expected: String, before: [String] = [], checkerArguments: [String] = []) throws {
        let script = (before + ["things"]).joined(separator: "\n") + "\n"
        let printed = try runProcess(try docstoreBinary(), [store, "--mode", mode], input: script)
        #expect(printed.status == 0, "\(mode): \(printed.stderr)")
        #expect(printed.stderr.isEmpty, "\(mode): stderr holds \(printed.stderr)")
        let checked = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", checker, mode, expected] + checkerArguments,
                                     input: printed.stdout)
        #expect(checked.status == 0 && checked.stdout == "ok\n", "\(mode): \(checked.stdout)\(checked.stderr)\noutput:\n\(printed.stdout)")
    }

    @Test("each mode parses back to the stored documents", arguments: ["json", "ndjson", "csv", "tsv", "markdown", "table", "line"])
    func eachMode(_ mode: String) throws {
        let (directory, store, expected) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        try check(mode, store: store, expected: expected)
    }

    @Test(".headers off leaves the header line out", arguments: ["csv", "tsv", "markdown", "table"])
    func headersOff(_ mode: String) throws {
        let (directory, store, expected) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        try check(mode, store: store, expected: expected, before: [".headers off"], checkerArguments: ["--no-headers"])
    }

    /// Messages go to stderr in a script, so stdout is only results: jq reads
    /// it whole after an insert, an index and a query.
    @Test("a script's stdout holds only results, for jq")
    func onlyResultsOnStdout() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.db").path
        let script = """
            things.insert([{"id": 1, "v": 5}, {"id": 2, "v": 7}])
            things.createIndex(\\.v)
            things.filter { $0.v > 6 }
            things.count()
            things.filter { $0.v > 0 }.update { $0.v += 1 }
            things.select { ($0.v) }
            """
        let printed = try runProcess(try docstoreBinary(), [store, "--mode", "ndjson"], input: script + "\n")
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(printed.stderr.contains("inserted 2 documents"), "\(printed.stderr)")
        #expect(printed.stderr.contains("updated 2 documents"), "\(printed.stderr)")
        let parsed = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["jq", "-c", "."], input: printed.stdout)
        #expect(parsed.status == 0, "jq: \(parsed.stderr) on \(printed.stdout)")
        #expect(parsed.stdout == "{\"id\":2,\"v\":7}\n2\n{\"v\":6}\n{\"v\":8}\n", "\(parsed.stdout)")
    }

    /// A group's rows in CSV: Python's csv module reads the sums back.
    @Test("group rows as CSV")
    func groupRowsAsCSV() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.db").path
        let rows = (1...50).map { #"{"id": \#($0), "team": "t\#($0 % 3)", "hr": \#($0)}"# }.joined(separator: ", ")
        _ = try runProcess(try docstoreBinary(), [store], input: "b.insert([\(rows)])\n")
        let printed = try runProcess(try docstoreBinary(), [store, "--mode", "csv", "-c",
                                                            "b.group(by: \\.team) { (hr: $0.sum(\\.hr), n: $0.count()) }"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let script = "import csv,sys,json; print(json.dumps([r for r in csv.DictReader(sys.stdin)]))"
        let parsed = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], input: printed.stdout)
        let decoded = try JSONDecoder().decode([[String: String]].self, from: Data(parsed.stdout.utf8))
        var expected: [String: (hr: Int, n: Int)] = [:]
        for id in 1...50 { expected["t\(id % 3)", default: (0, 0)].hr += id; expected["t\(id % 3)", default: (0, 0)].n += 1 }
        #expect(decoded.count == 3)
        for row in decoded {
            let team = try #require(row["team"])
            #expect(row["hr"] == expected[team].map { String($0.hr) } && row["n"] == expected[team].map { String($0.n) }, "\(row)")
        }
    }
}
