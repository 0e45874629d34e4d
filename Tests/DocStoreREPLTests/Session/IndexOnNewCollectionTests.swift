import Foundation
import Testing
@testable import DocStoreREPL

@Suite("REPL: an index on a collection with no documents yet")
struct IndexOnNewCollectionTests {
    /// The index is recorded and used from the first insert, but `.collections`
    /// can't list a collection before its first document: the message said only
    /// "created index … on x", so the index was mentioned nowhere.
    @Test func theMessageSaysTheCollectionHasNoDocumentsYet() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.sqlite").path
        let result = try runProcess(try docstoreBinary(), [store], input: #"""
            nope.createIndex(\.x)
            nope.createSearchIndex(\.t)
            nope.insert({"id": 1, "x": 5, "t": "a"})
            nope.createIndex(\.t)
            .collections

            """#)
        #expect(result.status == 0, "\(result.stderr)")
        let pending = #"("nope" has no documents yet: it and its index are listed from its first insert)"#
        #expect(result.stderr.contains("created index docstore_ix_1 on x " + pending), "\(result.stderr)")
        #expect(result.stderr.contains("created search index docstore_search_1 on t " + pending), "\(result.stderr)")
        #expect(result.stderr.contains("created index docstore_ix_2 on t\n"), "an existing collection: \(result.stderr)")
        #expect(result.stdout.contains("nope  (1 document, key: integer, indexes: x, t, search: t)"), "\(result.stdout)")
    }
}
