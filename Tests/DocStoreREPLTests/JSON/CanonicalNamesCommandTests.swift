import Foundation
import Testing

/// Names and values equal as Swift strings but not in bytes (a composed "é"
/// and "e" with a combining accent) in the REPL: an import or insert holding
/// both names in one object merged them silently, keeping one value; and in
/// one session the second of two queries got the first one's rows (helper-46).
@Suite("Canonically equivalent names in the REPL")
struct CanonicalNamesCommandTests {
    static let composed = "\u{E9}"
    static let decomposed = "e\u{301}"

    @Test func anImportHoldingBothNamesInOneObjectIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("both.ndjson").path
        try "{\"id\":1,\"ok\":true}\n{\"id\":2,\"\(Self.composed)\":1,\"\(Self.decomposed)\":2}\n".write(toFile: file, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("s.db").path

        let imported = try runProcess(try docstoreBinary(), [store, "-c", ".import t \(file)"])
        #expect(imported.status == 1)
        #expect(imported.stderr.contains("line 2 of \(file): invalid JSON at column 15: duplicate member name"), "\(imported.stderr)")
        #expect(imported.stderr.contains("(U+00E9 and U+0065 U+0301)"), "\(imported.stderr)")

        let typed = try runProcess(try docstoreBinary(), [store, "-c", "t.insert({\"id\": 3, \"\(Self.composed)\": 1, \"\(Self.decomposed)\": 2})"])
        #expect(typed.status == 1 && typed.stderr.contains("duplicate member name"), "\(typed.stderr)")
        let literal = try runProcess(try docstoreBinary(), ["-c", "players.filter { $0.x.in([[\"a\": 1, \"a\": 2]]) }.count()"])
        #expect(literal.status == 1 && literal.stderr.contains("duplicate dictionary key \"a\""), "\(literal.stderr)")
    }

    /// Queries that differ only in a name's or a value's normalization, one
    /// after the other in one session, each answered for itself: filters,
    /// groups (compiled pipelines are cached by query) and selects.
    @Test func eachQueryOfASessionGetsItsOwnRows() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("two.ndjson").path
        try "{\"id\":12,\"\(Self.composed)\":1,\"v\":\"\(Self.composed)\"}\n{\"id\":13,\"\(Self.decomposed)\":1,\"v\":\"\(Self.decomposed)\"}\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("s.db").path
        #expect(try runProcess(try docstoreBinary(), [store, "-c", ".import u \(file)"]).status == 0)

        var script = ""
        for text in [Self.composed, Self.decomposed, Self.composed] {
            script += "u.filter { $0[\"\(text)\"] == 1 }.keys()\n"
            script += "u.filter { $0.v == \"\(text)\" }.keys()\n"
            script += "u.filter { $0[\"\(text)\"] == 1 }.group(by: \\.v) { (n: $0.count()) }.select { ($0.v) }\n"
        }
        let session = try runProcess(try docstoreBinary(), [store, "--mode", "ndjson"], input: script)
        #expect(session.status == 0, "\(session.stderr)")
        let lines = session.stdout.split(separator: "\n").map(String.init)
        let composedRows = ["[12]", "[12]", "{\"v\":\"\(Self.composed)\"}"]
        let decomposedRows = ["[13]", "[13]", "{\"v\":\"\(Self.decomposed)\"}"]
        #expect(lines.map { Array($0.utf8) } == (composedRows + decomposedRows + composedRows).map { Array($0.utf8) }, "\(lines)")
    }

    /// Two unlabelled columns whose names are one as strings: printed as
    /// objects they were one member, and one value was lost (helper-47).
    @Test func aSelectOfTwoColumnsNamedAlikeIsRefusedAsALabelledOneIs() throws {
        let script = "players.select { ($0[\"\u{C5}\"], $0[\"\u{212B}\"]) }\n"
        let session = try runProcess(try docstoreBinary(), ["--mode", "json"], input: script)
        #expect(session.status == 1)
        #expect(session.stderr.contains("two columns have this name"), "\(session.stderr)")
    }

    /// A collection named the other way than the one that exists: reading it
    /// answered 0 documents, and writing it, in the session that made the
    /// other, blamed a missing table (helper-47).
    @Test func aCollectionNamedTheOtherWayIsNamedInTheError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.db").path
        let script = "\(Self.composed).insert({\"id\": 1})\n\(Self.decomposed).insert({\"id\": 2})\n\(Self.decomposed).count()\n"
        let session = try runProcess(try docstoreBinary(), [store, "--keep-going"], input: script)
        #expect(session.status == 1)
        #expect(session.stderr.contains("error at line 2: invalid collection name"), "\(session.stderr)")
        #expect(session.stderr.contains("error at line 3, column 1: no collection named"), "\(session.stderr)")
        #expect(session.stderr.contains("is the same name written with other Unicode characters"), "\(session.stderr)")
        #expect(session.stderr.contains("inserted 1 document (key 1)"), "\(session.stderr)")
    }

    /// Documents naming a member in each form, written as CSV: the two forms
    /// were one column, and the second document's value was lost (helper-46).
    /// Python's csv module reads two columns back, each with its own value.
    @Test func csvKeepsAColumnForEachFormOfAName() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("forms.ndjson").path
        try "{\"id\":1,\"\(Self.composed)\":\"c\"}\n{\"id\":2,\"\(Self.decomposed)\":\"d\"}\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("s.db").path
        let csv = directory.appendingPathComponent("out.csv").path
        let run = try runProcess(try docstoreBinary(), [store, "-c", ".import u \(file)", "-c", ".export \(csv) u"])
        #expect(run.status == 0, "\(run.stderr)")
        let printed = try runProcess(try docstoreBinary(), [store, "--mode", "csv", "-c", "u.sorted { $0.id }"])
        #expect(printed.status == 0, "\(printed.stderr)")

        let script = "import csv,sys,json; print(json.dumps(list(csv.reader(sys.stdin))))"
        let expected = [["id", Self.composed, Self.decomposed], ["1", "c", ""], ["2", "", "d"]]
        for text in [try String(contentsOfFile: csv, encoding: .utf8), printed.stdout] {
            let parsed = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], input: text)
            let rows = try JSONDecoder().decode([[String]].self, from: Data(parsed.stdout.utf8))
            #expect(rows.map { $0.map { Array($0.unicodeScalars) } } == expected.map { $0.map { Array($0.unicodeScalars) } }, "\(rows)")
        }
    }

    /// That CSV imports back: its header named "é" twice, which `.import`
    /// refused, so an export could not be restored (helper-48). Each document
    /// gets its own form back; a row filling both columns would give one
    /// document both, and is refused naming its line and both columns.
    @Test func csvWithAColumnForEachFormImportsBack() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("forms.ndjson").path
        let documents = "{\"id\":1,\"\(Self.composed)\":\"c\"}\n{\"id\":2,\"\(Self.decomposed)\":\"d\"}\n"
        try documents.write(toFile: file, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("s.db").path
        let csv = directory.appendingPathComponent("out.csv").path
        let back = directory.appendingPathComponent("back.ndjson").path
        let run = try runProcess(try docstoreBinary(), [store, "-c", ".import u \(file)", "-c", ".export \(csv) u",
                                                        "-c", ".import v \(csv)", "-c", ".export v \(back)"])
        #expect(run.status == 0, "\(run.stderr)")
        let exported = try String(contentsOfFile: back, encoding: .utf8)
        #expect(Array(exported.unicodeScalars) == Array(documents.unicodeScalars), "\(exported)")

        let both = directory.appendingPathComponent("both.csv").path
        try "id,\(Self.composed),\(Self.decomposed)\n1,c,\n2,c,d\n".write(toFile: both, atomically: true, encoding: .utf8)
        let refused = try runProcess(try docstoreBinary(), [store, "-c", ".import w \(both)"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("line 3 of \(both): it fills column 2 (U+00E9) and column 3 (U+0065 U+0301)"), "\(refused.stderr)")
        let count = try runProcess(try docstoreBinary(), [store, "-c", ".collections"])
        #expect(!count.stdout.contains("w "), "\(count.stdout)")
    }
}
