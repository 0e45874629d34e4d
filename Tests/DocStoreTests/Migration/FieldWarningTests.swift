import Foundation
import Synchronization
import Testing
@testable import DocStore

@Suite("Field names checked against the documents")
struct FieldWarningTests {
    private func players() throws -> (DocumentStore, DocumentCollection<JSONValue>) {
        let store = try DocumentStore.inMemory()
        let players = store.collection(named: "players")
        try players.insert(contentsOf: [
            ["id": 1, "nickname": "Big Papi", "stats": ["hr": 541]],
            ["id": 2, "lastName": "Napoli", "tags": ["veteran"]],
        ])
        return (store, players)
    }

    @Test func aTypoIsReportedWithTheClosestFieldAndTheQueryStillRuns() throws {
        let (store, players) = try players()
        let warnings = Mutex<[String]>([])
        store.fieldWarningHandler = { warning in warnings.withLock { $0.append(warning.description) } }
        #expect(try players.filter { $0.nickName == "Big Papi" }.count() == 0, "the query runs as asked")
        #expect(warnings.withLock { $0 } == [#"no document in "players" has a field nickName; did you mean nickname?"#])
        #expect(try players.filter { $0.nickname == "Big Papi" }.count() == 1)
        #expect(try players.filter { $0.stats.hr > 500; $0.tags[0] == "veteran" }.count() == 0)
        #expect(try players.filter { $0.nickname == nil }.sorted { $0.lastName }.fetch().count == 1)
        #expect(warnings.withLock { $0.count } == 1, "known fields, nested ones and array elements are not warned about")
        _ = try players.filter { $0.stats.HR > 500 }.fetch()
        #expect(warnings.withLock { $0.last } == #"no document in "players" has a field stats.HR; did you mean stats.hr?"#)
    }

    @Test func anIndexedFieldIsKnownEvenBeforeAnyDocumentHasIt() throws {
        let (_, players) = try players()
        #expect(try players.unknownFields([FieldPath("email")]).map(\.field) == [FieldPath("email")])
        try players.createIndex(on: FieldPath("email"))
        #expect(try players.unknownFields([FieldPath("email")]).isEmpty)
    }

    @Test func theSampleFollowsWritesAndAnEmptyCollectionWarnsNothing() throws {
        let (store, players) = try players()
        let query = DocumentQuery(.compare(FieldPath("position"), .equal, "C"), sort: [SortKey(FieldPath("number"))])
        #expect(try players.unknownFields(in: query).map(\.field) == [FieldPath("position"), FieldPath("number")])
        try players.insert(["id": 3, "position": "C"])
        #expect(try players.unknownFields(in: query).map(\.field) == [FieldPath("number")])
        try players.renameField(FieldPath("position"), to: FieldPath("pos"))
        #expect(try players.unknownFields(in: query).map(\.description) == [
            #"no document in "players" has a field position"#,
            #"no document in "players" has a field number"#,
        ], "the rename is seen at once")
        #expect(try store.collection(named: "empty").unknownFields([FieldPath("anything")]).isEmpty)
    }

    @Test func aLargeCollectionIsSampledAndSaysSo() throws {
        let store = try DocumentStore.inMemory()
        let big = store.collection(named: "big")
        try big.insert(contentsOf: (1...500).map { ["id": .integer(Int64($0)), "value": .integer(Int64($0))] as JSONValue })
        let warning = try #require(try big.unknownFields([FieldPath("valeu")]).first)
        #expect(warning.description == #"no sampled document in "big" has a field valeu; did you mean value?"#)
    }

    @Test func typedCollectionsAreNotCheckedUnlessAsked() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(Team.self).insert(contentsOf: sampleTeams)
        let calls = Mutex(0)
        store.fieldWarningHandler = { _ in calls.withLock { $0 += 1 } }
        _ = try store.collection(Team.self).fetch(DocumentQuery(.compare(FieldPath("nickname"), .equal, "Rays")))
        #expect(calls.withLock { $0 } == 0)
        #expect(try store.collection(Team.self).unknownFields([FieldPath("nickname")]).first?.suggestion == "nickName")
    }
}
