import Foundation
import GRDB
import Testing
@testable import DocStore

/// Names and values chosen to break SQL built by splicing text.
let hostileStrings: [String] = [
    "quote\"d", "single'quote", "dot.ted", "brack[0]ets", "$.dollar", "with space",
    "emoji 🧢⚾️", "back\\slash", "'; DROP TABLE teams; --", "\"); DELETE FROM docstore_collections; --",
    "new\nline", "tab\there", "percent%_under", String(repeating: "long", count: 2_500),
]

@Suite("Hostile names, keys and values")
struct HostileNameTests {
    struct Doc: Codable, Identifiable, Equatable {
        var id: String
        var text: String
    }

    @Test(arguments: hostileStrings)
    func anyCollectionNameWorksAndStaysItsOwnTable(name: String) throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(Doc.self, named: name)
        try docs.insert(Doc(id: name, text: name))
        #expect(try docs.get(name) == Doc(id: name, text: name))
        #expect(try docs.count() == 1)
        #expect(try store.collections().map(\.name) == [name])
        // Another collection is unaffected.
        let other = store.collection(Doc.self, named: "other")
        try other.insert(Doc(id: "x", text: "y"))
        #expect(try docs.count() == 1)
        #expect(try store.dropCollection(named: name))
        #expect(try store.collections().map(\.name) == ["other"])
        #expect(try other.count() == 1)
    }

    @Test func hostileKeysAndValuesRoundTripAndNeverReachSQLText() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(Doc.self)
        var executed: [String] = []
        let lock = NSLock()
        try store.databaseWriter.write { db in
            db.trace { event in
                lock.lock(); executed.append("\(event)"); lock.unlock()
            }
        }
        let withNUL = "nul\u{0}inside"
        for value in hostileStrings + [withNUL] {
            try docs.insert(Doc(id: value, text: value))
        }
        for value in hostileStrings + [withNUL] {
            #expect(try docs.get(value) == Doc(id: value, text: value))
        }
        #expect(try docs.count() == hostileStrings.count + 1)
        #expect(try docs.get([hostileStrings[0], withNUL]).map(\.id) == [hostileStrings[0], withNUL])
        try docs.update("'; DROP TABLE teams; --") { $0.text = "updated" }
        #expect(try docs.delete("$.dollar"))
        // The trace shows statements as SQLite received them: no value appears in SQL text.
        lock.lock(); let statements = executed; lock.unlock()
        for statement in statements {
            #expect(!statement.contains("DROP TABLE teams"), "a value reached SQL text: \(statement)")
            #expect(!statement.contains("🧢"), "a value reached SQL text: \(statement)")
        }
    }

    @Test func invalidCollectionNamesAreRefusedClearly() throws {
        let store = try DocumentStore.inMemory()
        for (name, reason) in [("", "empty"), ("a\u{0}b", "NUL"), ("sqlite_master", "reserved"), ("docstore_meta", "reserved")] {
            let error = try #require(throws: DocStoreError.self) {
                try store.collection(Doc.self, named: name).insert(Doc(id: "1", text: ""))
            }
            guard case .invalidCollectionName = error else { Issue.record("expected invalidCollectionName, got \(error)"); continue }
            #expect("\(error)".contains(reason))
        }
        #expect(try store.collections().isEmpty)
    }

    @Test func tenKilobyteStringsAsKeysValuesAndNames() throws {
        let store = try DocumentStore.inMemory()
        let big = String(repeating: "é🧢\"'.", count: 2_000)
        let docs = store.collection(Doc.self, named: big)
        try docs.insert(Doc(id: big, text: big))
        #expect(try docs.get(big)?.text == big)
        let error = try #require(throws: DocStoreError.self) { try docs.insert(Doc(id: big, text: "")) }
        #expect("\(error)".count < 400, "messages cut long names and keys")
    }
}
