import Foundation
import Testing
@testable import DocStore

struct QueryPlayer: Codable, Identifiable, Equatable {
    var id: Int
    var lastName: String
    var number: Int
    var teamId: Int
    var nickname: String?
    var tags: [String]
}

let samplePlayers = [
    QueryPlayer(id: 1, lastName: "Pedroia", number: 15, teamId: 1, nickname: "Laser", tags: ["infield"]),
    QueryPlayer(id: 2, lastName: "Ortiz", number: 34, teamId: 1, nickname: "Big Papi", tags: ["dh", "legend"]),
    QueryPlayer(id: 3, lastName: "Jones", number: 10, teamId: 2, nickname: nil, tags: []),
    QueryPlayer(id: 4, lastName: "Machado", number: 13, teamId: 2, nickname: nil, tags: ["infield", "injured"]),
    QueryPlayer(id: 5, lastName: "Longoria", number: 3, teamId: 3, nickname: "Evan", tags: ["infield"]),
]

private let teamId = FieldPath("teamId")
private let number = FieldPath("number")
private let lastName = FieldPath("lastName")

@Suite("Indexes: creation, catalog, EXPLAIN QUERY PLAN")
struct IndexTests {
    func players() throws -> (DocumentStore, DocumentCollection<QueryPlayer>) {
        let store = try DocumentStore.inMemory()
        let players = store.collection(QueryPlayer.self, named: "players")
        try players.insert(contentsOf: samplePlayers)
        return (store, players)
    }

    @Test func equalityRangeAndSortOnAnIndexedFieldUseTheIndex() throws {
        let (_, players) = try players()
        #expect(try !players.explain(DocumentQuery(.compare(teamId, .equal, 1))).usesIndex, "no index yet: a scan")
        let index = try players.createIndex(on: [teamId])
        for query in [
            DocumentQuery(.compare(teamId, .equal, 1)),
            DocumentQuery(.compare(teamId, .greater, 1)),
            DocumentQuery(.and([.compare(teamId, .greaterOrEqual, 1), .compare(teamId, .less, 3)])),
            DocumentQuery(.isIn(teamId, [1, 3])),
            DocumentQuery(.isNull(teamId)),
            DocumentQuery(sort: [SortKey(teamId)]),
        ] {
            let explanation = try players.explain(query)
            #expect(explanation.plan.contains { $0.contains("USING INDEX \(index.name)") }, "\(query.condition): \(explanation)")
            if !query.sort.isEmpty {
                #expect(!explanation.plan.contains { $0.contains("TEMP B-TREE") }, "sorted by the index: \(explanation)")
            }
        }
        #expect(try players.fetch(DocumentQuery(.compare(teamId, .greater, 1), sort: [SortKey(teamId)])).map(\.id) == [3, 4, 5])
    }

    @Test func compoundIndexServesEqualityThenRangeAndSort() throws {
        let (_, players) = try players()
        let index = try players.createIndex(on: [teamId, number])
        let equalityAndRange = try players.explain(DocumentQuery(.and([.compare(teamId, .equal, 2), .compare(number, .greater, 10)])))
        #expect(equalityAndRange.plan.contains { $0.contains("USING INDEX \(index.name)") }, "\(equalityAndRange)")
        let sorted = try players.explain(DocumentQuery(.compare(teamId, .equal, 1), sort: [SortKey(number)]))
        #expect(sorted.plan.contains { $0.contains("USING INDEX \(index.name)") } && !sorted.plan.contains { $0.contains("TEMP B-TREE") },
                "\(sorted)")
        let both = try players.explain(DocumentQuery(sort: [SortKey(teamId), SortKey(number)]))
        #expect(both.plan.contains { $0.contains("USING INDEX \(index.name)") } && !both.plan.contains { $0.contains("TEMP B-TREE") },
                "\(both)")
        #expect(try players.fetch(DocumentQuery(.compare(teamId, .equal, 2), sort: [SortKey(number)])).map(\.id) == [3, 4])
    }

    @Test func indexesAreRecordedListedAndDropped() throws {
        let (store, players) = try players()
        let first = try players.createIndex(on: [teamId])
        #expect(try players.createIndex(on: [teamId]) == first, "creating it again is a no-op")
        let second = try players.createIndex(on: [lastName, number], unique: true)
        #expect(first.name != second.name)
        #expect(try players.indexes() == [first, second])
        #expect(second.fields == [lastName, number] && second.isUnique && second.collection == "players")
        #expect(try players.dropIndex(on: [teamId]))
        #expect(try !players.dropIndex(on: [teamId]))
        #expect(try players.indexes() == [second])
        #expect(try !players.explain(DocumentQuery(.compare(teamId, .equal, 1))).usesIndex)
        #expect(try store.dropCollection(named: "players"))
        #expect(try players.indexes().isEmpty, "dropping the collection drops its indexes")
    }

    @Test func anIndexDeclaredBeforeTheFirstDocumentIsBuiltWithTheCollection() throws {
        let store = try DocumentStore.inMemory()
        let players = store.collection(QueryPlayer.self, named: "players")
        let index = try players.createIndex(on: [teamId], unique: false)
        try players.insert(contentsOf: samplePlayers)
        #expect(try players.explain(DocumentQuery(.compare(teamId, .equal, 1))).plan.contains { $0.contains(index.name) })
        let tagged = store.collection(Tagged.self)
        try tagged.createIndex(on: FieldPath("value"), unique: true)
        try tagged.insert(Tagged(id: "a", value: 1))
        #expect(throws: DocStoreError.self) { try tagged.insert(Tagged(id: "b", value: 1)) }
    }

    @Test func uniqueViolationsNameCollectionFieldsAndKey() throws {
        let (_, players) = try players()
        try players.createIndex(on: [teamId, number], unique: true)
        var clash = samplePlayers[0]
        clash.id = 9
        func check(_ error: DocStoreError, key: DocumentKey?) {
            guard case let .uniqueConstraint(collection, fields, actualKey) = error else {
                Issue.record("expected uniqueConstraint, got \(error)"); return
            }
            #expect(collection == "players")
            #expect(fields == ["teamId", "number"])
            #expect(actualKey == key)
            #expect("\(error)".contains("teamId, number") && "\(error)".contains("\"players\""))
        }
        check(try #require(throws: DocStoreError.self) { try players.insert(clash) }, key: .integer(9))
        check(try #require(throws: DocStoreError.self) { try players.save(clash) }, key: .integer(9))
        check(try #require(throws: DocStoreError.self) { try players.update(3) { $0.number = 13 } }, key: .integer(3))
        // Update by query: players 3 and 4 (team 2) would both get number 99.
        let byQuery = try #require(throws: DocStoreError.self) {
            try players.update(DocumentQuery(.compare(teamId, .equal, 2)), [.set(number, 99)])
        }
        check(byQuery, key: .integer(4))
        #expect(try players.fetch(DocumentQuery(.compare(teamId, .equal, 2))).map(\.number) == [10, 13], "nothing changed")
        // Missing fields never conflict.
        try players.createIndex(on: [FieldPath("nickname")], unique: true)
        var unnamed = samplePlayers[2]
        unnamed.id = 10
        unnamed.number = 77
        try players.insert(unnamed)
    }

    @Test func aUniqueIndexOverDuplicatesFailsAndChangesNothing() throws {
        let (_, players) = try players()
        let error = try #require(throws: DocStoreError.self) { try players.createIndex(on: [teamId], unique: true) }
        guard case let .duplicateIndexValues(collection, fields, keys) = error else {
            Issue.record("expected duplicateIndexValues, got \(error)"); return
        }
        #expect(collection == "players" && fields == ["teamId"] && keys == [1, 2].map { DocumentKey.integer($0) })
        #expect("\(error)".contains("documents 1, 2"))
        #expect(try players.indexes().isEmpty)
    }

    @Test func fieldsNoJSONPathCanNameAreQueryableButNotIndexable() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(["id": 1, "say \"hi\"": 5, "a\\b": "x"])
        try docs.insert(["id": 2, "say \"hi\"": 6])
        let quoted = FieldPath("say \"hi\"")
        #expect(try docs.keys(DocumentQuery(.compare(quoted, .equal, 5))) == [.integer(1)])
        #expect(try docs.keys(DocumentQuery(.compare(FieldPath("a\\b"), .equal, "x"))) == [.integer(1)])
        let error = try #require(throws: DocStoreError.self) { try docs.createIndex(on: [quoted]) }
        guard case let .invalidQuery(collection, field, _) = error else { Issue.record("\(error)"); return }
        #expect(collection == "docs" && field == quoted.description)
        #expect("\(error)".contains("say"))
    }
}
