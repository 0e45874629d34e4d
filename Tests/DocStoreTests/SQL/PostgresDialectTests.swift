import Testing
@_spi(Backends) @testable import DocStore

/// The PostgreSQL dialect's text and bindings (its behaviour on a real server is
/// tested by the `PostgresTests` suites).
@Suite("SQL compiler: the PostgreSQL dialect")
struct PostgresDialectTests {
    static func rank(_ value: String) -> String {
        "CASE jsonb_typeof(\(value)) WHEN 'boolean' THEN 1 WHEN 'number' THEN 2 WHEN 'string' THEN 3 WHEN 'array' THEN 4 WHEN 'object' THEN 5 ELSE 0 END"
    }

    @Test func comparisonsBindJSONOrTextAndSortStringsByScalars() throws {
        let compiler = PostgresCompiler(collection: "players", keyKinds: ["players": .integer])
        let statement = try compiler.documents(DocumentQuery(.and([
            .compare(FieldPath("teamId"), .equal, 1),
            .compare(FieldPath("it's", "x"), .notEqual, "Big\u{0}Papi"),
        ]), sort: [SortKey(FieldPath("lastName"), descending: true)], limit: 10))
        let teamId = "(body -> E'teamId')"
        let nested = "(body -> E'it\\'s' -> E'x')"
        let lastName = "(body -> E'lastName')"
        // Numbers compare on the terms an index holds: rank, no string, the jsonb value.
        let number = "(CASE WHEN jsonb_typeof(\(teamId)) IN ('boolean', 'number') THEN \(teamId) END)"
        let noString = "(CASE WHEN jsonb_typeof(\(teamId)) = 'string' THEN \(teamId) #>> '{}' END) COLLATE \"C\" IS NULL"
        #expect(statement.sql == """
            SELECT key, body::text FROM "players" WHERE ((\(teamId) = CAST($1 AS jsonb) AND \(number) = CAST($2 AS jsonb) AND \(noString) AND \(Self.rank(teamId)) = 2) \
            AND NOT (\(nested) = CAST($3 AS jsonb) AND (CASE WHEN jsonb_typeof(\(nested)) = 'string' THEN \(nested) #>> '{}' END) COLLATE "C" = $4 AND \(Self.rank(nested)) = 3)) \
            ORDER BY \(Self.rank(lastName)) DESC, (CASE WHEN jsonb_typeof(\(lastName)) = 'string' THEN \(lastName) #>> '{}' END) COLLATE "C" DESC, \
            (CASE WHEN jsonb_typeof(\(lastName)) IN ('boolean', 'number') THEN \(lastName) END) DESC, key LIMIT $5 OFFSET $6
            """)
        // Each test is led by jsonb's own, cheaper test it implies (equality here);
        // strings are cut at NUL, as every backend reads them.
        #expect(statement.bindings == [.text("1"), .text("1"), .text("\"Big\""), .text("Big"), .integer(10), .integer(0)])
    }

    @Test func countsWithALimitNameTheirSubqueryAndNegativePositionsAreNeverPresent() throws {
        let compiler = PostgresCompiler(collection: "t", keyKinds: ["t": .string])
        let statement = try compiler.count(DocumentQuery(.exists(FieldPath([.key("tags"), .index(-1)])), offset: 2))
        #expect(statement.sql == "SELECT count(*) FROM (SELECT key FROM \"t\" WHERE (NULL::text IS NOT NULL) ORDER BY key LIMIT ALL OFFSET $1) AS q")
        #expect(statement.bindings == [.integer(2)])
    }

    @Test func memberNamesWithNULAreRefusedNamingTheField() {
        let compiler = PostgresCompiler(collection: "t", keyKinds: ["t": .integer])
        #expect(throws: DocStoreError.self) { try compiler.keys(DocumentQuery(.isNull(FieldPath("a\u{0}b")))) }
    }

    @Test func parametersAreNumberedOutsideLiteralsAndIdentifiersOnly() {
        #expect(numberPostgresParameters("SELECT ? FROM \"a?\" WHERE x -> E'it\\'s?' = ? AND y = 'b''?' || ?")
                == "SELECT $1 FROM \"a?\" WHERE x -> E'it\\'s?' = $2 AND y = 'b''?' || $3")
        #expect(quotePostgresString("a\\b'c") == "E'a\\\\b\\'c'")
        // A quote that a combining mark follows is one Character: read by
        // scalars, the literal and the identifier are still seen to open.
        #expect(Array(numberPostgresParameters("SELECT ? FROM \"\u{301}?\" WHERE b -> E'\u{301}?' = ?").utf8)
                == Array("SELECT $1 FROM \"\u{301}?\" WHERE b -> E'\u{301}?' = $2".utf8))
    }
}

extension PostgresDialectTests {
    /// A containment index adds the terms a condition implies, and only those.
    @Test func containmentTermsAreImpliedByTheCondition() {
        let condition = Condition.and([
            .compare(FieldPath("team"), .equal, "Blue"), .arrayContains(FieldPath("tags"), 2),
            .compare(FieldPath("wins"), .greater, 3), .compare(FieldPath([.key("list"), .index(0)]), .equal, 1),
            .compare(FieldPath("nick"), .equal, .null), .or([.compare(FieldPath("a"), .equal, 1)]),
        ])
        #expect(ContainmentSQL.facts(condition) == [["team": "Blue"], ["tags": [2]]])
        #expect(ContainmentSQL.facts(.compare(FieldPath("stats", "war"), .equal, 7.5)) == [["stats": ["war": 7.5]]])
        #expect(ContainmentSQL.facts(.not(.compare(FieldPath("team"), .equal, "Blue"))).isEmpty)
    }
}
