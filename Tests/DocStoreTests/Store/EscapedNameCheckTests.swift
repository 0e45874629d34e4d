import Foundation
import GRDB
import Testing
@testable import DocStore

/// A member name written with escapes it doesn't need (`"caf\u00e9"`, as
/// Python's `json.dumps` writes non-ASCII by default) is invisible to SQLite's
/// JSON paths, which compare names as written, while reads show it: a query for
/// the field found nothing, and `check` said nothing (helper-45).
@Suite("check: needlessly escaped member names")
struct EscapedNameCheckTests {
    @Test func checkNamesDocumentsWhoseMembersQueriesCantSee() throws {
        let store = try DocumentStore.inMemory()
        let collection = store.collection(named: "u")
        try collection.insert(contentsOf: [["id": 1, "café": 1], ["id": 2, "café": 2], ["id": 3, "a\"b": 3]])
        try store.databaseWriter.write { db in
            try db.execute(sql: #"UPDATE u SET body = '{"id": 2, "caf\u00e9": 2}' WHERE key = 2"#)
        }
        // What the check is about: the query misses document 2, the read shows it.
        #expect(try collection.keys(DocumentQuery(.compare(FieldPath("café"), .greaterOrEqual, 1))) == [.integer(1)])
        #expect(try collection.get(2) == ["id": 2, "café": 2])

        let report = try store.check(collection: "u")
        #expect(report.escapedNames == [.integer(2)], "a needed escape (a quote) is not reported")
        #expect(!report.isHealthy)
        #expect(report.description.contains("member names written with needless escapes"), "\(report.description)")
        #expect(report.damaged.isEmpty)
    }
}
