import Foundation
import GRDB
import Testing
@testable import DocStore

/// The SQL the compiler writes for representative queries, with its bindings:
/// values only ever appear as bindings.
@Suite("SQL compiler: text and bindings")
struct SQLSnapshotTests {
    static func rank(_ path: String) -> String {
        "CASE json_type(body, '\(path)') WHEN 'true' THEN 1 WHEN 'false' THEN 1 WHEN 'integer' THEN 2 WHEN 'real' THEN 2 WHEN 'text' THEN 3 WHEN 'array' THEN 4 WHEN 'object' THEN 5 ELSE 0 END"
    }

    func compile(_ query: DocumentQuery, collection: String = "players") throws -> SQLFragment {
        try QueryCompiler(collection: collection, keyKind: { $0 == "teams" ? .integer : nil }).documents(query)
    }

    @Test func equalitySortAndLimit() throws {
        let compiled = try compile(DocumentQuery(.compare(FieldPath("teamId"), .equal, 1),
                                                 sort: [SortKey(FieldPath("lastName")), SortKey(FieldPath("number"), descending: true)],
                                                 limit: 10))
        let teamId = Self.rank("$.\"teamId\"")
        let lastName = Self.rank("$.\"lastName\"")
        let number = Self.rank("$.\"number\"")
        #expect(compiled.sql == """
            SELECT key, body FROM "players" WHERE (json_extract(body, '$."teamId"') = ? AND \(teamId) = 2) \
            ORDER BY \(lastName), json_extract(body, '$."lastName"'), \(number) DESC, json_extract(body, '$."number"') DESC, key \
            LIMIT ? OFFSET ?
            """)
        #expect(compiled.bindings == [.integer(1), .integer(10), .integer(0)])
    }

    @Test func notEqualNullsStringsAndBooleans() throws {
        let compiled = try compile(DocumentQuery(.and([
            .compare(FieldPath("nickname"), .notEqual, "Big Papi"),
            .isNull(FieldPath("stats", "average")),
            .compare(FieldPath("active"), .equal, true),
            .not(.exists(FieldPath("retired"))),
        ])))
        let nickname = Self.rank("$.\"nickname\"")
        #expect(compiled.sql == """
            SELECT key, body FROM "players" WHERE (NOT (json_extract(body, '$."nickname"') = ? AND \(nickname) = 3) \
            AND (\(Self.rank("$.\"stats\".\"average\"")) = 0) \
            AND (json_extract(body, '$."active"') = ? AND \(Self.rank("$.\"active\"")) = 1) \
            AND NOT (json_type(body, '$."retired"') IS NOT NULL)) ORDER BY key
            """)
        #expect(compiled.bindings == [.text("Big Papi"), .integer(1)])
    }

    @Test func stringMatchingIsByteWiseAndCaseFoldingOnlyWhenAsked() throws {
        let compiled = try compile(DocumentQuery(.or([
            .string(FieldPath("lastName"), .hasPrefix, "Ped", caseInsensitive: false),
            .string(FieldPath("lastName"), .contains, "ÉCOLE", caseInsensitive: true),
        ])))
        let lastName = Self.rank("$.\"lastName\"")
        #expect(compiled.sql == """
            SELECT key, body FROM "players" WHERE ((\(lastName) = 3 AND coalesce(substr(CAST(json_extract(body, '$."lastName"') AS BLOB), 1, ?) = ?, 0)) \
            OR (\(lastName) = 3 AND coalesce(instr(docstore_fold(CAST(json_extract(body, '$."lastName"') AS BLOB)), ?) > 0, 0))) ORDER BY key
            """)
        #expect(compiled.bindings == [.integer(3), .blob(Array("Ped".utf8)), .blob(Array("école".utf8))])
        #expect(!compiled.sql.contains("LIKE"))
    }

    @Test func arraysMembershipAndSubqueries() throws {
        let compiled = try compile(DocumentQuery(.and([
            .arrayContains(FieldPath("tags"), "injured"),
            .isIn(FieldPath("number"), [1, 2.5, "x"]),
            .isInSubquery(FieldPath("teamId"), Subquery(collection: "teams", condition: .compare(FieldPath("city"), .equal, "Boston"))),
        ])))
        #expect(compiled.sql.contains("EXISTS (SELECT 1 FROM json_each(body, '$.\"tags\"') AS e1 WHERE (e1.value = ? AND CASE e1.type"))
        #expect(compiled.sql.contains("json_extract(body, '$.\"number\"') IN (SELECT value FROM json_each(?))"))
        #expect(compiled.sql.contains("json_extract(body, '$.\"teamId\"') IN (SELECT key FROM \"teams\" WHERE"))
        #expect(compiled.bindings == [.text("injured"), .text("[1,2.5]"), .text("[\"x\"]"), .text("Boston")])
    }

    @Test func hostileValuesOnlyEverAppearAsBindings() throws {
        let hostile = ["'; DROP TABLE players; --", "\" OR 1=1 --", "nul\u{0}byte", "😀$.[\"x\"]", String(repeating: "x", count: 10_000)]
        for value in hostile {
            let compiled = try compile(DocumentQuery(.or([
                .compare(FieldPath("lastName"), .equal, .string(value)),
                .string(FieldPath("lastName"), .contains, value, caseInsensitive: false),
                .isIn(FieldPath("lastName"), [.string(value)]),
                .arrayContains(FieldPath("tags"), .string(value)),
            ])))
            #expect(!compiled.sql.contains(String(value.queryText)), "value \(value.prefix(20)) leaked into the SQL")
            #expect(compiled.bindings.contains(.text(String(value.queryText))))
        }
    }

    @Test func updatesCompileToOneStatement() throws {
        let compiler = QueryCompiler(collection: "players", keyKind: { _ in nil })
        let compiled = try compiler.update([.set(FieldPath("nickname"), "'; DROP TABLE x"), .remove(FieldPath("tags")),
                                            .increment(FieldPath("number"), 1)],
                                           DocumentQuery(.compare(FieldPath("teamId"), .equal, 30)))
        #expect(compiled.sql.hasPrefix("UPDATE \"players\" SET body = json_set(json_remove(json_set(body, '$.\"nickname\"', json(?)), '$.\"tags\"'), '$.\"number\"', CASE WHEN typeof"))
        #expect(!compiled.sql.contains("DROP"))
        #expect(compiled.bindings.first == .text("\"'; DROP TABLE x\""))
        #expect(throws: DocStoreError.self) {
            try compiler.update([.set(FieldPath("a"), 1), .remove(FieldPath("a", "b"))], DocumentQuery())
        }
    }

    @Test func invalidValuesAreRefusedWithTheCollectionAndField() throws {
        let error = try #require(throws: DocStoreError.self) {
            try compile(DocumentQuery(.compare(FieldPath("tags"), .equal, ["a"])))
        }
        guard case let .invalidQuery(collection, field, _) = error else { Issue.record("\(error)"); return }
        #expect(collection == "players" && field == "tags")
    }
}
