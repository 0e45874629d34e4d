import Foundation
import Testing
@testable import DocStore

private let teamId = FieldPath("teamId")
private let number = FieldPath("number")
private let nickname = FieldPath("nickname")
private let tags = FieldPath("tags")

/// Query semantics on a collection, the same test and the same answers on each
/// backend: SQLite, and PostgreSQL (a private server for the suite).
@Suite("Query execution on collections", .postgresServer)
struct QueryExecutionTests {
    /// The sample players in a new store of `backend`, for `body`.
    func withPlayers(_ backend: Backend, _ body: (BackendCollection<QueryPlayer>, BackendStore) async throws -> Void) async throws {
        try await BackendStore.with(backend) { store in
            let players = store.collection(QueryPlayer.self, named: "players")
            try await players.insert(contentsOf: samplePlayers)
            try await body(players, store)
        }
    }

    @Test(arguments: Backend.allCases)
    func fetchFirstCountExistsKeys(backend: Backend) async throws {
        try await withPlayers(backend) { players, _ async throws in
            let query = DocumentQuery(.and([.compare(teamId, .lessOrEqual, 2), .not(.arrayContains(tags, "injured"))]),
                                      sort: [SortKey(number, descending: true)])
            #expect(try await players.fetch(query).map(\.id) == [2, 1, 3])
            #expect(try await players.count(query) == 3)
            #expect(try await players.keys(query) == [2, 1, 3].map { DocumentKey.integer($0) })
            #expect(try await players.count(DocumentQuery(.compare(teamId, .equal, 99))) == 0)
            var paged = query
            paged.limit = 1
            paged.offset = 1
            #expect(try await players.fetch(paged).map(\.id) == [1])
            #expect(try await players.count(paged) == 1)
        }
    }

    @Test(arguments: Backend.allCases)
    func nilAndNotEqualFollowSwift(backend: Backend) async throws {
        try await withPlayers(backend) { players, _ async throws in
            #expect(try await players.keys(DocumentQuery(.isNull(nickname))) == [3, 4].map { DocumentKey.integer($0) })
            // `!=` is true for a missing field, as `Optional != value` is in Swift.
            #expect(try await players.keys(DocumentQuery(.compare(nickname, .notEqual, "Laser"))) == [2, 3, 4, 5].map { DocumentKey.integer($0) })
            let swift = samplePlayers.filter { $0.nickname != "Laser" }.map(\.id)
            #expect(swift == [2, 3, 4, 5])
            #expect(try await players.keys(DocumentQuery(.not(.compare(nickname, .less, "M")))) == [3, 4].map { DocumentKey.integer($0) })
        }
    }

    @Test(arguments: Backend.allCases)
    func selectReturnsOneRowPerDocument(backend: Backend) async throws {
        try await withPlayers(backend) { players, _ async throws in
            let rows = try await players.select(DocumentQuery(.compare(teamId, .equal, 2)), fields: [FieldPath("lastName"), nickname, tags])
            #expect(rows == [["Jones", .null, []], ["Machado", .null, ["infield", "injured"]]])
        }
    }

    @Test(arguments: Backend.allCases)
    func aggregates(backend: Backend) async throws {
        try await withPlayers(backend) { players, store async throws in
            let all = DocumentQuery()
            #expect(try await players.aggregate(all, .count) == 5)
            #expect(try await players.aggregate(all, .min(number)) == 3)
            #expect(try await players.aggregate(all, .max(nickname)) == "Laser")
            #expect(try await players.aggregate(all, .sum(number)) == .integer(75))
            #expect(try await players.aggregate(all, .average(number)) == .double(15))
            #expect(try await players.aggregate(DocumentQuery(.compare(teamId, .equal, 9)), .average(number)) == .null)
            #expect(try await players.aggregate(DocumentQuery(.compare(teamId, .equal, 9)), .sum(number)) == .integer(0))
            #expect(try await players.aggregate(all, .distinct(teamId)) == [1, 2, 3])
            #expect(try await players.aggregate(all, .distinct(nickname)) == [nil, "Big Papi", "Evan", "Laser"])
            #expect(try await players.aggregate(all, .countBy(teamId))
                    == [["value": 1, "count": 2], ["value": 2, "count": 2], ["value": 3, "count": 1]])
            #expect(try await players.aggregate(DocumentQuery(sort: [SortKey(number)], limit: 2), .sum(number)) == 13, "limit applies first")

            let docs = store.collection(named: "docs")
            try await docs.insert(contentsOf: [["id": 1, "v": 2], ["id": 2, "v": 2.5], ["id": 3, "v": "9"], ["id": 4, "v": true]])
            #expect(try await docs.aggregate(DocumentQuery(), .sum(FieldPath("v"))) == .double(4.5), "numbers only")
            #expect(try await docs.aggregate(DocumentQuery(), .max(FieldPath("v"))) == "9", "strings sort after numbers")
            #expect(try await docs.aggregate(DocumentQuery(), .min(FieldPath("v"))) == true, "booleans sort before numbers")
            // Reals past a Double's range are an error, as integers past Int64
            // are (SQLite's infinity came out as null; PostgreSQL's own error
            // printed 309 digits).
            let huge = store.collection(named: "huge")
            try await huge.insert(contentsOf: [["id": 1, "a": 1e308], ["id": 2, "a": 1e308]])
            for aggregate in [Aggregate.sum(FieldPath("a")), .average(FieldPath("a"))] {
                do {
                    let value = try await huge.aggregate(DocumentQuery(), aggregate)
                    Issue.record("\(aggregate) gave \(value)")
                } catch {
                    #expect(error.localizedDescription.contains("goes past a Double's range"), "\(error)")
                }
            }
            let tenfold = QueryPipeline(DocumentQuery(), stages: [.select([
                NamedExpression("d", .arithmetic(.multiply, .double(.field(FieldPath("a"))), .literal(10))),
            ])])
            do {
                let rows = try await huge.rows(tenfold)
                Issue.record("gave \(rows)")
            } catch {
                #expect(error.localizedDescription.contains("goes past a Double's range"), "\(error)")
            }
            // Missing and null are one value (PostgreSQL once grouped them apart).
            let nulls = store.collection(named: "nulls")
            try await nulls.insert(contentsOf: [["id": 1, "v": nil], ["id": 2], ["id": 3, "v": 1], ["id": 4, "v": nil]])
            #expect(try await nulls.aggregate(DocumentQuery(), .distinct(FieldPath("v"))) == [nil, 1])
            #expect(try await nulls.aggregate(DocumentQuery(), .countBy(FieldPath("v"))) == [["value": nil, "count": 3], ["value": 1, "count": 1]])
            try await docs.insert(contentsOf: [["id": 5, "v": .integer(Int64.max)], ["id": 6, "v": 1]])
            await #expect(throws: DocStoreError.self) {
                try await docs.aggregate(DocumentQuery(.isIn(FieldPath("v"), [.integer(Int64.max), 1])), .sum(FieldPath("v")))
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func deleteByQueryCountsAndRespectsLimit(backend: Backend) async throws {
        try await withPlayers(backend) { players, store async throws in
            #expect(try await players.delete(DocumentQuery(.compare(teamId, .equal, 30))) == 0)
            #expect(try await players.delete(DocumentQuery(.compare(teamId, .lessOrEqual, 2), sort: [SortKey(number)], limit: 1)) == 1)
            #expect(try await players.get(3) == nil, "the lowest number of teams 1–2 was deleted")
            #expect(try await players.delete(DocumentQuery(.compare(teamId, .equal, 1))) == 2)
            #expect(try await players.keys() == [4, 5].map { DocumentKey.integer($0) })
            let empty = store.collection(QueryPlayer.self, named: "empty")
            #expect(try await empty.delete(DocumentQuery()) == 0)
        }
    }

    @Test(arguments: Backend.allCases)
    func updateByQuerySetsIncrementsAndRemoves(backend: Backend) async throws {
        try await withPlayers(backend) { players, store async throws in
            let changed = try await players.update(DocumentQuery(.compare(teamId, .equal, 1)),
                                                   [.increment(number, 1), .set(FieldPath("stats", "games"), 162), .remove(nickname)])
            #expect(changed == 2)
            #expect(try await players.fetch(DocumentQuery(.compare(teamId, .equal, 1))).map(\.number) == [16, 35])
            #expect(try await players.get(1)?.nickname == nil)
            let untyped = store.collection(named: "players")
            #expect(try await untyped.get(1)?["stats"] == ["games": 162], "set creates the missing parent")
            #expect(try await players.get(3)?.number == 10, "other documents untouched")
            #expect(try await untyped.update(DocumentQuery(.compare(teamId, .equal, 2)), [.increment(FieldPath("ratio"), 0.1)]) == 2)
            #expect(try await untyped.update(DocumentQuery(.compare(teamId, .equal, 2)), [.increment(FieldPath("ratio"), 0.2)]) == 2)
            let stored = try await untyped.select(DocumentQuery(.compare(FieldPath("id"), .equal, 3)), fields: [FieldPath("ratio")])
            #expect(stored == [[.double(0.1 + 0.2)]], "reals are written exactly")
            // Position 0 of a missing array creates it; the end appends.
            #expect(try await untyped.update(DocumentQuery(.compare(FieldPath("id"), .equal, 5)),
                                             [.set(FieldPath([.key("list"), .index(0)]), "a"), .set(FieldPath([.key("tags"), .index(1)]), "new")]) == 1)
            let five = try await untyped.get(5)
            #expect(five?["lastName"] == "Longoria" && five?["list"] == ["a"] && five?["tags"] == ["infield", "new"], "\(String(describing: five))")
            #expect(try await untyped.update(DocumentQuery(.compare(FieldPath("id"), .equal, 5)),
                                             [.remove(FieldPath([.key("tags"), .index(0)])), .remove(FieldPath("lastName", "x"))]) == 1)
            #expect(try await untyped.get(5)?["tags"] == ["new"])
        }
    }

    /// `json_set` and `jsonb_set` leave a document as it was when a part of the
    /// path holds a value that can't hold the next part: the update is refused,
    /// naming the document and the part, rather than counted as made.
    @Test(arguments: Backend.allCases)
    func aSetThroughAValueThatCantHoldItFailsNamingTheDocumentAndChangesNothing(backend: Backend) async throws {
        try await withPlayers(backend) { _, store async throws in
            let untyped = store.collection(named: "players")
            let before = try await untyped.all()
            let five = DocumentQuery(.compare(FieldPath("id"), .equal, 5))
            let cases: [(FieldPath, String)] = [
                (FieldPath("lastName", "x"), "lastName is a string there, which has no members"),
                (FieldPath([.key("tags"), .index(5)]), "tags is an array there, which has no element [5]"),
                (FieldPath([.key("tags"), .key("first")]), "tags is an array there, which has no members"),
                (FieldPath([.key("tags"), .index(0), .key("x")]), "tags[0] is a string there, which has no members"),
                (FieldPath([.key("number"), .index(0)]), "number is a number there, which has no elements"),
                (FieldPath([.key("list"), .index(1)]), "list is missing there, and a set makes a new array only for its element [0]"),
                (FieldPath([.key("new"), .key("list"), .index(2)]), "new.list is missing there"),
            ]
            for (path, reason) in cases {
                let error = try await #require(throws: DocStoreError.self) {
                    try await untyped.update(five, [.set(FieldPath("note"), "kept?"), .set(path, 1)])
                }
                guard case let .invalidUpdate(collection, field, key, message) = error else { Issue.record("\(error)"); continue }
                #expect(collection == "players" && field == path.description && key == .integer(5))
                #expect(message.contains(reason), "\(message)")
            }
            for increment in [FieldUpdate.increment(FieldPath("lastName", "x"), 1), .increment(FieldPath([.key("tags"), .index(3)]), 1)] {
                let error = try await #require(throws: DocStoreError.self) { try await untyped.update(five, [.set(FieldPath("note"), "kept?"), increment]) }
                guard case let .invalidUpdate(_, field, key, _) = error else { Issue.record("\(error)"); continue }
                #expect(field == increment.path.description && key == .integer(5), "an increment writes with json_set too")
            }
            #expect(try await untyped.update(five, [.remove(FieldPath("lastName", "x"))]) == 1, "nothing to remove is no error")
            #expect(try await untyped.all() == before, "nothing changed, the other set included")
            #expect(try await untyped.update(five, [.set(FieldPath("newParent", "x"), 1)]) == 1, "a missing part is created")
        }
    }

    /// Each change of an update applies to what the one before it made, so a set
    /// is judged on that document: two appends in a row are fine, and a set past
    /// the end of an array an earlier remove shortened is refused (it used to be
    /// judged on the stored document, let through, and silently dropped).
    @Test(arguments: Backend.allCases)
    func eachSetIsJudgedOnTheDocumentTheChangesBeforeItLeave(backend: Backend) async throws {
        try await withPlayers(backend) { _, store async throws in
            let untyped = store.collection(named: "players")
            let five = DocumentQuery(.compare(FieldPath("id"), .equal, 5))
            func tags(_ index: Int) -> FieldPath { FieldPath([.key("tags"), .index(index)]) }
            #expect(try await untyped.get(5)?["tags"] == ["infield"])
            #expect(try await untyped.update(five, [.set(tags(1), "a"), .set(tags(2), "b")]) == 1)
            #expect(try await untyped.update(five, [.set(FieldPath([.key("list"), .index(0)]), "x"),
                                                    .set(FieldPath([.key("list"), .index(1)]), "y")]) == 1)
            let changed = try await untyped.get(5)
            #expect(changed?["tags"] == ["infield", "a", "b"] && changed?["list"] == ["x", "y"], "\(String(describing: changed))")

            let error = try await #require(throws: DocStoreError.self) {
                try await untyped.update(five, [.remove(tags(0)), .set(tags(3), "z")])
            }
            guard case let .invalidUpdate(_, field, key, message) = error else { Issue.record("\(error)"); return }
            #expect(field == "tags[3]" && key == .integer(5) && message.contains("tags is an array there, which has no element [3]"), "\(message)")
            #expect(try await untyped.get(5) == changed, "nothing changed, the remove included")
        }
    }

    @Test(arguments: Backend.allCases)
    func incrementOfANonNumberFailsNamingTheDocumentAndChangesNothing(backend: Backend) async throws {
        try await withPlayers(backend) { players, _ async throws in
            let error = try await #require(throws: DocStoreError.self) {
                try await players.update(DocumentQuery(), [.increment(number, 1), .increment(FieldPath("lastName"), 1)])
            }
            guard case let .invalidUpdate(collection, field, key, _) = error else { Issue.record("\(error)"); return }
            #expect(collection == "players" && field == "lastName" && key == .integer(1))
            #expect(try await players.all() == samplePlayers, "nothing changed")
        }
    }

    @Test(arguments: Backend.allCases)
    func explainShowsSQLBindingsAndPlan(backend: Backend) async throws {
        try await withPlayers(backend) { players, _ async throws in
            let explanation = try await players.explain(DocumentQuery(.compare(FieldPath("lastName"), .equal, "O'Neil")))
            // PostgreSQL compares a field no index is on with jsonb's own equality, bound as JSON.
            #expect(explanation.bindings == (backend == .sqlite ? [.text("O'Neil")] : [.text("\"O'Neil\"")]))
            #expect(!explanation.sql.contains("O'Neil"))
            #expect(explanation.plan.contains { $0.contains(backend == .sqlite ? "SCAN" : "Seq Scan") })
            #expect("\(explanation)".contains("bindings: ") && "\(explanation)".contains("O'Neil"))
            #expect("\(explanation)".contains("plan:"))
        }
    }

    @Test(arguments: Backend.allCases)
    func subqueriesSelectKeysOrFieldValuesOfAnotherCollection(backend: Backend) async throws {
        try await withPlayers(backend) { players, store async throws in
            try await store.collection(Team.self, named: "teams").insert(contentsOf: sampleTeams)
            let boston = Subquery(collection: "teams", condition: .compare(FieldPath("city"), .equal, "Boston"))
            #expect(try await players.keys(DocumentQuery(.isInSubquery(teamId, boston))) == [1, 2].map { DocumentKey.integer($0) })
            let byField = Subquery(collection: "teams", condition: .string(FieldPath("city"), .hasPrefix, "T", caseInsensitive: false),
                                   field: FieldPath("id"))
            #expect(try await players.keys(DocumentQuery(.isInSubquery(teamId, byField))) == [5].map { DocumentKey.integer($0) })
            let nowhere = Subquery(collection: "nowhere", condition: .always)
            #expect(try await players.keys(DocumentQuery(.isInSubquery(teamId, nowhere))).isEmpty)
        }
    }

    @Test(arguments: Backend.allCases)
    func groupsJoinsAndComputedValues(backend: Backend) async throws {
        try await withPlayers(backend) { players, store async throws in
            try await store.collection(Team.self, named: "teams").insert(contentsOf: sampleTeams)
            let byTeam = QueryPipeline(stages: [
                .group(Grouping(keys: [teamId], aggregates: [NamedAggregate("n", .count), NamedAggregate("total", .sum(number)),
                                                             NamedAggregate("mean", .average(number)), NamedAggregate("nick", .max(nickname))])),
                .refine(DocumentQuery(.compare(FieldPath("n"), .greaterOrEqual, 2), sort: [SortKey(FieldPath("total"), descending: true)])),
                .join(Join("teams", on: teamId, equals: .key, as: "team")),
                .select([NamedExpression("city", .field(FieldPath("team", "city"))), NamedExpression("total", .field(FieldPath("total"))),
                         NamedExpression("half", .arithmetic(.divide, .field(FieldPath("total")), .literal(2))),
                         NamedExpression("mean", .field(FieldPath("mean"))), NamedExpression("nick", .field(FieldPath("nick")))]),
            ])
            #expect(try await players.rows(byTeam) == [
                ["city": "Boston", "total": 49, "half": 24, "mean": 24.5, "nick": "Laser"],
                ["city": "Baltimore", "total": 23, "half": 11, "mean": 11.5, "nick": nil],
            ])
            let labels = QueryPipeline(DocumentQuery(sort: [SortKey(number)], limit: 2), stages: [
                .select([NamedExpression("label", .arithmetic(.add, .field(FieldPath("lastName")), .literal("!"))),
                         NamedExpression("ratio", .arithmetic(.divide, .double(.field(number)), .literal(4)))]),
            ])
            #expect(try await players.rows(labels) == [["label": "Longoria!", "ratio": 0.75], ["label": "Jones!", "ratio": 2.5]])

            // A number nearer zero than any Double is 0 as a Double, as Swift
            // reads it (PostgreSQL's own cast failed: "out of range").
            let tiny = store.collection(named: "tiny")
            try await tiny.insert(["id": 1, "v": .exactNumber(JSONNumberLiteral("1e-400")!)])
            let asDouble = QueryPipeline(DocumentQuery(), stages: [.select([
                NamedExpression("d", .double(.field(FieldPath("v")))),
                NamedExpression("sum", .arithmetic(.add, .field(FieldPath("v")), .literal(0.5))),
            ])])
            #expect(try await tiny.rows(asDouble) == [["d": 0.0, "sum": 0.5]])
            // An increment would add to the Double and store the rounded sum:
            // refused, the number kept (InexactComparisonWriteTests).
            await #expect(throws: DocStoreError.self) { try await tiny.update(DocumentQuery(), [.increment(FieldPath("v"), 1.5)]) }
            #expect(try await tiny.get(1)?["v"] == .exactNumber(JSONNumberLiteral("1e-400")!))
        }
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
