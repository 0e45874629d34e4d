import DocStore
import Testing
@testable import DocStoreREPL

/// The same query written as REPL text and with the typed DSL (on an untyped
/// collection, whose `$0` is `DynamicFields`: the same syntax, compiled by Swift)
/// gives the same AST and the same results.
@Suite("REPL text and the Swift DSL agree")
struct DSLAgreementTests {
    let store: DocumentStore
    let players: DocumentCollection<JSONValue>
    let schema: StoreSchema

    init() throws {
        store = try DocumentStore.inMemory()
        try SampleData.load(into: store)
        players = store.collection(named: "players")
        schema = StoreSchema(store: store)
    }

    /// Parses a `players…` chain and returns its query and action.
    func repl(_ text: String) throws -> (DocumentQuery, QueryAction) {
        guard case .query("players", let query, let action) = try CommandParser.parse(text, schema: schema).command else {
            throw CommandError("not a players query: \(text)")
        }
        return (query, action)
    }

    /// Asserts the REPL text and the DSL query build the same AST and find the same documents.
    func agree(_ text: String, _ dsl: CollectionQuery<JSONValue>, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let (query, _) = try repl(text)
        let expected = try dsl.documentQuery()
        #expect(query == expected, "\(text)", sourceLocation: sourceLocation)
        #expect(try players.fetch(query) == dsl.fetch(), "\(text)", sourceLocation: sourceLocation)
    }

    @Test func filtersSortsAndLimits() throws {
        try agree("players.filter { $0.teamId == 1; $0.number > 10 }.sorted { $0.lastName; $0.number.descending }.limit(10)",
                  players.filter { $0.teamId == 1; $0.number > 10 }.sorted { $0.lastName; $0.number.descending }.limit(10))
        try agree(#"players.filter { $0.teamId == 1; AnyOf { $0.position == "Shortstop"; $0.lastName.hasPrefix("O") }; Not { $0.nickname == nil } }"#,
                  players.filter { $0.teamId == 1; AnyOf { $0.position == "Shortstop"; $0.lastName.hasPrefix("O") }; Not { $0.nickname == nil } })
        try agree("players.filter { $0.nickname == nil }", players.filter { $0.nickname == nil })
        try agree("players.filter { $0.nickname != nil && $0.number >= 15 || $0.teamId != 1 }",
                  players.filter { $0.nickname != nil && $0.number >= 15 || $0.teamId != 1 })
        try agree("players.filter { !($0.number < 12) }", players.filter { !($0.number < 12) })
        try agree("players.filter { $0.teamId.in([1, 2]) }", players.filter { $0.teamId.in([1, 2] as [JSONValue]) })
        try agree("players.filter { $0.stats.battingAverage >= 0.28 }", players.filter { $0.stats.battingAverage >= 0.28 })
        try agree(#"players.filter { $0.lastName.hasPrefix("p", caseInsensitive: true) }"#, players.filter { $0.lastName.hasPrefix("p", caseInsensitive: true) })
        try agree(#"players.filter { $0.position.hasSuffix("Base") }.sorted { $0.number }.limit(1, offset: 1)"#,
                  players.filter { $0.position.hasSuffix("Base") }.sorted { $0.number }.limit(1, offset: 1))
        try agree("players.filter { $0.tags.isEmpty }", players.filter { $0.tags.isEmpty })
        try agree("players.filter { $0.tags.count >= 2 }", players.filter { $0.tags.count >= 2 })
        try agree(#"players.filter { $0.tags.arrayContains("veteran") }"#, players.filter { $0.tags.arrayContains("veteran") })
        try agree("players.filter { $0.nickname.exists }", players.filter { $0.nickname.exists })
        try agree(#"players.filter { $0.extra["odd key"] == nil }"#, players.filter { $0["extra", "odd key"] == nil })
        try agree("players.sorted { $0.number }.sorted { $0.teamId }", players.sorted { $0.number }.sorted { $0.teamId })
        try agree("players.filter { $0.teamId == 1 }.filter { $0.number > 2 }", players.filter { $0.teamId == 1 }.filter { $0.number > 2 })
    }

    @Test func subqueries() throws {
        let teams = store.collection(named: "teams")
        try agree(#"players.filter { $0.teamId.in(teams.filter { $0.city == "Boston" }) }"#,
                  players.filter { $0.teamId.in(teams.filter { $0.city == "Boston" }) })
    }

    @Test func terminalActionsGiveTheSameResults() throws {
        let (count, countAction) = try repl("players.count { $0.nickname == nil }")
        #expect(countAction == .count)
        #expect(try players.count(query: count) == players.filter { $0.nickname == nil }.count())
        let (selected, selectAction) = try repl("players.filter { $0.teamId == 1 }.sorted { $0.number }.select { ($0.lastName, $0.number) }")
        guard case .select(let fields) = selectAction else {
            Issue.record("not a select")
            return
        }
        let rows = try players.select(selected, fields: fields)
        let typed = try players.filter { $0.teamId == 1 }.sorted { $0.number }.select { ($0.lastName, $0.number) }
        #expect(rows.map { $0[0] } == typed.map(\.0))
        #expect(rows.map { $0[1] } == typed.map(\.1))
        let (all, maxAction) = try repl(#"players.query.max(\.number)"#)
        guard case .aggregate(let aggregate) = maxAction else {
            Issue.record("not an aggregate")
            return
        }
        #expect(aggregate == .max(FieldPath("number")))
        #expect(try players.aggregate(all, aggregate) == 34)
    }
}

extension DocumentCollection {
    /// `count(_:)` under a name that can't be confused with the DSL's `count { }`.
    func count(query: DocumentQuery) throws -> Int { try count(query) }
}
