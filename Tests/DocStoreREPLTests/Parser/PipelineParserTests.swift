import DocStore
import Testing
@testable import DocStoreREPL

/// Groups, joins and computed selects as REPL text: the AST they parse to, the
/// same AST as the typed DSL's on an untyped collection, and located errors.
@Suite("Parser: groups, joins and computed values")
struct PipelineParserTests {
    func pipeline(_ text: String) throws -> (QueryPipeline, PipelineAction) {
        guard case .pipeline("players", let pipeline, let action) = try parse(text) else {
            throw CommandError("not a pipeline: \(text)")
        }
        return (pipeline, action)
    }

    @Test func groupsParseToGroupAndRefineStages() throws {
        let (parsed, action) = try pipeline(#"players.filter { $0.number > 1 }.group(by: \.teamId, \.stats.homeRuns) { (n: $0.count(), hr: $0.sum(\.number), d: $0.count(distinct: \.lastName), lo: $0.min(\.number), avg: $0.average(\.number)) }.filter { $0.n >= 2 }.sorted { $0.hr.descending }.limit(3).count()"#)
        #expect(action == .count)
        #expect(parsed.query == DocumentQuery(.compare(FieldPath("number"), .greater, 1)))
        #expect(parsed.stages == [
            .group(Grouping(keys: [FieldPath("teamId"), FieldPath("stats", "homeRuns")], aggregates: [
                NamedAggregate("n", .count), NamedAggregate("hr", .sum(FieldPath("number"))),
                NamedAggregate("d", .countDistinct(FieldPath("lastName"))), NamedAggregate("lo", .min(FieldPath("number"))),
                NamedAggregate("avg", .average(FieldPath("number"))),
            ])),
            .refine(DocumentQuery(.compare(FieldPath("n"), .greaterOrEqual, 2), sort: [SortKey(FieldPath("hr"), descending: true)], limit: 3)),
        ])
    }

    @Test func computedGroupItemsBecomeHiddenAggregatesAndASelect() throws {
        let (parsed, _) = try pipeline(#"players.group(by: \.teamId) { (n: $0.count(), rate: Double($0.sum(\.number)) / Double($0.count())) }.sorted { $0.rate }"#)
        #expect(parsed.stages == [
            .group(Grouping(keys: [FieldPath("teamId")], aggregates: [
                NamedAggregate("#0", .count), NamedAggregate("#1", .sum(FieldPath("number"))), NamedAggregate("#2", .count),
            ])),
            .select([
                NamedExpression("teamId", .field(FieldPath("teamId"))),
                NamedExpression("n", .field(FieldPath("#0"))),
                NamedExpression("rate", .arithmetic(.divide, .double(.field(FieldPath("#1"))), .double(.field(FieldPath("#2"))))),
            ]),
            .refine(DocumentQuery(sort: [SortKey(FieldPath("rate"))])),
        ])
        #expect(parseError(#"players.group(by: \.teamId) { $0.count() * 2 }"#)?.message.contains("name a computed value") == true)
        let harness = try SessionHarness(interactive: false)
        harness.feed(".mode ndjson", #"players.group(by: \.teamId) { (n: $0.count(), twice: $0.count() * 2) }.limit(1)"#)
        #expect(harness.output.text.contains(#""n":"#) && harness.output.text.contains(#""twice":"#), "\(harness.output.text)")
        #expect(harness.errors.text.isEmpty, "\(harness.errors.text)")
    }

    @Test func joinsAndComputedSelects() throws {
        let (parsed, action) = try pipeline(#"players.join(teams, on: \.teamId, equals: key, as: \.team).select { ($0.team.city + " " + $0.lastName, twice: $0.number * 2 + 1, ratio: Double($0.number) / (2 - -1)) }.sorted { $0.twice }"#)
        #expect(action == .rows)
        #expect(parsed.stages == [
            .join(Join("teams", on: FieldPath("teamId"), equals: .key, as: "team")),
            .select([
                NamedExpression(#"(($0.team.city + " ") + $0.lastName)"#, .arithmetic(.add, .arithmetic(.add, .field(FieldPath("team", "city")), .literal(" ")), .field(FieldPath("lastName")))),
                NamedExpression("twice", .arithmetic(.add, .arithmetic(.multiply, .field(FieldPath("number")), .literal(2)), .literal(1))),
                NamedExpression("ratio", .arithmetic(.divide, .double(.field(FieldPath("number"))), .arithmetic(.subtract, .literal(2), .literal(-1)))),
            ]),
            .refine(DocumentQuery(sort: [SortKey(FieldPath("twice"))])),
        ])
        let (sameName, _) = try pipeline(#"players.join(teams, on: \.teamId, equals: \.id, as: \.team)"#)
        #expect(sameName.stages == [.join(Join("teams", on: FieldPath("teamId"), equals: .field(FieldPath("id")), as: "team"))])
        let (many, _) = try pipeline(#"players.joinAll(teams, on: \.teamId, equals: \.id, as: \.teams)"#)
        #expect(many.stages == [.join(Join("teams", on: FieldPath("teamId"), equals: .field(FieldPath("id")), as: "teams", many: true))])
    }

    @Test func aSelectOfPlainFieldsIsStillTheCollectionsSelect() throws {
        #expect(try parse(#"players.select { ($0.lastName, $0.number) }"#)
                == .query(collection: "players", DocumentQuery(), .select([FieldPath("lastName"), FieldPath("number")])))
    }

    @Test func mistakesAreLocatedErrors() throws {
        #expect(parseError(#"players.group(by: \.teamId) { (n: $0.median(\.number)) }"#)?.message.contains("median") == true)
        #expect(parseError(#"players.group(by: \.teamId) { (n: $0.count()) }.max(\.n)"#)?.message.contains("after group") == true)
        #expect(parseError(#"players.join(teams, on: \.teamId)"#)?.message.contains("as:") == true)
        #expect(parseError(#"players.join(nowhere, on: \.teamId, as: \.x)"#)?.message.contains("no collection") == true)
    }

    @Test func interactiveSessionsShowTheFirstAndLastRowsOfALongGroup() throws {
        let harness = try SessionHarness(displayLimit: 2)
        harness.feed(#"players.group(by: \.number) { (n: $0.count()) }"#)
        #expect(harness.output.text.contains("4 rows, 2 shown; .maxrows N"), "\(harness.output.text)")
        #expect(harness.output.text.contains("│      2 │ 1 │\n│ ⋮      │ ⋮ │\n│     34 │ 1 │"), "\(harness.output.text)")
        harness.feed(#"players.group(by: \.teamId) { (n: $0.count()) }.limit(3)"#)
        #expect(harness.output.text.contains("\n1 row ("), "\(harness.output.text)")
        #expect(harness.errors.text.isEmpty, "\(harness.errors.text)")
    }

    @Test func theTypedDSLBuildsTheSameGroup() throws {
        let store = try DocumentStore.inMemory()
        try SampleData.load(into: store)
        let players = store.collection(named: "players")
        let text = #"players.group(by: \.teamId) { (n: $0.count(), hr: $0.sum(\.stats.homeRuns)) }.filter { $0.n >= 2 }.sorted { $0.hr.descending }"#
        guard case .pipeline(_, let parsed, _) = try CommandParser.parse(text, schema: StoreSchema(store: store)).command else {
            Issue.record("not a pipeline")
            return
        }
        let grouped = players.query.group(by: \.teamId) { (n: $0.count(), hr: $0.sum(\.stats.homeRuns)) }
        let dsl = grouped.filter { $0.n >= 2 }.sorted { $0.hr.descending }
        #expect(try dsl.queryPipeline() == parsed)
        #expect(try dsl.fetch().map(\.json) == players.rows(parsed))
    }
}
