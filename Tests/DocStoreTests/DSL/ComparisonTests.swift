import Foundation
import Testing
@testable import DocStore

extension DSLTests {
    @Suite("Comparisons")
    struct ComparisonTests {
        @Test func equalityAndOrderingBuildCompareNodes() throws {
            #expect(try ast { $0.teamId == 1 } == .compare(path("teamId"), .equal, 1))
            #expect(try ast { $0.teamId != 1 } == .compare(path("teamId"), .notEqual, 1))
            #expect(try ast { $0.number < 10 } == .compare(path("number"), .less, 10))
            #expect(try ast { $0.number <= 10 } == .compare(path("number"), .lessOrEqual, 10))
            #expect(try ast { $0.number > 10 } == .compare(path("number"), .greater, 10))
            #expect(try ast { $0.number >= 10 } == .compare(path("number"), .greaterOrEqual, 10))
            #expect(try ast { $0.lastName == "Ortiz" } == .compare(path("lastName"), .equal, "Ortiz"))
            #expect(try ast { $0.stats.battingAverage >= 0.3 }
                    == .compare(path("stats", "battingAverage"), .greaterOrEqual, .double(0.3)))
        }

        @Test func nilComparisonsTestForNull() throws {
            #expect(try ast { $0.nickname == nil } == .isNull(path("nickname")))
            #expect(try ast { $0.nickname != nil } == .not(.isNull(path("nickname"))))
            #expect(try ast { $0.nickname == "Big Papi" } == .compare(path("nickname"), .equal, "Big Papi"))
            let none: String? = nil
            #expect(try ast { $0.nickname == none } == .isNull(path("nickname")))
            #expect(try ast { $0.stats.homeRuns > 100 } == .compare(path("stats", "homeRuns"), .greater, 100))
        }

        @Test func enumsCompareByRawValue() throws {
            #expect(try ast { $0.position == .shortstop } == .compare(path("position"), .equal, "Shortstop"))
            #expect(try ast { $0.bats != .left } == .compare(path("bats"), .notEqual, 1))
            #expect(try ast { $0.position.in([.shortstop, .firstBase]) }
                    == .isIn(path("position"), ["Shortstop", "First Base"]))
        }

        @Test func datesAndUUIDsCompareAsTheCodecStoresThem() throws {
            let date = Date(timeIntervalSinceReferenceDate: 123_456.5)
            let card = UUID()
            #expect(try ast { $0.debut < date } == .compare(path("debut"), .less, DocumentCodec.encodeValue(date)))
            #expect(try ast { $0.card == card } == .compare(path("card"), .equal, DocumentCodec.encodeValue(card)))
            #expect(try DocumentCodec.encodeValue(card) == .string(card.uuidString))
        }

        @Test func inWithValues() throws {
            #expect(try ast { $0.number.in([2, 12, 15]) } == .isIn(path("number"), [2, 12, 15]))
            #expect(try ast { $0.number.in(1...3) } == .isIn(path("number"), [1, 2, 3]))
            #expect(try ast { $0.nickname.in([nil, "Big Papi"]) }
                    == .or([.isIn(path("nickname"), ["Big Papi"]), .isNull(path("nickname"))]))
        }

        @Test func existence() throws {
            #expect(try ast { $0.nickname.exists } == .exists(path("nickname")))
            #expect(try ast { !$0.agent.exists } == .not(.exists(path("agent"))))
        }

        @Test func valuesWithoutJSONFormMakeTheQueryThrowWhenItRuns() throws {
            let condition = DocumentCondition.all([Ballplayer.Fields(_path: .root).stats.battingAverage > .nan])
            #expect(throws: InvalidQuery.self) { try condition.condition() }
            let store = try DocumentStore.inMemory()
            let query = store.collection(Ballplayer.self, named: "players").filter { $0.stats.battingAverage == .infinity; $0.number == 2 }
            #expect {
                try query.documentQuery()
            } throws: { error in
                guard case .invalidQuery(let collection, let field, _)? = error as? DocStoreError else { return false }
                return collection == "players" && field == "stats.battingAverage"
            }
        }

        @Test func wholeObjectsCantBeCompared() throws {
            let stats = Stats(games: 1, hits: 1, battingAverage: 1, homeRuns: nil)
            #expect(throws: InvalidQuery.self) { try ast { $0.stats == stats } }
        }
    }

    @Suite("Strings")
    struct StringTests {
        @Test func matchesAreCaseSensitiveUnlessAsked() throws {
            #expect(try ast { $0.lastName.hasPrefix("Ped") }
                    == .string(path("lastName"), .hasPrefix, "Ped", caseInsensitive: false))
            #expect(try ast { $0.lastName.hasSuffix("oia") }
                    == .string(path("lastName"), .hasSuffix, "oia", caseInsensitive: false))
            #expect(try ast { $0.lastName.contains("dro") }
                    == .string(path("lastName"), .contains, "dro", caseInsensitive: false))
            #expect(try ast { $0.lastName.hasPrefix("ped", caseInsensitive: true) }
                    == .string(path("lastName"), .hasPrefix, "ped", caseInsensitive: true))
            #expect(try ast { $0.nickname.contains("Papi") }
                    == .string(path("nickname"), .contains, "Papi", caseInsensitive: false))
        }
    }

    @Suite("Nested documents, arrays, dictionaries")
    struct StructureTests {
        @Test func nestedAndOptionalNestedDocuments() throws {
            #expect(try ast { $0.stats.hits > 100 } == .compare(path("stats", "hits"), .greater, 100))
            #expect(try ast { $0.agent.name == "Scott Boras" } == .compare(path("agent", "name"), .equal, "Scott Boras"))
            #expect(try ast { $0.agent.phone == nil } == .isNull(path("agent", "phone")))
            #expect(try ast { $0.agent.name.hasPrefix("S") }
                    == .string(path("agent", "name"), .hasPrefix, "S", caseInsensitive: false))
            // Through an optional document, fields are optional: `== nil` is available.
            let field: DocumentField<String?> = Ballplayer.Fields(_path: .root).agent.name
            #expect(field.fieldPath == path("agent", "name"))
        }

        @Test func arraysOfScalars() throws {
            #expect(try ast { $0.tags.contains("injured") } == .arrayContains(path("tags"), "injured"))
            #expect(try ast { $0.tags.isEmpty } == .arrayCount(path("tags"), .equal, 0))
            #expect(try ast { $0.tags.count >= 2 } == .arrayCount(path("tags"), .greaterOrEqual, 2))
            #expect(try ast { $0.tags.count == 1 } == .arrayCount(path("tags"), .equal, 1))
            #expect(try ast { $0.tags.count != 1 } == .arrayCount(path("tags"), .notEqual, 1))
            #expect(try ast { $0.tags.count < 3 } == .arrayCount(path("tags"), .less, 3))
            #expect(try ast { $0.tags[0] == "captain" }
                    == .compare(FieldPath([.key("tags"), .index(0)]), .equal, "captain"))
        }

        @Test func arraysOfDocumentsUseElementRelativePaths() throws {
            #expect(try ast { $0.games.any { $0.opponent == "NYY"; $0.runs >= 2 } }
                    == .any(path("games"), .and([.compare(path("opponent"), .equal, "NYY"),
                                                 .compare(path("runs"), .greaterOrEqual, 2)])))
            #expect(try ast { $0.games.all { $0.runs < 5 } }
                    == .all(path("games"), .compare(path("runs"), .less, 5)))
            #expect(try ast { $0.games.any { _ in AnyOf { $0.runs == 0; $0.opponent.hasPrefix("T") } } }
                    == .any(path("games"), .or([.compare(path("runs"), .equal, 0),
                                                .string(path("opponent"), .hasPrefix, "T", caseInsensitive: false)])))
        }

        @Test func dictionaries() throws {
            #expect(try ast { $0.extra["rings"] >= 2 } == .compare(path("extra", "rings"), .greaterOrEqual, 2))
            #expect(try ast { $0.extra["odd.key"] == nil } == .isNull(path("extra", "odd.key")))
        }

        @Test func untypedFields() throws {
            #expect(try ast { $0["stats", "battingAverage"] >= 0.3 }
                    == .compare(path("stats", "battingAverage"), .greaterOrEqual, .double(0.3)))
            #expect(try ast { $0["nickname"] == nil } == .isNull(path("nickname")))
            #expect(try ast(JSONValue.self) { $0.stats.battingAverage >= 0.3 }
                    == .compare(path("stats", "battingAverage"), .greaterOrEqual, .double(0.3)))
            #expect(try ast(JSONValue.self) { $0.lastName.hasPrefix("Ped") }
                    == .string(path("lastName"), .hasPrefix, "Ped", caseInsensitive: false))
            #expect(try ast(JSONValue.self) { $0.tags.arrayContains("rookie"); $0.tags.count > 0 }
                    == .and([.arrayContains(path("tags"), "rookie"), .arrayCount(path("tags"), .greater, 0)]))
            #expect(try ast(JSONValue.self) { $0.games.any { $0.runs == 4 } }
                    == .any(path("games"), .compare(path("runs"), .equal, 4)))
            #expect(try ast(JSONValue.self) { $0["odd key"][2] == "x" }
                    == .compare(FieldPath([.key("odd key"), .index(2)]), .equal, "x"))
            #expect(try ast { $0.stats.untyped.hits == 3 } == .compare(path("stats", "hits"), .equal, 3))
        }

        @Test func codingKeysNameTheStoredMembers() throws {
            #expect(try ast(Renamed.self) { $0.firstName == "Ann" } == .compare(path("first_name"), .equal, "Ann"))
        }
    }
}
