import Foundation
import Testing
@testable import DocStore

extension DSLTests {
    @Suite("Condition builder")
    struct BuilderTests {
        let teamId = path("teamId")
        let number = path("number")

        @Test func linesAreANDed() throws {
            #expect(try ast { $0.teamId == 1; $0.number >= 10 }
                    == .and([.compare(teamId, .equal, 1), .compare(number, .greaterOrEqual, 10)]))
            #expect(try ast { _ in } == .always)
        }

        @Test func groups() throws {
            #expect(try ast { _ in AnyOf { $0.teamId == 1; $0.number == 2 } }
                    == .or([.compare(teamId, .equal, 1), .compare(number, .equal, 2)]))
            #expect(try ast { _ in AllOf { $0.teamId == 1; $0.number == 2 } }
                    == .and([.compare(teamId, .equal, 1), .compare(number, .equal, 2)]))
            #expect(try ast { _ in Not { $0.teamId == 1; $0.number == 2 } }
                    == .not(.and([.compare(teamId, .equal, 1), .compare(number, .equal, 2)])))
            #expect(try ast { _ in AnyOf { _ in } } == .or([]))
            #expect(try ast { _ in AnyOf { $0.teamId == 1 } } == .compare(teamId, .equal, 1))
            #expect(try ast { _ in AnyOf { AllOf { $0.teamId == 1; $0.number == 2 }; $0.number == 3 } }
                    == .or([.and([.compare(teamId, .equal, 1), .compare(number, .equal, 2)]),
                            .compare(number, .equal, 3)]))
        }

        @Test func groupsInBlocksWithNamedParameters() throws {
            #expect(try ast { player in player.teamId == 1; AnyOf { p in p.number == 2; p.number == 3 } }
                    == .and([.compare(teamId, .equal, 1), .or([.compare(number, .equal, 2), .compare(number, .equal, 3)])]))
            #expect(try ast { _ in AnyOf { $0.teamId == 1; $0.number == 2 } }
                    == .or([.compare(teamId, .equal, 1), .compare(number, .equal, 2)]))
        }

        @Test func logicalOperators() throws {
            #expect(try ast { $0.teamId == 1 && $0.number == 2 }
                    == .and([.compare(teamId, .equal, 1), .compare(number, .equal, 2)]))
            #expect(try ast { $0.teamId == 1 || $0.number == 2 || $0.number == 3 }
                    == .or([.compare(teamId, .equal, 1), .compare(number, .equal, 2), .compare(number, .equal, 3)]))
            #expect(try ast { !($0.teamId == 1) } == .not(.compare(teamId, .equal, 1)))
            #expect(try ast { !(!($0.teamId == 1)) } == .compare(teamId, .equal, 1))
        }

        @Test(arguments: [true, false])
        func ifAndIfElse(flag: Bool) throws {
            let expected: Condition = flag
                ? .and([.compare(teamId, .equal, 1), .compare(number, .equal, 2)])
                : .and([.compare(teamId, .equal, 1), .compare(number, .equal, 3)])
            #expect(try ast {
                $0.teamId == 1
                if flag { $0.number == 2 } else { $0.number == 3 }
            } == expected)
            #expect(try ast {
                $0.teamId == 1
                if flag { $0.number == 2 }
            } == (flag ? expected : .compare(teamId, .equal, 1)))
        }

        @Test func skippedLinesAreNeutralInsideAnyOf() throws {
            let minimum: Double? = nil
            #expect(try ast { _ in
                AnyOf {
                    $0.teamId == 1
                    if let minimum { $0.stats.battingAverage >= minimum }
                }
            } == .compare(teamId, .equal, 1))
        }

        @Test func ifLetSwitchAndFor() throws {
            let minimum: Double? = 0.3
            let position = Position.shortstop
            let names = ["Ortiz", "Napoli"]
            #expect(try ast {
                if let minimum { $0.stats.battingAverage >= minimum }
                switch position {
                case .shortstop: $0.number < 10
                default: $0.number >= 10
                }
                AnyOf {
                    for name in names { $0.lastName == name }
                }
            } == .and([
                .compare(path("stats", "battingAverage"), .greaterOrEqual, .double(0.3)),
                .compare(number, .less, 10),
                .or([.compare(path("lastName"), .equal, "Ortiz"), .compare(path("lastName"), .equal, "Napoli")]),
            ]))
        }

        @Test func theIssueExample() throws {
            let minimumAverage: Double? = 0.25
            let bos = Team(id: 1, city: "Boston", nickName: "Red Sox", abbreviation: "BOS")
            #expect(try ast {
                $0.teamId == bos.id
                $0.number >= 10
                AnyOf {
                    $0.position == .shortstop
                    $0.lastName.hasPrefix("Ped")
                }
                if let minimumAverage {
                    $0.stats.battingAverage >= minimumAverage
                }
                Not { $0.tags.contains("injured") }
            } == .and([
                .compare(teamId, .equal, 1),
                .compare(number, .greaterOrEqual, 10),
                .or([.compare(path("position"), .equal, "Shortstop"),
                     .string(path("lastName"), .hasPrefix, "Ped", caseInsensitive: false)]),
                .compare(path("stats", "battingAverage"), .greaterOrEqual, .double(0.25)),
                .not(.arrayContains(path("tags"), "injured")),
            ]))
        }
    }
}
