import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// Writes a file store's comparisons would aim at other documents than their
/// condition means, beyond the literal and stored rounded numbers of
/// "Fault: writes comparing with a number a Double rounds" (helper-49).
@Suite("Fault: writes comparing values a file store reads inexactly")
struct InexactStoredValueWriteTests {
    /// `in(…, selecting:)` compares the outer field with the subquery's
    /// values: a number rounding alike on either side took documents of
    /// other values (`deleted 3 documents` of 4, where one was meant).
    @Test func aSubqueryOverRoundedNumbersIsRefusedOnEitherSide() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.db").path
        try runProcess(try docstoreBinary(), [path,
            "-c", #"b.insert([{"id": 1, "x": 99999999999999999999}, {"id": 2, "x": 1e20}, {"id": 4, "x": 5}])"#,
            "-c", #"r.insert([{"id": 1, "v": 1e20}])"#,
            "-c", #"c.insert([{"id": 2, "x": 1e20}, {"id": 5, "x": 7}])"#,
            "-c", #"s.insert([{"id": 1, "v": 99999999999999999999}, {"id": 2, "v": 7}])"#]).expectSuccess()

        let outer = try runProcess(try docstoreBinary(), [path, "-c", #"b.delete { $0.x.in(r.filter { $0.v > 0 }, selecting: \.v) }"#])
        #expect(outer.status == 1 && outer.stderr.contains(#"document 1 of "b" holds 99999999999999999999 in x"#), "\(outer.stderr)")
        let inner = try runProcess(try docstoreBinary(), [path, "-c", #"c.filter { $0.x.in(s.filter { $0.id > 0 }, selecting: \.v) }.update { $0.hit = true }"#])
        #expect(inner.status == 1 && inner.stderr.contains(#"document 1 of "s" (read by the subquery) holds 99999999999999999999 in v"#),
                "\(inner.stderr)")
        let keys = try runProcess(try docstoreBinary(), [path, "--mode", "ndjson", "-c", "b.keys()", "-c", "c.filter { $0.hit == true }.count()"])
        #expect(keys.stdout == "[1,2,4]\n0\n", "\(keys.stdout)\(keys.stderr)")

        // A subquery selecting no such value runs.
        let fine = try runProcess(try docstoreBinary(), [path, "-c", #"c.delete { $0.x.in(s.filter { $0.id == 2 }, selecting: \.v) }"#])
        #expect(fine.status == 0 && fine.stderr.contains("deleted 1 document"), "\(fine.stderr)")
    }

    /// SQLite's JSON functions read a string only up to a NUL: `s == "a"`
    /// deleted the documents holding "a\u0000b" and "a\u0000c" too, and
    /// `!s.contains("bee")` the one holding "a\u0000bee".
    @Test func aWriteSelectingAStringWithNULIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.db").path
        let file = directory.appendingPathComponent("nul.ndjson").path
        try #"{"id":1,"s":"a\u0000b"}"#.appending("\n").appending(#"{"id":2,"s":"a\u0000bee"}"#).appending("\n")
            .appending(#"{"id":3,"s":"a"}"#).appending("\n").appending(#"{"id":4,"s":"b"}"#).appending("\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        try runProcess(try docstoreBinary(), [path, "-c", ".import n \(file)"]).expectSuccess()

        for write in [#"n.delete { $0.s == "a" }"#, #"n.filter { $0.s.in(["a", "z"]) }.update { $0.t = 1 }"#,
                      #"n.delete { !$0.s.contains("bee") && $0.id < 3 }"#] {
            let refused = try runProcess(try docstoreBinary(), [path, "-c", write])
            #expect(refused.status == 1, "\(write)")
            #expect(refused.stderr.contains(#"document 1 of "n" holds "a\u0000b" in s, a string with NUL (\u0000) in it: a file store compares it only up to the NUL, as "a""#),
                    "\(write): \(refused.stderr)")
        }
        let count = try runProcess(try docstoreBinary(), [path, "-c", "n.count()", "-c", "n.filter { $0.t == 1 }.count()"])
        #expect(count.stdout == "4\n0\n", "\(count.stdout)\(count.stderr)")
        let fine = try runProcess(try docstoreBinary(), [path, "-c", #"n.delete { $0.s == "b" }"#])
        #expect(fine.status == 0 && fine.stderr.contains("deleted 1 document"), "\(fine.stderr)")
    }
}
