import DocStore
import Testing
@testable import DocStoreREPL

@Suite("Parser: every construct")
struct ParserConstructTests {
    @Test func bareCollectionFetchesEverything() throws {
        #expect(try parse("players") == playersQuery())
        #expect(try parse("  players  ") == playersQuery())
        #expect(try parse("players.all()") == playersQuery())
        #expect(try parse("") == .empty)
        #expect(try parse("// just a comment") == .empty)
    }

    @Test func filterLinesAreAnded() throws {
        let expected = playersQuery(.and([.compare(FieldPath("teamId"), .equal, 1), .compare(FieldPath("number"), .greater, 10)]))
        #expect(try parse("players.filter { $0.teamId == 1; $0.number > 10 }") == expected)
        #expect(try parse("players.filter {\n  $0.teamId == 1\n  $0.number > 10\n}") == expected)
        #expect(try parse("players.filter { $0.teamId == 1 }.filter { $0.number > 10 }") == expected)
        #expect(try parse("players.filter { $0.teamId == 1 && $0.number > 10 }") == expected)
        #expect(try parse("players.filter { }") == playersQuery())
    }

    @Test func comparisonOperatorsAndLiterals() throws {
        for op in ComparisonOperator.allCases {
            #expect(try parse("players.filter { $0.number \(op.rawValue) 12 }") == playersQuery(.compare(FieldPath("number"), op, 12)))
        }
        #expect(try parse(#"players.filter { $0.position == "Shortstop" }"#) == playersQuery(.compare(FieldPath("position"), .equal, "Shortstop")))
        #expect(try parse("players.filter { $0.stats.battingAverage >= 0.3 }") == playersQuery(.compare(FieldPath("stats", "battingAverage"), .greaterOrEqual, .double(0.3))))
        #expect(try parse("players.filter { $0.number > -1_000 }") == playersQuery(.compare(FieldPath("number"), .greater, -1000)))
        #expect(try parse("players.filter { $0.number < 1e3 }") == playersQuery(.compare(FieldPath("number"), .less, .double(1000))))
        #expect(try parse("players.filter { $0.active == true }") == playersQuery(.compare(FieldPath("active"), .equal, true)))
        #expect(try parse(#"players.filter { $0.lastName == "O\"Neil\u{1F600}\n" }"#) == playersQuery(.compare(FieldPath("lastName"), .equal, "O\"Neil😀\n")))
    }

    @Test func nilAndExistence() throws {
        #expect(try parse("players.filter { $0.nickname == nil }") == playersQuery(.isNull(FieldPath("nickname"))))
        #expect(try parse("players.filter { $0.nickname != nil }") == playersQuery(.not(.isNull(FieldPath("nickname")))))
        #expect(try parse("players.filter { $0.nickname.exists }") == playersQuery(.exists(FieldPath("nickname"))))
    }

    @Test func logicalBlocksAndOperators() throws {
        let text = #"""
            players.filter {
                $0.teamId == 1; $0.number > 10
                AnyOf { $0.position == "Shortstop"; $0.lastName.hasPrefix("O") }
                Not { $0.tags.contains("injured") }
            }
            """#
        let expected = playersQuery(.and([
            .compare(FieldPath("teamId"), .equal, 1),
            .compare(FieldPath("number"), .greater, 10),
            .or([.compare(FieldPath("position"), .equal, "Shortstop"), .string(FieldPath("lastName"), .hasPrefix, "O", caseInsensitive: false)]),
            .not(.arrayContains(FieldPath("tags"), "injured")),
        ]))
        #expect(try parse(text) == expected)
        #expect(try parse("players.filter { AllOf { $0.a == 1; $0.b == 2 } }") == playersQuery(.and([.compare(FieldPath("a"), .equal, 1), .compare(FieldPath("b"), .equal, 2)])))
        #expect(try parse("players.filter { !($0.a == 1 || $0.b == 2) && $0.c == 3 }") == playersQuery(.and([
            .not(.or([.compare(FieldPath("a"), .equal, 1), .compare(FieldPath("b"), .equal, 2)])), .compare(FieldPath("c"), .equal, 3),
        ])))
        #expect(try parse("players.filter { $0.a == 1 || $0.b == 2 && $0.c == 3 }") == playersQuery(.or([
            .compare(FieldPath("a"), .equal, 1), .and([.compare(FieldPath("b"), .equal, 2), .compare(FieldPath("c"), .equal, 3)]),
        ])))
    }

    @Test func stringMethods() throws {
        #expect(try parse(#"players.filter { $0.lastName.hasSuffix("z") }"#) == playersQuery(.string(FieldPath("lastName"), .hasSuffix, "z", caseInsensitive: false)))
        #expect(try parse(#"players.filter { $0.lastName.contains("rt") }"#) == playersQuery(.string(FieldPath("lastName"), .contains, "rt", caseInsensitive: false)))
        #expect(try parse(#"players.filter { $0.lastName.hasPrefix("o", caseInsensitive: true) }"#) == playersQuery(.string(FieldPath("lastName"), .hasPrefix, "o", caseInsensitive: true)))
    }

    @Test func containsFollowsTheSampledType() throws {
        // tags is an array in the sample, lastName a string; an unseen field tests both ways.
        #expect(try parse(#"players.filter { $0.tags.contains("veteran") }"#) == playersQuery(.arrayContains(FieldPath("tags"), "veteran")))
        #expect(try parse(#"players.filter { $0.tags.contains(3) }"#) == playersQuery(.arrayContains(FieldPath("tags"), 3)))
        #expect(try parse(#"players.filter { $0.unseen.contains("x") }"#) == playersQuery(.or([
            .string(FieldPath("unseen"), .contains, "x", caseInsensitive: false), .arrayContains(FieldPath("unseen"), "x"),
        ])))
    }

    @Test func arrayConditions() throws {
        #expect(try parse("players.filter { $0.tags.isEmpty }") == playersQuery(.arrayCount(FieldPath("tags"), .equal, 0)))
        #expect(try parse("players.filter { !$0.tags.isEmpty }") == playersQuery(.not(.arrayCount(FieldPath("tags"), .equal, 0))))
        #expect(try parse("players.filter { $0.tags.count > 2 }") == playersQuery(.arrayCount(FieldPath("tags"), .greater, 2)))
        #expect(try parse("players.filter { $0.roster.any { $0.number > 10 } }") == playersQuery(.any(FieldPath("roster"), .compare(FieldPath("number"), .greater, 10))))
        #expect(try parse(#"players.filter { $0.tags.all { $0 != "x" } }"#) == playersQuery(.all(FieldPath("tags"), .compare(.root, .notEqual, "x"))))
        #expect(try parse("players.filter { $0.tags[0] == 1 }") == playersQuery(.compare(FieldPath([.key("tags"), .index(0)]), .equal, 1)))
        #expect(try parse(#"players.filter { $0.extra["odd.key"] == 1 }"#) == playersQuery(.compare(FieldPath("extra", "odd.key"), .equal, 1)))
        #expect(try parse(#"players.filter { $0.`count` == 1 }"#) == playersQuery(.compare(FieldPath("count"), .equal, 1)))
    }

    @Test func inListsAndSubqueries() throws {
        #expect(try parse("players.filter { $0.teamId.in([1, 2]) }") == playersQuery(.isIn(FieldPath("teamId"), [1, 2])))
        #expect(try parse("players.filter { $0.teamId.in([1, nil]) }") == playersQuery(.or([.isIn(FieldPath("teamId"), [1]), .isNull(FieldPath("teamId"))])))
        #expect(try parse(#"players.filter { $0.teamId.in(teams.filter { $0.city == "Boston" }) }"#) == playersQuery(
            .isInSubquery(FieldPath("teamId"), Subquery(collection: "teams", condition: .compare(FieldPath("city"), .equal, "Boston")))))
        #expect(try parse(#"players.filter { $0.teamId.in(teams.filter { $0.city == "Boston" }, selecting: \.id) }"#) == playersQuery(
            .isInSubquery(FieldPath("teamId"), Subquery(collection: "teams", condition: .compare(FieldPath("city"), .equal, "Boston"), field: FieldPath("id")))))
    }

    @Test func sortLimitOffset() throws {
        #expect(try parse("players.sorted { $0.lastName; $0.number.descending }") == playersQuery(sort: [SortKey(FieldPath("lastName")), SortKey(FieldPath("number"), descending: true)]))
        #expect(try parse(#"players.sorted(by: \.lastName)"#) == playersQuery(sort: [SortKey(FieldPath("lastName"))]))
        #expect(try parse("players.limit(10)") == playersQuery(limit: 10))
        #expect(try parse("players.limit(10).offset(5)") == playersQuery(limit: 10, offset: 5))
        #expect(try parse("players.limit(10, offset: 5)") == playersQuery(limit: 10, offset: 5))
        #expect(try parse("players.filter { $0.teamId == 1 }.sorted { $0.lastName }.limit(5)") == playersQuery(
            .compare(FieldPath("teamId"), .equal, 1), sort: [SortKey(FieldPath("lastName"))], limit: 5))
    }

    @Test func terminalMethods() throws {
        let onTeam = Condition.compare(FieldPath("teamId"), .equal, 1)
        #expect(try parse("players.count()") == playersQuery(.count))
        #expect(try parse("players.count { $0.teamId == 1 }") == playersQuery(onTeam, .count))
        #expect(try parse("players.filter { $0.teamId == 1 }.count()") == playersQuery(onTeam, .count))
        #expect(try parse("players.first()") == playersQuery(.first))
        #expect(try parse("players.first { $0.teamId == 1 }") == playersQuery(onTeam, .first))
        #expect(try parse("players.exists { $0.teamId == 1 }") == playersQuery(onTeam, .exists))
        #expect(try parse("players.keys()") == playersQuery(.keys))
        #expect(try parse("players.select { ($0.lastName, $0.number) }") == playersQuery(.select([FieldPath("lastName"), FieldPath("number")])))
        #expect(try parse("players.select { $0.lastName }") == playersQuery(.select([FieldPath("lastName")])))
        #expect(try parse(#"players.select(\.lastName, \.stats.homeRuns)"#) == playersQuery(.select([FieldPath("lastName"), FieldPath("stats", "homeRuns")])))
        #expect(try parse("players.filter { $0.teamId == 1 }.delete()") == playersQuery(onTeam, .delete))
        #expect(try parse("players.filter { $0.teamId == 1 }.explain()") == playersQuery(onTeam, .explain))
    }

    @Test func aggregatesInBothSpellings() throws {
        let forms: [(String, Aggregate)] = [
            ("min", .min(FieldPath("number"))), ("max", .max(FieldPath("number"))), ("sum", .sum(FieldPath("number"))),
            ("average", .average(FieldPath("number"))), ("distinct", .distinct(FieldPath("number"))), ("countBy", .countBy(FieldPath("number"))),
        ]
        for (name, aggregate) in forms {
            #expect(try parse("players.\(name)(\\.number)") == playersQuery(.aggregate(aggregate)))
            #expect(try parse("players.\(name) { $0.number }") == playersQuery(.aggregate(aggregate)))
        }
        #expect(try parse(#"players.count(by: \.number)"#) == playersQuery(.aggregate(.countBy(FieldPath("number")))))
        // The typed DSL's own spellings.
        #expect(try parse(#"players.query.count(groupedBy: \.number)"#) == playersQuery(.aggregate(.countBy(FieldPath("number")))))
        #expect(try parse(#"players.query.distinctValues(of: \.number)"#) == playersQuery(.aggregate(.distinct(FieldPath("number")))))
    }

    @Test func updates() throws {
        let text = #"players.filter { $0.id == 2 }.update { $0.position = "Third Base"; $0.number += 1; $0.stats.homeRuns -= 2; $0.nickname = nil; $0.tags = ["a", "b"]; $0.extra = ["k": 1] }"#
        #expect(try parse(text) == playersQuery(.compare(FieldPath("id"), .equal, 2), .update([
            .set(FieldPath("position"), "Third Base"), .increment(FieldPath("number"), 1), .increment(FieldPath("stats", "homeRuns"), -2),
            .remove(FieldPath("nickname")), .set(FieldPath("tags"), ["a", "b"]), .set(FieldPath("extra"), ["k": 1]),
        ])))
    }

    /// A number literal a Double would round keeps its digits, as in a JSON
    /// literal: `$0.a = 1e-400` stored 0.0, and 2^53 + 1 as a real lost its 1.
    /// An increment by such a number is refused (it adds in Double).
    @Test func numberLiteralsADoubleWouldRoundKeepTheirDigits() throws {
        func exact(_ text: String) throws -> JSONValue { .exactNumber(try #require(JSONNumberLiteral(text))) }
        let text = #"players.filter { $0.id == 2 }.update { $0.a = 1e-400; $0.b = -9007199254740993.0; $0.c = 0.25; $0.d.set(to: 123456789012345678901234567890.5) }"#
        #expect(try parse(text) == playersQuery(.compare(FieldPath("id"), .equal, 2), .update([
            .set(FieldPath("a"), try exact("1e-400")), .set(FieldPath("b"), try exact("-9007199254740993.0")), .set(FieldPath("c"), 0.25),
            .set(FieldPath("d"), try exact("123456789012345678901234567890.5")),
        ])))
        #expect(try parse("players.filter { $0.a == 1e-400 }.count()") == playersQuery(.compare(FieldPath("a"), .equal, try exact("1e-400")), .count))
        let refused = try #require(throws: REPLSyntaxError.self) { try parse("players.update { $0.a += 1e-400 }") }
        #expect(refused.message.contains("+= adds an integer or a Double, and 1e-400 is neither exactly"), "\(refused.message)")
    }

    /// An integer literal past Int64 is exact digits, compared by value, as in
    /// a JSON literal (it was refused as overflowing), and a minus before 2^63
    /// is Int64.min, which couldn't be typed at all.
    @Test func integerLiteralsPastInt64KeepTheirDigits() throws {
        func exact(_ text: String) throws -> JSONValue { .exactNumber(try #require(JSONNumberLiteral(text))) }
        #expect(try parse("players.filter { $0.a == -9223372036854775808 }.count()")
                == playersQuery(.compare(FieldPath("a"), .equal, .integer(.min)), .count))
        #expect(try parse("players.update { $0.a = -9223372036854775808 }") == playersQuery(.update([.set(FieldPath("a"), .integer(.min))])))
        #expect(try parse("players.filter { $0.a < 99999999999999999999 }.count()")
                == playersQuery(.compare(FieldPath("a"), .less, try exact("99999999999999999999")), .count))
        #expect(try parse("players.filter { $0.a > -99999999999999999999 }.count()")
                == playersQuery(.compare(FieldPath("a"), .greater, try exact("-99999999999999999999")), .count))
    }

    /// On a file, such a number compares as its nearest Double, so `== …998`
    /// matches a document holding …999: a delete or update comparing with one
    /// is refused (it deleted the other document), a read warns; PostgreSQL,
    /// which compares exactly, takes both.
    @Test func writesComparingWithANumberADoubleRoundsAreRefusedOnAFile() throws {
        let delete = "players.filter { $0.a == 99999999999999999998 }.delete()"
        let refused = try #require(parseError(delete))
        #expect(refused.message.contains("a file store compares it as its nearest Double, 1e+20") && refused.message.contains("so it is refused"), "\(refused.message)")
        #expect(refused.location.column == 26)
        #expect(parseError("players.delete { $0.a < 1e-400 }") != nil)
        #expect(parseError("players.filter { $0.a >= 99999999999999999998 }.update { $0.b = 1 }") != nil)
        let read = try CommandParser.parse("players.filter { $0.a == 99999999999999999998 }.count()", schema: sampleSchema)
        #expect(read.warnings.map(\.message).contains { $0.contains("documents holding other numbers that round to it match too") })
        // Setting such a number, or comparing with one a Double holds exactly
        // (2^63, 1e20 written out, 1e23's Double), is no matter.
        #expect(parseError("players.filter { $0.id == 2 }.update { $0.a = 99999999999999999998 }") == nil)
        #expect(parseError("players.filter { $0.a == 9223372036854775807 }.delete()") == nil)
        #expect(parseError("players.filter { $0.a == 9223372036854775808 }.delete()") == nil)
        #expect(parseError("players.filter { $0.a == 100000000000000000000 }.delete()") == nil)
        #expect(parseError("players.filter { $0.a == -99999999999999991611392 }.delete()") == nil)
        // Lists, contains and arrayContains compare too (they deleted through the rounding).
        #expect(parseError("players.filter { $0.a.in([1, 99999999999999999998]) }.delete()")?.message.contains("so it is refused") == true)
        #expect(parseError("players.filter { $0.tags.contains(99999999999999999998) }.delete()")?.message.contains("so it is refused") == true)
        #expect(parseError("players.filter { $0.tags.arrayContains(99999999999999999998) }.update { $0.b = 1 }")?.message.contains("so it is refused") == true)

        struct ExactSchema: SchemaProvider {
            func collectionNames() -> [String] { ["players"] }
            func fieldTypes(in collection: String) -> [FieldPath: Set<String>] { [FieldPath("a"): ["number"]] }
            func comparesNumbersAsDoubles() -> Bool { false }
        }
        let exact = try CommandParser.parse(delete, schema: ExactSchema())
        #expect(exact.warnings.isEmpty && exact.command.writes)
    }

    @Test func updatesInTheDSLSpelling() throws {
        let text = #"players.filter { $0.id == 2 }.update { $0.position.set(to: "Third Base"); $0.number.increment(by: 1); $0.nickname.remove(); $0.note.set(to: nil) }"#
        #expect(try parse(text) == playersQuery(.compare(FieldPath("id"), .equal, 2), .update([
            .set(FieldPath("position"), "Third Base"), .increment(FieldPath("number"), 1), .remove(FieldPath("nickname")), .set(FieldPath("note"), nil),
        ])))
    }

    @Test func collectionLevelConditionMethods() throws {
        let onTeam = Condition.compare(FieldPath("teamId"), .equal, 1)
        #expect(try parse("players.contains { $0.teamId == 1 }") == playersQuery(onTeam, .exists))
        #expect(try parse("players.delete { $0.teamId == 1 }") == playersQuery(onTeam, .delete))
        // A later sort decides first, as in the DSL.
        #expect(try parse("players.sorted { $0.number }.sorted { $0.lastName }") == playersQuery(sort: [SortKey(FieldPath("lastName")), SortKey(FieldPath("number"))]))
        #expect(try parse("players.filter { !!($0.teamId == 1) }") == playersQuery(onTeam))
        #expect(try parse("players.filter { AnyOf { $0.teamId == 1 } }") == playersQuery(onTeam))
    }

    @Test func collectionMethods() throws {
        #expect(try parse("players.get(34)") == .get(collection: "players", .integer(34)))
        #expect(try parse(#"players.get("abc")"#) == .get(collection: "players", .string("abc")))
        #expect(try parse("players.delete(34)") == .deleteKey(collection: "players", .integer(34)))
        #expect(try parse("players.deleteAll()") == .deleteAll(collection: "players"))
        #expect(try parse(#"players.createIndex(\.position)"#) == .createIndex(collection: "players", fields: [FieldPath("position")], unique: false))
        #expect(try parse(#"players.createIndex(\.teamId, \.number, unique: true)"#) == .createIndex(collection: "players", fields: [FieldPath("teamId"), FieldPath("number")], unique: true))
        #expect(try parse(#"players.createIndex(on: [\.teamId, \.number], unique: true)"#) == .createIndex(collection: "players", fields: [FieldPath("teamId"), FieldPath("number")], unique: true))
        #expect(try parse(#"players.dropIndex(\.position)"#) == .dropIndex(collection: "players", fields: [FieldPath("position")]))
        #expect(try parse("players.indexes()") == .indexes(collection: "players"))
    }

    @Test func insertAndSaveTakeJSON() throws {
        let document: JSONValue = ["id": 99, "firstName": "Rafael", "lastName": "Devers", "number": 11, "avg": 0.5, "tags": ["a"], "x": nil]
        #expect(try parse(#"players.insert({"id": 99, "firstName": "Rafael", "lastName": "Devers", "number": 11, "avg": 0.5, "tags": ["a"], "x": null})"#)
            == .insert(collection: "players", [document]))
        #expect(try parse(#"players.insert([{"id": 1}, {"id": 2}])"#) == .insert(collection: "players", [["id": 1], ["id": 2]]))
        #expect(try parse("newcoll.save({\"id\": \"a)b\"})") == .save(collection: "newcoll", [["id": "a)b"]]))
        // Key order is kept (tables show columns in document order).
        guard case .insert(_, let documents) = try parse(#"x.insert({"b": 1, "a": 2, "c": 3})"#), case .object(let members)? = documents.first else {
            Issue.record("not an insert")
            return
        }
        #expect(Array(members.keys) == ["b", "a", "c"])
    }

    /// Swift joins a combining mark to the character before it, so a quote or a
    /// brace before an accent is one `Character` that is not the quote or brace:
    /// the parsers must still see strings, JSON and blocks open and close there.
    @Test func quotesAndBracesBeforeACombiningMarkStillCount() throws {
        #expect(try parse("players.filter { $0.lastName == \"\u{301}x\" }") == playersQuery(.compare(FieldPath("lastName"), .equal, "\u{301}x")))
        #expect(try parse("players.filter { $0[\"\u{301}?\"] == 1 }") == playersQuery(.compare(FieldPath("\u{301}?"), .equal, 1)))
        #expect(try parse("players.insert({\"id\": 1, \"\u{301}k\": [\"\u{301}\"]})") == .insert(collection: "players", [["id": 1, "\u{301}k": ["\u{301}"]]]))
        #expect(try parse(".export players \"\u{301}out.ndjson\"") == .exportFile(collection: "players", path: "\u{301}out.ndjson"))
        #expect(!InputBalance.isIncomplete("players.insert({\"a\": \"\u{301}{\"})"), "the brace is inside a string")
        #expect(InputBalance.isIncomplete("players.filter {\u{301}"), "an open brace with an accent after it")
    }

    @Test func dotCommands() throws {
        #expect(try parse(".collections") == .collections)
        #expect(try parse(".schema players") == .schema(collection: "players"))
        #expect(try parse(".mode json") == .mode(.json))
        #expect(try parse(".mode line") == .mode(.line))
        #expect(try parse(".mode") == .showMode)
        #expect(try parse(".help") == .help(topic: nil))
        #expect(try parse(".quit") == .quit)
        #expect(try parse(".exit") == .quit)
        #expect(try parse(".drop players") == .drop(collection: "players"))
        #expect(try parse(".check players") == .check(collection: "players"))
        #expect(try parse(".export players out.ndjson") == .exportFile(collection: "players", path: "out.ndjson"))
        #expect(try parse(#".import people "My Files/People.csv" --skip-bad --key playerID"#)
            == .importFile(collection: "people", path: "My Files/People.csv", options: ImportOptions(skipBad: true, keyField: "playerID")))
        #expect(try parse(".explain players.filter { $0.teamId == 1 }") == playersQuery(.compare(FieldPath("teamId"), .equal, 1), .explain))
    }

    @Test func fieldTyposWarnWithTheClosestName() throws {
        let parsed = try CommandParser.parse("players.filter { $0.nubmer > 10 }", schema: sampleSchema)
        #expect(parsed.command == playersQuery(.compare(FieldPath("nubmer"), .greater, 10)))
        #expect(parsed.warnings.count == 1)
        #expect(parsed.warnings.first?.location == SourceLocation(line: 1, column: 18))
        #expect(parsed.warnings.first?.message.contains("did you mean number?") == true)
        // Nested paths under a known object, and paths inside any { } are not warned about.
        #expect(try CommandParser.parse("players.filter { $0.stats.homeRuns > 1; $0.roster.any { $0.zzz == 1 } }", schema: sampleSchema).warnings.count == 1)
    }
}
