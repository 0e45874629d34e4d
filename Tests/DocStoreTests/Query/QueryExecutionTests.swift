import Foundation
import Testing
@testable import DocStore

private let teamId = FieldPath("teamId")
private let number = FieldPath("number")
private let nickname = FieldPath("nickname")
private let tags = FieldPath("tags")

@Suite("Query execution on collections")
struct QueryExecutionTests {
    func players() throws -> DocumentCollection<QueryPlayer> {
        let players = try DocumentStore.inMemory().collection(QueryPlayer.self, named: "players")
        try players.insert(contentsOf: samplePlayers)
        return players
    }

    @Test func fetchFirstCountExistsKeysAndForEach() throws {
        let players = try players()
        let query = DocumentQuery(.and([.compare(teamId, .lessOrEqual, 2), .not(.arrayContains(tags, "injured"))]),
                                  sort: [SortKey(number, descending: true)])
        #expect(try players.fetch(query).map(\.id) == [2, 1, 3])
        #expect(try players.first(query)?.id == 2)
        #expect(try players.count(query) == 3)
        #expect(try players.keys(query) == [2, 1, 3].map { DocumentKey.integer($0) })
        var streamed: [Int] = []
        try players.forEach(query) { player in
            streamed.append(player.id)
            _ = try players.count(query)  // other reads inside the loop are fine
        }
        #expect(streamed == [2, 1, 3])
        #expect(try players.exists(query))
        #expect(try !players.exists(DocumentQuery(.compare(teamId, .equal, 99))))
        var paged = query
        paged.limit = 1
        paged.offset = 1
        #expect(try players.fetch(paged).map(\.id) == [1])
        #expect(try players.count(paged) == 1)
    }

    @Test func nilAndNotEqualFollowSwift() throws {
        let players = try players()
        #expect(try players.keys(DocumentQuery(.isNull(nickname))) == [3, 4].map { DocumentKey.integer($0) })
        // `!=` is true for a missing field, as `Optional != value` is in Swift.
        #expect(try players.keys(DocumentQuery(.compare(nickname, .notEqual, "Laser"))) == [2, 3, 4, 5].map { DocumentKey.integer($0) })
        let swift = samplePlayers.filter { $0.nickname != "Laser" }.map(\.id)
        #expect(swift == [2, 3, 4, 5])
        #expect(try players.keys(DocumentQuery(.not(.compare(nickname, .less, "M")))) == [3, 4].map { DocumentKey.integer($0) })
    }

    @Test func selectReturnsOneRowPerDocument() throws {
        let players = try players()
        let rows = try players.select(DocumentQuery(.compare(teamId, .equal, 2)), fields: [FieldPath("lastName"), nickname, tags])
        #expect(rows == [["Jones", .null, []], ["Machado", .null, ["infield", "injured"]]])
    }

    @Test func aggregates() throws {
        let players = try players()
        let all = DocumentQuery()
        #expect(try players.aggregate(all, .count) == 5)
        #expect(try players.aggregate(all, .min(number)) == 3)
        #expect(try players.aggregate(all, .max(nickname)) == "Laser")
        #expect(try players.aggregate(all, .sum(number)) == .integer(75))
        #expect(try players.aggregate(all, .average(number)) == .double(15))
        #expect(try players.aggregate(DocumentQuery(.compare(teamId, .equal, 9)), .average(number)) == .null)
        #expect(try players.aggregate(DocumentQuery(.compare(teamId, .equal, 9)), .sum(number)) == .integer(0))
        #expect(try players.aggregate(all, .distinct(teamId)) == [1, 2, 3])
        #expect(try players.aggregate(all, .distinct(nickname)) == [nil, "Big Papi", "Evan", "Laser"])
        #expect(try players.aggregate(all, .countBy(teamId))
                == [["value": 1, "count": 2], ["value": 2, "count": 2], ["value": 3, "count": 1]])
        #expect(try players.aggregate(DocumentQuery(sort: [SortKey(number)], limit: 2), .sum(number)) == 13, "limit applies first")

        let docs = try DocumentStore.inMemory().collection(named: "docs")
        try docs.insert(contentsOf: [["id": 1, "v": 2], ["id": 2, "v": 2.5], ["id": 3, "v": "9"], ["id": 4, "v": true]])
        #expect(try docs.aggregate(DocumentQuery(), .sum(FieldPath("v"))) == .double(4.5), "numbers only")
        #expect(try docs.aggregate(DocumentQuery(), .max(FieldPath("v"))) == "9", "strings sort after numbers")
        #expect(try docs.aggregate(DocumentQuery(), .min(FieldPath("v"))) == true, "booleans sort before numbers")
        try docs.insert(contentsOf: [["id": 5, "v": .integer(Int64.max)], ["id": 6, "v": 1]])
        #expect(throws: DocStoreError.self) { try docs.aggregate(DocumentQuery(.isIn(FieldPath("v"), [.integer(Int64.max), 1])), .sum(FieldPath("v"))) }
    }

    @Test func deleteByQueryCountsAndRespectsLimit() throws {
        let players = try players()
        #expect(try players.delete(DocumentQuery(.compare(teamId, .equal, 30))) == 0)
        #expect(try players.delete(DocumentQuery(.compare(teamId, .lessOrEqual, 2), sort: [SortKey(number)], limit: 1)) == 1)
        #expect(try players.get(3) == nil, "the lowest number of teams 1–2 was deleted")
        #expect(try players.delete(DocumentQuery(.compare(teamId, .equal, 1))) == 2)
        #expect(try players.keys() == [4, 5].map { DocumentKey.integer($0) })
        let empty = try DocumentStore.inMemory().collection(QueryPlayer.self, named: "players")
        #expect(try empty.delete(DocumentQuery()) == 0)
    }

    @Test func updateByQuerySetsIncrementsAndRemoves() throws {
        let players = try players()
        let changed = try players.update(DocumentQuery(.compare(teamId, .equal, 1)),
                                         [.increment(number, 1), .set(FieldPath("stats", "games"), 162), .remove(nickname)])
        #expect(changed == 2)
        #expect(try players.fetch(DocumentQuery(.compare(teamId, .equal, 1))).map(\.number) == [16, 35])
        #expect(try players.get(1)?.nickname == nil)
        let untyped = players.store.collection(named: "players")
        #expect(try untyped.get(1)?["stats"] == ["games": 162], "set creates the missing parent")
        #expect(try players.get(3)?.number == 10, "other documents untouched")
        #expect(try untyped.update(DocumentQuery(.compare(teamId, .equal, 2)), [.increment(FieldPath("ratio"), 0.1)]) == 2)
        #expect(try untyped.update(DocumentQuery(.compare(teamId, .equal, 2)), [.increment(FieldPath("ratio"), 0.2)]) == 2)
        let stored = try untyped.select(DocumentQuery(.compare(FieldPath("id"), .equal, 3)), fields: [FieldPath("ratio")])
        #expect(stored == [[.double(0.1 + 0.2)]], "reals are written exactly")
        #expect(throws: DocStoreError.self) { try players.update(DocumentQuery(), [.set(FieldPath("id"), 9)]) }
    }

    @Test func incrementOfANonNumberFailsNamingTheDocumentAndChangesNothing() throws {
        let players = try players()
        let error = try #require(throws: DocStoreError.self) {
            try players.update(DocumentQuery(), [.increment(number, 1), .increment(FieldPath("lastName"), 1)])
        }
        guard case let .invalidUpdate(collection, field, key, _) = error else { Issue.record("\(error)"); return }
        #expect(collection == "players" && field == "lastName" && key == .integer(1))
        #expect(try players.all() == samplePlayers, "nothing changed")
    }

    @Test func explainShowsSQLBindingsAndPlan() throws {
        let players = try players()
        let explanation = try players.explain(DocumentQuery(.compare(FieldPath("lastName"), .equal, "O'Neil")))
        #expect(explanation.bindings == [.text("O'Neil")])
        #expect(!explanation.sql.contains("O'Neil"))
        #expect(explanation.plan.contains { $0.contains("SCAN") })
        #expect("\(explanation)".contains("bindings: \"O'Neil\""))
        #expect("\(explanation)".contains("plan:"))
    }

    @Test func subqueriesSelectKeysOrFieldValuesOfAnotherCollection() throws {
        let players = try players()
        let teams = players.store.collection(Team.self)
        try teams.insert(contentsOf: sampleTeams)
        let boston = Subquery(collection: "teams", condition: .compare(FieldPath("city"), .equal, "Boston"))
        #expect(try players.keys(DocumentQuery(.isInSubquery(teamId, boston))) == [1, 2].map { DocumentKey.integer($0) })
        let byField = Subquery(collection: "teams", condition: .string(FieldPath("city"), .hasPrefix, "T", caseInsensitive: false),
                               field: FieldPath("id"))
        #expect(try players.keys(DocumentQuery(.isInSubquery(teamId, byField))) == [5].map { DocumentKey.integer($0) })
        let nowhere = Subquery(collection: "nowhere", condition: .always)
        #expect(try players.keys(DocumentQuery(.isInSubquery(teamId, nowhere))).isEmpty)
    }

    @Test func inMemoryQueriesFilterAndSortPlainArrays() {
        let documents: [JSONValue] = [["n": 2], ["n": "2"], ["n": 1.5], [:], ["n": true], ["n": [1]]]
        let sorted = documents.sorted(by: [SortKey(FieldPath("n"))])
        #expect(sorted == [[:], ["n": true], ["n": 1.5], ["n": 2], ["n": "2"], ["n": [1]]])
        let query = DocumentQuery(.compare(FieldPath("n"), .greaterOrEqual, 1.5), sort: [SortKey(FieldPath("n"), descending: true)])
        #expect(query.run(on: documents) == [["n": 2], ["n": 1.5]])
        #expect(Condition.string(FieldPath("s"), .contains, "ÉCOLE", caseInsensitive: true).matches(["s": "une école"]))
        #expect(!Condition.string(FieldPath("s"), .contains, "ÉCOLE", caseInsensitive: false).matches(["s": "une école"]))
    }
}
