import Foundation
import GRDB
import Testing
@testable import DocStore

@Suite("Migrations: field changes")
struct FieldChangeTests {
    /// A collection of untyped documents, inserted as given.
    private func collection(_ documents: [JSONValue]) throws -> (DocumentStore, DocumentCollection<JSONValue>) {
        let store = try DocumentStore.inMemory()
        let collection = store.collection(named: "players")
        try collection.insert(contentsOf: documents)
        return (store, collection)
    }

    private func json(_ text: String) throws -> JSONValue { try DocumentCodec.parse(text) }

    /// The stored JSON text of every document, by key, with sorted members.
    private func stored(_ collection: DocumentCollection<JSONValue>) throws -> [String] {
        try collection.all().map { String(decoding: DocumentCodec.serialize($0, options: .sortedKeys), as: UTF8.self) }
    }

    /// The stored JSON text of every document, by key, exactly as SQLite holds it.
    private func rawBodies(_ collection: DocumentCollection<JSONValue>) throws -> [String] {
        try collection.store.databaseWriter.read { db in
            try String.fetchAll(db, sql: "SELECT body FROM \"\(collection.name)\" ORDER BY key")
        }
    }

    @Test func renameMovesEveryValueExactlyAndLeavesOtherDocumentsAlone() throws {
        let (_, players) = try collection([
            try json(#"{"id": 1, "nickName": "Big Papi", "n": 1}"#),
            try json(#"{"id": 2, "nickName": {"first": [1, 2.50, 12345678901234567890]}}"#),
            try json(#"{"id": 3, "nickName": null}"#),
            try json(#"{"id": 4, "other": true}"#),
        ])
        let untouched = try rawBodies(players)[3]
        let summary = try players.renameField(FieldPath("nickName"), to: FieldPath("nickname"))
        #expect(summary.documentsChanged == 3)
        #expect(try rawBodies(players)[3] == untouched)
        #expect(try rawBodies(players) == [
            #"{"id":1,"n":1,"nickname":"Big Papi"}"#,
            #"{"id":2,"nickname":{"first":[1,2.5,12345678901234567890]}}"#,   // every digit kept
            #"{"id":3,"nickname":null}"#,
            #"{"id":4,"other":true}"#,
        ])
    }

    @Test func renameIntoANestedPathCreatesItsParents() throws {
        let (_, players) = try collection([try json(#"{"id": 1, "hr": 40}"#), try json(#"{"id": 2, "stats": {"h": 3}, "hr": 7}"#)])
        try players.renameField(FieldPath("hr"), to: FieldPath("stats", "hr"))
        #expect(try stored(players) == [#"{"id":1,"stats":{"hr":40}}"#, #"{"id":2,"stats":{"h":3,"hr":7}}"#])
    }

    @Test func anIndexFollowsARenamedFieldAndIsUsedThere() throws {
        let (store, players) = try collection([try json(#"{"id": 1, "nickName": "A", "stats": {"hr": 3}}"#)])
        let single = try players.createIndex(on: FieldPath("nickName"))
        let nested = try players.createIndex(on: [FieldPath("stats", "hr"), FieldPath("id")], unique: true)
        let untouched = try players.createIndex(on: FieldPath("id"))
        let renamed = try players.renameField(FieldPath("nickName"), to: FieldPath("nickname"))
        #expect(renamed.movedIndexes.map(\.name) == [single.name])
        let movedStats = try players.renameField(FieldPath("stats"), to: FieldPath("batting"))
        #expect(movedStats.movedIndexes == [IndexInfo(name: nested.name, collection: "players",
                                                      fields: [FieldPath("batting", "hr"), FieldPath("id")], isUnique: true)])
        #expect(try players.indexes().map(\.fields) == [[FieldPath("nickname")], [FieldPath("batting", "hr"), FieldPath("id")], [FieldPath("id")]])
        #expect(try players.indexes().map(\.name) == [single.name, nested.name, untouched.name])
        #expect(try players.explain(DocumentQuery(.compare(FieldPath("nickname"), .equal, "A"))).usesIndex)
        #expect(try players.explain(DocumentQuery(.compare(FieldPath("batting", "hr"), .equal, 3))).usesIndex)
        #expect(try players.filter { $0.nickname == "A" }.count() == 1)
        #expect(try store.check().isHealthy, "the catalog and SQLite's indexes agree")
        // The unique index still refuses duplicates on its new path.
        #expect(throws: DocStoreError.self) { try players.insert(try json(#"{"id": 1, "batting": {"hr": 3}}"#)) }
    }

    @Test func renamingOntoAnIndexedPathKeepsOneIndex() throws {
        let (_, players) = try collection([try json(#"{"id": 1, "nickName": "A"}"#)])
        let old = try players.createIndex(on: FieldPath("nickName"))
        let new = try players.createIndex(on: FieldPath("nickname"))
        let summary = try players.renameField(FieldPath("nickName"), to: FieldPath("nickname"))
        #expect(summary.droppedIndexes == [old])
        #expect(try players.indexes() == [new])
    }

    @Test func renameRefusesToOverwriteAndNamesTheDocument() throws {
        let (_, players) = try collection([
            try json(#"{"id": 1, "nickName": "A"}"#),
            try json(#"{"id": 2, "nickName": "B", "nickname": "b"}"#),
        ])
        let before = try stored(players)
        let error = try #require(throws: DocStoreError.self) { try players.renameField(FieldPath("nickName"), to: FieldPath("nickname")) }
        guard case .invalidUpdate(let collection, let field, let key, _) = error else { Issue.record("\(error)"); return }
        #expect(collection == "players" && field == "nickname" && key == .integer(2))
        #expect("\(error)".contains("has both nickName and nickname"))
        #expect(try stored(players) == before)
    }

    @Test func aPathThroughAValueThatIsNotAnObjectIsRefused() throws {
        let (_, players) = try collection([
            try json(#"{"id": 1, "hr": 1}"#),
            try json(#"{"id": 2, "hr": 2, "stats": [1]}"#),
            try json(#"{"id": 3, "stats": null}"#),
        ])
        let before = try stored(players)
        let error = try #require(throws: DocStoreError.self) { try players.renameField(FieldPath("hr"), to: FieldPath("stats", "hr")) }
        guard case .invalidUpdate(_, "stats.hr", .integer(2), _) = error else { Issue.record("\(error)"); return }
        let defaultError = try #require(throws: DocStoreError.self) { try players.setDefault(FieldPath("stats", "hr"), to: .integer(0)) }
        guard case .invalidUpdate(_, "stats.hr", .integer(2), _) = defaultError else { Issue.record("\(defaultError)"); return }
        #expect(try stored(players) == before)
    }

    @Test func badPathsAreRefusedWithTheirReason() throws {
        let (_, players) = try collection([try json(#"{"id": 1, "a": {"b": 1}}"#)])
        let cases: [(String, () throws -> FieldChangeSummary, String)] = [
            ("overlap", { try players.renameField(FieldPath("a"), to: FieldPath("a", "c")) }, "overlap"),
            ("same", { try players.copyField(FieldPath("a"), to: FieldPath("a")) }, "overlap"),
            ("key", { try players.renameField(FieldPath("id"), to: FieldPath("key")) }, "the id is the document's key"),
            ("into key", { try players.copyField(FieldPath("a"), to: FieldPath("id")) }, "the id is the document's key"),
            ("position", { try players.renameField(FieldPath("a"), to: FieldPath([.key("t"), .index(0)])) }, "array positions"),
            ("root", { try players.removeField(.root) }, "not the whole document"),
            ("quote", { try players.renameField(FieldPath("a"), to: FieldPath("say \"hi\"")) }, "JSON paths can't name this field"),
        ]
        for (name, change, reason) in cases {
            let error = try #require(throws: DocStoreError.self, "\(name)") { try change() }
            #expect("\(error)".contains(reason), "\(name): \(error)")
        }
        #expect(try stored(players) == [#"{"a":{"b":1},"id":1}"#])
    }

    @Test func copyKeepsTheSourceAndRefusesToOverwrite() throws {
        let (_, players) = try collection([try json(#"{"id": 1, "a": [1, {"x": 2}]}"#), try json(#"{"id": 2}"#)])
        #expect(try players.copyField(FieldPath("a"), to: FieldPath("b")).documentsChanged == 1)
        #expect(try stored(players) == [#"{"a":[1,{"x":2}],"b":[1,{"x":2}],"id":1}"#, #"{"id":2}"#])
        #expect(throws: DocStoreError.self) { try players.copyField(FieldPath("a"), to: FieldPath("b")) }
    }

    @Test func removeDropsIndexesOnTheFieldAndReportsThem() throws {
        let (store, players) = try collection([try json(#"{"id": 1, "stats": {"hr": 1}, "n": 2}"#), try json(#"{"id": 2, "n": 3}"#)])
        let inside = try players.createIndex(on: [FieldPath("n"), FieldPath("stats", "hr")])
        let kept = try players.createIndex(on: FieldPath("n"))
        let summary = try players.removeField(FieldPath("stats"))
        #expect(summary.documentsChanged == 1)
        #expect(summary.droppedIndexes == [inside])
        #expect("\(summary)".contains("dropped index \(inside.name) on (n, stats.hr)"))
        #expect(try players.indexes() == [kept])
        #expect(try stored(players) == [#"{"id":1,"n":2}"#, #"{"id":2,"n":3}"#])
        #expect(try store.check().isHealthy)
    }

    @Test func setDefaultFillsMissingAndNullOnly() throws {
        let (_, players) = try collection([
            try json(#"{"id": 1}"#), try json(#"{"id": 2, "active": null}"#), try json(#"{"id": 3, "active": false}"#),
        ])
        #expect(try players.setDefault(FieldPath("active"), to: .bool(true)).documentsChanged == 2)
        #expect(try stored(players) == [#"{"active":true,"id":1}"#, #"{"active":true,"id":2}"#, #"{"active":false,"id":3}"#])
        #expect(throws: DocStoreError.self) { try players.setDefault(FieldPath("x"), to: .double(.nan)) }
    }

    @Test func aUniqueIndexRefusingADefaultLeavesEverythingAsItWas() throws {
        let (_, players) = try collection([try json(#"{"id": 1}"#), try json(#"{"id": 2}"#)])
        try players.createIndex(on: FieldPath("email"), unique: true)
        let error = try #require(throws: DocStoreError.self) { try players.setDefault(FieldPath("email"), to: .string("x")) }
        guard case .uniqueConstraint(_, let fields, _) = error else { Issue.record("\(error)"); return }
        #expect(fields == ["email"])
        #expect(try stored(players) == [#"{"id":1}"#, #"{"id":2}"#])
    }

    @Test func aChangeToACollectionThatDoesNotExistChangesNothing() throws {
        let store = try DocumentStore.inMemory()
        let ghosts = store.collection(named: "ghosts")
        #expect(try ghosts.renameField(FieldPath("a"), to: FieldPath("b")).documentsChanged == 0)
        #expect(try store.collections().isEmpty)
    }

    @Test func observersSeeTheChangedDocuments() async throws {
        let (_, players) = try collection([try json(#"{"id": 1, "nickName": "A"}"#), try json(#"{"id": 2}"#)])
        var changes = players.changes().makeAsyncIterator()
        try players.renameField(FieldPath("nickName"), to: FieldPath("nickname"))
        let changeSet = try #require(try await changes.next())
        #expect(changeSet.updated == [.integer(1)])
    }
}
