import Foundation
import GRDB
import Testing
@testable import DocStore

/// Field changes, the same test and the same answers on SQLite and on
/// PostgreSQL (one `UPDATE` of JSON text, or of jsonb).
@Suite("Migrations: field changes", .postgresServer)
struct FieldChangeTests {
    /// A collection of untyped documents, inserted as given, in a new store of `backend`.
    private func withPlayers(
        _ backend: Backend, _ documents: [String],
        _ body: (BackendCollection<JSONValue>, BackendStore) async throws -> Void
    ) async throws {
        try await BackendStore.with(backend) { store async throws in
            let players = store.collection(named: "players")
            try await players.insert(contentsOf: try documents.map { try DocumentCodec.parse($0) })
            try await body(players, store)
        }
    }

    /// The JSON text of every document, by key, with sorted members.
    private func stored(_ collection: BackendCollection<JSONValue>) async throws -> [String] {
        try await collection.all().map { String(decoding: DocumentCodec.serialize($0, options: .sortedKeys), as: UTF8.self) }
    }

    /// The stored JSON text of every document, by key, exactly as SQLite holds it.
    private func rawBodies(_ collection: DocumentCollection<JSONValue>) throws -> [String] {
        try collection.store.databaseWriter.read { db in
            try String.fetchAll(db, sql: "SELECT body FROM \"\(collection.name)\" ORDER BY key")
        }
    }

    @Test(arguments: Backend.allCases)
    func renameMovesEveryValueExactlyAndLeavesOtherDocumentsAlone(backend: Backend) async throws {
        try await withPlayers(backend, [
            #"{"id": 1, "nickName": "Big Papi", "n": 1}"#,
            #"{"id": 2, "nickName": {"first": [1, 2.50, 12345678901234567890]}}"#,
            #"{"id": 3, "nickName": null}"#,
            #"{"id": 4, "other": true}"#,
        ]) { players, _ async throws in
            let untouched = try players.sqlite.map { try rawBodies($0)[3] }
            let summary = try await players.renameField(FieldPath("nickName"), to: FieldPath("nickname"))
            #expect(summary.documentsChanged == 3)
            #expect(try await stored(players) == [
                #"{"id":1,"n":1,"nickname":"Big Papi"}"#,
                #"{"id":2,"nickname":{"first":[1,2.5,12345678901234567890]}}"#,   // every digit kept
                #"{"id":3,"nickname":null}"#,
                #"{"id":4,"other":true}"#,
            ])
            if let sqlite = players.sqlite {
                #expect(try rawBodies(sqlite)[3] == untouched)
                #expect(try rawBodies(sqlite)[1] == #"{"id":2,"nickname":{"first":[1,2.5,12345678901234567890]}}"#)
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func renameIntoANestedPathCreatesItsParents(backend: Backend) async throws {
        try await withPlayers(backend, [#"{"id": 1, "hr": 40}"#, #"{"id": 2, "stats": {"h": 3}, "hr": 7}"#]) { players, _ async throws in
            try await players.renameField(FieldPath("hr"), to: FieldPath("stats", "hr"))
            #expect(try await stored(players) == [#"{"id":1,"stats":{"hr":40}}"#, #"{"id":2,"stats":{"h":3,"hr":7}}"#])
        }
    }

    @Test(arguments: Backend.allCases)
    func anIndexFollowsARenamedFieldAndIsUsedThere(backend: Backend) async throws {
        try await withPlayers(backend, [#"{"id": 1, "nickName": "A", "stats": {"hr": 3}}"#]) { players, store async throws in
            let single = try await players.createIndex(on: FieldPath("nickName"))
            let nested = try await players.createIndex(on: [FieldPath("stats", "hr")], unique: true)
            let untouched = try await players.createIndex(on: FieldPath("id"))
            let renamed = try await players.renameField(FieldPath("nickName"), to: FieldPath("nickname"))
            #expect(renamed.movedIndexes.map(\.name) == [single.name])
            let movedStats = try await players.renameField(FieldPath("stats"), to: FieldPath("batting"))
            #expect(movedStats.movedIndexes == [IndexInfo(name: nested.name, collection: "players",
                                                          fields: [FieldPath("batting", "hr")], isUnique: true)])
            #expect(try await players.indexes().map(\.fields) == [[FieldPath("nickname")], [FieldPath("batting", "hr")], [FieldPath("id")]])
            #expect(try await players.indexes().map(\.name) == [single.name, nested.name, untouched.name])
            #expect(try await players.count(DocumentQuery(.compare(FieldPath("nickname"), .equal, "A"))) == 1)
            if let sqlite = store.sqlite, let collection = players.sqlite {
                // PostgreSQL's planner scans a one-row table whatever its indexes.
                #expect(try collection.explain(DocumentQuery(.compare(FieldPath("nickname"), .equal, "A"))).usesIndex)
                #expect(try collection.explain(DocumentQuery(.compare(FieldPath("batting", "hr"), .equal, 3))).usesIndex)
                #expect(try await sqlite.check().isHealthy, "the catalog and SQLite's indexes agree")
            }
            // The unique index was built again on its new path: it refuses duplicates there.
            let error = try await #require(throws: DocStoreError.self) { try await players.insert(try DocumentCodec.parse(#"{"id": 2, "batting": {"hr": 3}}"#)) }
            guard case .uniqueConstraint(_, let fields, _) = error else { Issue.record("\(error)"); return }
            #expect(fields == ["batting.hr"])
            try await players.insert(try DocumentCodec.parse(#"{"id": 3, "stats": {"hr": 3}}"#))  // the old path is free
        }
    }

    @Test(arguments: Backend.allCases)
    func renamingOntoAnIndexedPathKeepsOneIndex(backend: Backend) async throws {
        try await withPlayers(backend, [#"{"id": 1, "nickName": "A"}"#]) { players, _ async throws in
            let old = try await players.createIndex(on: FieldPath("nickName"))
            let new = try await players.createIndex(on: FieldPath("nickname"))
            let summary = try await players.renameField(FieldPath("nickName"), to: FieldPath("nickname"))
            #expect(summary.droppedIndexes == [old])
            #expect(try await players.indexes() == [new])
        }
    }

    @Test(arguments: Backend.allCases)
    func renameRefusesToOverwriteAndNamesTheDocument(backend: Backend) async throws {
        try await withPlayers(backend, [#"{"id": 1, "nickName": "A"}"#, #"{"id": 2, "nickName": "B", "nickname": "b"}"#]) { players, _ async throws in
            let before = try await stored(players)
            let error = try await #require(throws: DocStoreError.self) { try await players.renameField(FieldPath("nickName"), to: FieldPath("nickname")) }
            guard case .invalidUpdate(let collection, let field, let key, _) = error else { Issue.record("\(error)"); return }
            #expect(collection == "players" && field == "nickname" && key == .integer(2))
            #expect("\(error)".contains("has both nickName and nickname"))
            #expect(try await stored(players) == before)
        }
    }

    /// A value as deep as documents may nest, moved to a deeper path, would
    /// push its document past the limit: stored, but then unreadable ("damaged")
    /// until renamed back. Refused, naming the document; moving it no deeper,
    /// or a shallower value, is fine.
    @Test(arguments: Backend.allCases)
    func aMoveThatWouldNestADocumentPastTheLimitIsRefused(backend: Backend) async throws {
        let limit = DocumentStore.maximumNestingDepth
        let deep = String(repeating: "[", count: limit - 1) + String(repeating: "]", count: limit - 1)
        let almost = String(repeating: "[", count: limit - 2) + String(repeating: "]", count: limit - 2)
        // A string holding a bracket is no nesting.
        try await withPlayers(backend, [#"{"id": 1, "v": ["]"]}"#, #"{"id": 2, "v": "# + almost + "}", #"{"id": 3, "v": "# + deep + "}"]) { players, _ async throws in
            let before = try await stored(players)
            for change in [{ try await players.renameField(FieldPath("v"), to: FieldPath("a", "b")) },
                           { try await players.copyField(FieldPath("v"), to: FieldPath("x", "v")) }] as [() async throws -> FieldChangeSummary] {
                let error = try await #require(throws: DocStoreError.self) { _ = try await change() }
                guard case .invalidUpdate(_, _, .integer(3), let reason) = error else { Issue.record("\(error)"); return }
                #expect(reason.contains("deeper than \(limit) levels"), "\(reason)")
                #expect(try await stored(players) == before)
            }
            #expect(try await players.renameField(FieldPath("v"), to: FieldPath("w")).documentsChanged == 3, "no deeper")
            try await players.delete(3)
            #expect(try await players.renameField(FieldPath("w"), to: FieldPath("a", "b")).documentsChanged == 2)
            #expect(try await players.all().count == 2, "every document reads back")
        }
    }

    /// Deep paths on PostgreSQL: each level wrote its child out three times, so
    /// a path of n parts made 3^n copies of the value; a 9-part copy ran for
    /// minutes and a 10-part one took the server down for memory. Now linear
    /// (a second on its own; the limit is long because the full suite, on a
    /// slow 2-core machine, once held this test up for over a minute: 3^16
    /// copies would still take far longer).
    @Test(.timeLimit(.minutes(10)), arguments: Backend.allCases)
    func deepPathsAreWrittenInTimeLinearInTheirLength(backend: Backend) async throws {
        try await withPlayers(backend, [#"{"id": 1, "v": 7}"#]) { players, _ async throws in
            let deep = FieldPath((0..<16).map { FieldPath.Component.key("p\($0)") })
            #expect(try await players.copyField(FieldPath("v"), to: deep).documentsChanged == 1)
            let moved = FieldPath((0..<16).map { FieldPath.Component.key("q\($0)") })
            #expect(try await players.renameField(deep, to: moved).documentsChanged == 1)
            let set = FieldPath((0..<16).map { FieldPath.Component.key("r\($0)") })
            #expect(try await players.update(DocumentQuery(), [.set(set, 8), .increment(FieldPath("v"), 1)]) == 1)
            let document = try await players.all().first
            var q = document, r = document
            for index in 0..<16 { q = q?["q\(index)"]; r = r?["r\(index)"] }
            #expect(q == 7 && r == 8 && document?["v"] == 8, "\(String(describing: document))")
        }
    }

    @Test(arguments: Backend.allCases)
    func aPathThroughAValueThatIsNotAnObjectIsRefused(backend: Backend) async throws {
        try await withPlayers(backend, [
            #"{"id": 1, "hr": 1}"#, #"{"id": 2, "hr": 2, "stats": [1]}"#, #"{"id": 3, "stats": null}"#,
        ]) { players, _ async throws in
            let before = try await stored(players)
            let error = try await #require(throws: DocStoreError.self) { try await players.renameField(FieldPath("hr"), to: FieldPath("stats", "hr")) }
            guard case .invalidUpdate(_, "stats.hr", .integer(2), _) = error else { Issue.record("\(error)"); return }
            let defaultError = try await #require(throws: DocStoreError.self) { try await players.setDefault(FieldPath("stats", "hr"), to: .integer(0)) }
            guard case .invalidUpdate(_, "stats.hr", .integer(2), _) = defaultError else { Issue.record("\(defaultError)"); return }
            #expect(try await stored(players) == before)
        }
    }

    @Test(arguments: Backend.allCases)
    func badPathsAreRefusedWithTheirReason(backend: Backend) async throws {
        try await withPlayers(backend, [#"{"id": 1, "a": {"b": 1}}"#]) { players, _ async throws in
            var cases: [(String, () async throws -> FieldChangeSummary, String)] = [
                ("overlap", { try await players.renameField(FieldPath("a"), to: FieldPath("a", "c")) }, "overlap"),
                ("same", { try await players.copyField(FieldPath("a"), to: FieldPath("a")) }, "overlap"),
                ("key", { try await players.renameField(FieldPath("id"), to: FieldPath("key")) }, "the id is the document's key"),
                ("into key", { try await players.copyField(FieldPath("a"), to: FieldPath("id")) }, "the id is the document's key"),
                ("position", { try await players.renameField(FieldPath("a"), to: FieldPath([.key("t"), .index(0)])) }, "array positions"),
                ("root", { try await players.removeField(.root) }, "not the whole document"),
            ]
            if backend == .sqlite {  // jsonb names any member; SQLite 3.40's JSON paths can't
                cases.append(("quote", { try await players.renameField(FieldPath("a"), to: FieldPath("say \"hi\"")) }, "JSON paths can't name this field"))
            }
            for (name, change, reason) in cases {
                let error = try await #require(throws: DocStoreError.self, "\(name)") { try await change() }
                #expect("\(error)".contains(reason), "\(name): \(error)")
            }
            #expect(try await stored(players) == [#"{"a":{"b":1},"id":1}"#])
        }
    }

    @Test(arguments: Backend.allCases)
    func copyKeepsTheSourceAndRefusesToOverwrite(backend: Backend) async throws {
        try await withPlayers(backend, [#"{"id": 1, "a": [1, {"x": 2}]}"#, #"{"id": 2}"#]) { players, _ async throws in
            #expect(try await players.copyField(FieldPath("a"), to: FieldPath("b")).documentsChanged == 1)
            #expect(try await stored(players) == [#"{"a":[1,{"x":2}],"b":[1,{"x":2}],"id":1}"#, #"{"id":2}"#])
            await #expect(throws: DocStoreError.self) { try await players.copyField(FieldPath("a"), to: FieldPath("b")) }
        }
    }

    @Test(arguments: Backend.allCases)
    func removeDropsIndexesOnTheFieldAndReportsThem(backend: Backend) async throws {
        try await withPlayers(backend, [#"{"id": 1, "stats": {"hr": 1}, "n": 2}"#, #"{"id": 2, "n": 3}"#]) { players, store async throws in
            let inside = try await players.createIndex(on: [FieldPath("n"), FieldPath("stats", "hr")])
            let kept = try await players.createIndex(on: FieldPath("n"))
            let summary = try await players.removeField(FieldPath("stats"))
            #expect(summary.documentsChanged == 1)
            #expect(summary.droppedIndexes == [inside])
            #expect("\(summary)".contains("dropped index \(inside.name) on (n, stats.hr)"))
            #expect(try await players.indexes() == [kept])
            #expect(try await stored(players) == [#"{"id":1,"n":2}"#, #"{"id":2,"n":3}"#])
            if let sqlite = store.sqlite { #expect(try await sqlite.check().isHealthy) }
        }
    }

    @Test(arguments: Backend.allCases)
    func setDefaultFillsMissingAndNullOnly(backend: Backend) async throws {
        try await withPlayers(backend, [#"{"id": 1}"#, #"{"id": 2, "active": null}"#, #"{"id": 3, "active": false}"#]) { players, _ async throws in
            #expect(try await players.setDefault(FieldPath("active"), to: .bool(true)).documentsChanged == 2)
            #expect(try await stored(players) == [#"{"active":true,"id":1}"#, #"{"active":true,"id":2}"#, #"{"active":false,"id":3}"#])
            #expect(try await players.setDefault(FieldPath("stats", "games"), to: ["played": 0]).documentsChanged == 3)
            #expect(try await stored(players)[0] == #"{"active":true,"id":1,"stats":{"games":{"played":0}}}"#)
            await #expect(throws: DocStoreError.self) { try await players.setDefault(FieldPath("x"), to: .double(.nan)) }
        }
    }

    /// A body that is not an object (written by another tool) takes no
    /// default, and is not counted as changed (it was: 3 for 1). PostgreSQL's
    /// side is in the check test, which damages bodies with psql.
    @Test func setDefaultCountsNoBodyThatIsNotAnObject() throws {
        let players = try DocumentStore.inMemory().collection(named: "players")
        try players.insert(contentsOf: [["id": 1], ["id": 2], ["id": 3]])
        try players.store.databaseWriter.write { db in
            try db.execute(sql: #"UPDATE players SET body = '[1,2]' WHERE key = 2; UPDATE players SET body = '7' WHERE key = 3"#)
        }
        #expect(try players.setDefault(FieldPath("x"), to: 1).documentsChanged == 1)
        #expect(try rawBodies(players) == [#"{"id":1,"x":1}"#, "[1,2]", "7"])
    }

    @Test(arguments: Backend.allCases)
    func aUniqueIndexRefusingADefaultLeavesEverythingAsItWas(backend: Backend) async throws {
        try await withPlayers(backend, [#"{"id": 1}"#, #"{"id": 2}"#]) { players, _ async throws in
            try await players.createIndex(on: FieldPath("email"), unique: true)
            let error = try await #require(throws: DocStoreError.self) { try await players.setDefault(FieldPath("email"), to: .string("x")) }
            guard case .uniqueConstraint(_, let fields, _) = error else { Issue.record("\(error)"); return }
            #expect(fields == ["email"])
            #expect(try await stored(players) == [#"{"id":1}"#, #"{"id":2}"#])
        }
    }

    @Test(arguments: Backend.allCases)
    func aChangeToACollectionThatDoesNotExistChangesNothing(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let ghosts = store.collection(named: "ghosts")
            #expect(try await ghosts.renameField(FieldPath("a"), to: FieldPath("b")).documentsChanged == 0)
            #expect(try await store.collectionNames().isEmpty)
        }
    }

    @Test func observersSeeTheChangedDocuments() async throws {
        let store = try DocumentStore.inMemory()
        let players = store.collection(named: "players")
        try await players.insert(contentsOf: [["id": 1, "nickName": "A"], ["id": 2]])
        var changes = players.changes().makeAsyncIterator()
        try players.renameField(FieldPath("nickName"), to: FieldPath("nickname"))
        let changeSet = try #require(try await changes.next())
        #expect(changeSet.updated == [.integer(1)])
    }
}
