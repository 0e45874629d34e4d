import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// A delete whose condition compares with a number a Double would round:
/// on a file (SQLite reads such numbers as Doubles) it matched, and deleted,
/// a document holding another number that rounds the same; it is refused.
/// PostgreSQL compares exactly, and deletes only the document named.
@Suite("Fault: writes comparing with a number a Double rounds")
struct RoundedNumberWriteTests {
    static let insert = #"big.insert([{"id": 1, "a": 99999999999999999999}, {"id": 2, "a": 5}])"#

    @Test func aFileRefusesTheDeleteAndKeepsBothDocuments() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.db").path
        try runProcess(try docstoreBinary(), [path, "-c", Self.insert]).expectSuccess()
        let refused = try runProcess(try docstoreBinary(), [path, "-c", "big.filter { $0.a == 99999999999999999998 }.delete()"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("this command would change them, so it is refused"), "\(refused.stderr)")
        let count = try runProcess(try docstoreBinary(), [path, "-c", "big.count()"])
        #expect(count.stdout == "2\n")
        // An "id" past a key's range says so (it said "is integer, not an integer or a string").
        let key = try runProcess(try docstoreBinary(), [path, "-c", #"big.insert({"id": 99999999999999999999})"#])
        #expect(key.stderr.contains(#"its "id" 99999999999999999999 is past the range of an integer key (64-bit, as Int64)"#), "\(key.stderr)")
    }

    /// The stored side: a literal a Double holds exactly (0) matched a stored
    /// `1e-400`, which SQLite reads as 0, and the update changed that document
    /// (helper-42). A write whose selected documents hold such a number in a
    /// compared field is refused, naming it; one that selects none runs.
    @Test func aFileRefusesAWriteThatWouldTakeAStoredRoundedNumber() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.db").path
        try runProcess(try docstoreBinary(), [path, "-c", #"e.insert([{"id": 3, "v": 0}, {"id": 4, "v": 1e-400}, {"id": 5, "v": [1e-400]}])"#]).expectSuccess()
        for write in ["e.filter { $0.v.in([0, 0.3]) }.update { $0.v.remove() }", "e.filter { $0.v == 0 }.delete()",
                      "e.filter { $0.v < 1 }.delete()"] {
            let refused = try runProcess(try docstoreBinary(), [path, "-c", write])
            #expect(refused.status == 1 && refused.stderr.contains("document 4 of \"e\" holds 1e-400 in v, a number a Double can't hold"), "\(write): \(refused.stderr)")
        }
        let inArray = try runProcess(try docstoreBinary(), [path, "-c", "e.filter { $0.v.contains(0) }.delete()"])
        #expect(inArray.status == 1 && inArray.stderr.contains("document 5"), "\(inArray.stderr)")
        let all = try runProcess(try docstoreBinary(), [path, "--mode", "ndjson", "-c", "e.all()"])
        #expect(all.stdout == #"{"id":3,"v":0}"# + "\n" + #"{"id":4,"v":1e-400}"# + "\n" + #"{"id":5,"v":[1e-400]}"# + "\n", "\(all.stdout)")
        // With a limit, the sort picks the documents, so it counts too: of two
        // numbers that round alike, SQLite took the first by key (helper-44).
        try runProcess(try docstoreBinary(), [path, "-c", #"u.insert([{"id": 1, "v": 18446744073709551615}, {"id": 2, "v": 18446744073709551614}])"#]).expectSuccess()
        let sorted = try runProcess(try docstoreBinary(), [path, "-c", "u.sorted { $0.v }.limit(1).delete()"])
        #expect(sorted.status == 1 && sorted.stderr.contains("document 1 of \"u\" holds 18446744073709551615 in v"), "\(sorted.stderr)")
        // Selecting only documents without one, the write runs.
        let fine = try runProcess(try docstoreBinary(), [path, "-c", "e.filter { $0.id == 3 && $0.v == 0 }.delete()"])
        #expect(fine.status == 0 && fine.stderr.contains("deleted 1 document"), "\(fine.stderr)")
    }
}

extension PostgresREPLTests {
    @Suite("Fault: writes comparing with a number a Double rounds, on PostgreSQL")
    struct RoundedNumberWriteOnPostgresTests {
        @Test func postgresDeletesOnlyTheDocumentNamed() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            try runProcess(try docstoreBinary(), [url, "-c", RoundedNumberWriteTests.insert]).expectSuccess()
            let none = try runProcess(try docstoreBinary(), [url, "-c", "big.filter { $0.a == 99999999999999999998 }.delete()"])
            #expect(none.status == 0 && none.stderr.contains("deleted 0 documents"), "\(none.stderr)")
            let one = try runProcess(try docstoreBinary(), [url, "-c", "big.filter { $0.a == 99999999999999999999 }.delete()"])
            #expect(one.stderr.contains("deleted 1 document"), "\(one.stderr)")
            let left = try runProcess(try docstoreBinary(), [url, "--mode", "ndjson", "-c", "big.get(2)"])
            #expect(left.stdout == #"{"a":5,"id":2}"# + "\n" || left.stdout == #"{"id":2,"a":5}"# + "\n", "\(left.stdout)")
        }
    }
}
