import Foundation
import Testing
@testable import DocStore

extension PredicateTests {
    /// Every expression the converter supports, written as `#Predicate` and as the
    /// DSL: SQLite, the evaluator, `Predicate.evaluate` and the DSL select the same players.
    @Suite("#Predicate: every supported expression")
    struct PredicateDifferentialTests {
        static let f = Ballplayer.Fields(_path: .root)

        static func comparisons() -> [PredicateCase] {
            let f = Self.f
            let k = 15
            let (shortstop, right) = (Position.shortstop, Handedness.right)   // #Predicate reads `Type.member` as a key path
            var cases: [PredicateCase] = []
            cases.append(PredicateCase("teamId == 1 && number > 10", #Predicate { $0.teamId == 1 && $0.number > 10 }, f.teamId == 1 && f.number > 10))
            cases.append(PredicateCase("number == k", #Predicate { $0.number == k }, f.number == k))
            cases.append(PredicateCase("number != k", #Predicate { $0.number != k }, f.number != k))
            cases.append(PredicateCase("number < k", #Predicate { $0.number < k }, f.number < k))
            cases.append(PredicateCase("number <= k", #Predicate { $0.number <= k }, f.number <= k))
            cases.append(PredicateCase("number > k", #Predicate { $0.number > k }, f.number > k))
            cases.append(PredicateCase("number >= k", #Predicate { $0.number >= k }, f.number >= k))
            cases.append(PredicateCase("k < number (value first)", #Predicate { k < $0.number }, f.number > k))
            cases.append(PredicateCase("20 >= number (value first)", #Predicate { 20 >= $0.number }, f.number <= 20))
            cases.append(PredicateCase("lastName < \"O\"", #Predicate { $0.lastName < "O" }, f.lastName < "O"))
            cases.append(PredicateCase("battingAverage >= 0.25", #Predicate { $0.stats.battingAverage >= 0.25 }, f.stats.battingAverage >= 0.25))
            cases.append(PredicateCase("a || b", #Predicate { $0.lastName == "Ortiz" || $0.lastName == "Napoli" || $0.number == 2 },
                          f.lastName == "Ortiz" || f.lastName == "Napoli" || f.number == 2))
            cases.append(PredicateCase("!(number > 10)", #Predicate { !($0.number > 10) }, !(f.number > 10)))
            cases.append(PredicateCase("!(a && !b)", #Predicate { !($0.teamId == 2 && !($0.number < 20)) }, !(f.teamId == 2 && !(f.number < 20))))
            cases.append(PredicateCase("position == .shortstop", #Predicate { $0.position == shortstop }, f.position == .shortstop))
            cases.append(PredicateCase("bats != .right", #Predicate { $0.bats != right }, f.bats != .right))
            cases.append(PredicateCase("true", #Predicate { _ in true }, .init(.always)))
            cases.append(PredicateCase("false", #Predicate { _ in false }, .init(.or([]))))
            cases.append(PredicateCase("a constant comparison", #Predicate { _ in k + 1 > 10 }, .init(.always)))
            cases.append(PredicateCase("?: between conditions", #Predicate { $0.number > 10 ? $0.teamId == 1 : $0.teamId == 2 },
                          (f.number > 10 && f.teamId == 1) || (!(f.number > 10) && f.teamId == 2)))
            cases.append(PredicateCase("condition == false", #Predicate { ($0.number > 10) == false }, !(f.number > 10)))
            return cases
        }

        static func optionals() -> [PredicateCase] {
            let f = Self.f
            let none: String? = nil
            var cases: [PredicateCase] = []
            cases.append(PredicateCase("nickname == nil", #Predicate { $0.nickname == nil }, f.nickname == nil))
            cases.append(PredicateCase("nickname != nil", #Predicate { $0.nickname != nil }, f.nickname != nil))
            cases.append(PredicateCase("nickname == captured nil", #Predicate { $0.nickname == none }, f.nickname == nil))
            cases.append(PredicateCase("nickname == \"Big Papi\"", #Predicate { $0.nickname == "Big Papi" }, f.nickname == "Big Papi"))
            cases.append(PredicateCase("nickname != \"x\"", #Predicate { $0.nickname != "x" }, f.nickname != "x"))
            cases.append(PredicateCase("(nickname ?? \"\") == \"x\"", #Predicate { ($0.nickname ?? "") == "x" }, f.nickname == "x"))
            cases.append(PredicateCase("(nickname ?? \"x\") == \"x\"", #Predicate { ($0.nickname ?? "x") == "x" }, f.nickname == nil || f.nickname == "x"))
            cases.append(PredicateCase("(nickname ?? \"zzz\") > \"Laser\"", #Predicate { ($0.nickname ?? "zzz") > "Laser" }, f.nickname == nil || f.nickname > "Laser"))
            cases.append(PredicateCase("(homeRuns ?? 0) >= 100", #Predicate { ($0.stats.homeRuns ?? 0) >= 100 }, f.stats.homeRuns >= 100))
            cases.append(PredicateCase("(homeRuns ?? 0) < 100", #Predicate { ($0.stats.homeRuns ?? 0) < 100 }, f.stats.homeRuns == nil || f.stats.homeRuns < 100))
            cases.append(PredicateCase("agent?.name == \"Scott Boras\"", #Predicate { $0.agent?.name == "Scott Boras" }, f.agent.name == "Scott Boras"))
            cases.append(PredicateCase("agent?.name != \"Scott Boras\"", #Predicate { $0.agent?.name != "Scott Boras" }, f.agent.name != "Scott Boras"))
            cases.append(PredicateCase("agent?.phone == nil", #Predicate { $0.agent?.phone == nil }, f.agent.phone == nil))
            cases.append(PredicateCase("agent == nil", #Predicate { $0.agent == nil }, f.agent == nil))
            cases.append(PredicateCase("(agent?.name ?? \"none\") < \"G\"", #Predicate { ($0.agent?.name ?? "none") < "G" }, f.agent.name < "G"))
            cases.append(PredicateCase("extra[\"rings\"] == 3", #Predicate { $0.extra["rings"] == 3 }, f.extra["rings"] == 3))
            cases.append(PredicateCase("extra[\"rings\"] == nil", #Predicate { $0.extra["rings"] == nil }, f.extra["rings"] == nil))
            cases.append(PredicateCase("extra[\"rings\", default: 0] < 2", #Predicate { $0.extra["rings", default: 0] < 2 },
                          f.extra["rings"] == nil || f.extra["rings"] < 2))
            return cases
        }

        static func stringsAndArrays() -> [PredicateCase] {
            let f = Self.f
            let tags = ["captain", "slugger"]
            let noTeams: [Int] = []   // (`[Int]()` inside #Predicate crashes the macro in Swift 6.3)
            var cases: [PredicateCase] = []
            cases.append(PredicateCase("lastName.contains(\"ort\")", #Predicate { $0.lastName.contains("ort") }, f.lastName.contains("ort")))
            cases.append(PredicateCase("lastName.contains(\"\")", #Predicate { $0.lastName.contains("") }, f.lastName.contains("")))
            cases.append(PredicateCase("lastName.starts(with: \"O\")", #Predicate { $0.lastName.starts(with: "O") }, f.lastName.hasPrefix("O")))
            cases.append(PredicateCase("lastName.starts(with: \"\")", #Predicate { $0.lastName.starts(with: "") }, .init(.always)))
            cases.append(PredicateCase("(nickname ?? \"\").contains(\"a\")", #Predicate { ($0.nickname ?? "").contains("a") }, f.nickname.contains("a")))
            cases.append(PredicateCase("firstName.isEmpty", #Predicate { !$0.firstName.isEmpty }, !(f.firstName == "")))
            cases.append(PredicateCase("tags.contains(\"captain\")", #Predicate { $0.tags.contains("captain") }, f.tags.contains("captain")))
            cases.append(PredicateCase("!tags.contains(\"rookie\")", #Predicate { !$0.tags.contains("rookie") }, !f.tags.contains("rookie")))
            cases.append(PredicateCase("tags.count >= 2", #Predicate { $0.tags.count >= 2 }, f.tags.count >= 2))
            cases.append(PredicateCase("1 < tags.count", #Predicate { 1 < $0.tags.count }, f.tags.count > 1))
            cases.append(PredicateCase("tags.isEmpty", #Predicate { $0.tags.isEmpty }, f.tags.isEmpty))
            cases.append(PredicateCase("tags.first == \"captain\"", #Predicate { $0.tags.first == "captain" }, f.tags[0] == "captain"))
            cases.append(PredicateCase("tags == [captain, slugger]", #Predicate { $0.tags == tags }, f.tags.count == 2 && f.tags[0] == "captain" && f.tags[1] == "slugger"))
            cases.append(PredicateCase("tags != []", #Predicate { $0.tags != [] }, !f.tags.isEmpty))
            cases.append(PredicateCase("games.contains { runs >= 3 }", #Predicate { $0.games.contains { $0.runs >= 3 } }, f.games.any { $0.runs >= 3 }))
            cases.append(PredicateCase("games.allSatisfy { runs < 3 }", #Predicate { $0.games.allSatisfy { $0.runs < 3 } }, f.games.all { $0.runs < 3 }))
            cases.append(PredicateCase("games.contains { NYY && runs > 0 }", #Predicate { $0.games.contains { $0.opponent == "NYY" && $0.runs > 0 } },
                          f.games.any { $0.opponent == "NYY"; $0.runs > 0 }))
            cases.append(PredicateCase("tags.contains { starts(with: \"s\") }", #Predicate { $0.tags.contains { $0.starts(with: "s") } },
                          .init(.any(path("tags"), .string(.root, .hasPrefix, "s", caseInsensitive: false)))))
            cases.append(PredicateCase("games.contains { [NYY, TB].contains(opponent) }",
                          #Predicate { $0.games.contains { game in ["NYY", "TB"].contains(game.opponent) } },
                          f.games.any { $0.opponent.in(["NYY", "TB"]) }))
            cases.append(PredicateCase("[\"Ort\", \"Nap\"].contains { lastName.starts(with: $0) }",
                          #Predicate { player in ["Ort", "Nap"].contains { player.lastName.starts(with: $0) } },
                          f.lastName.hasPrefix("Ort") || f.lastName.hasPrefix("Nap")))
            cases.append(PredicateCase("[1, 3].contains(teamId)", #Predicate { [1, 3].contains($0.teamId) }, f.teamId.in([1, 3])))
            cases.append(PredicateCase("[].contains(teamId)", #Predicate { noTeams.contains($0.teamId) }, .init(.or([]))))
            cases.append(PredicateCase("(10...20).contains(number)", #Predicate { (10...20).contains($0.number) }, f.number >= 10 && f.number <= 20))
            cases.append(PredicateCase("(10..<20).contains(number)", #Predicate { (10..<20).contains($0.number) }, f.number >= 10 && f.number < 20))
            cases.append(PredicateCase("(1...2).contains(tags.count)", #Predicate { (1...2).contains($0.tags.count) }, f.tags.count >= 1 && f.tags.count <= 2))
            return cases
        }

        static func capturedValues() throws -> [PredicateCase] {
            let f = Self.f
            let cutoff = Ballplayer.reference.addingTimeInterval(30 * 86_400)
            let card = try #require(UUID(uuidString: "00000000-0000-0000-0000-000000000007"))
            let reference = Ballplayer(id: 0, firstName: "R", lastName: "R", number: 7, teamId: 3, position: .catcher)
            let range = 5...9
            let teams: Set = [2, 4]
            let (from, upTo, through) = (30..., ..<10, ...12)
            var cases: [PredicateCase] = []
            cases.append(PredicateCase("debut > cutoff (Date)", #Predicate { $0.debut > cutoff }, f.debut > cutoff))
            cases.append(PredicateCase("card == uuid", #Predicate { $0.card == card }, f.card == card))
            cases.append(PredicateCase("teamId == model.teamId", #Predicate { $0.teamId == reference.teamId }, f.teamId == 3))
            cases.append(PredicateCase("captured range", #Predicate { range.contains($0.number) }, f.number >= 5 && f.number <= 9))
            cases.append(PredicateCase("captured set", #Predicate { teams.contains($0.teamId) }, f.teamId.in([2, 4])))
            cases.append(PredicateCase("(30...).contains(number)", #Predicate { from.contains($0.number) }, f.number >= 30))
            cases.append(PredicateCase("(..<10).contains(number)", #Predicate { upTo.contains($0.number) }, f.number < 10))
            cases.append(PredicateCase("(...12).contains(number)", #Predicate { through.contains($0.number) }, f.number <= 12))
            return cases
        }

        @Test(arguments: ["comparisons", "optionals", "strings and arrays", "captured values"])
        func everySupportedExpressionAgrees(group: String) throws {
            let fixture = try PredicateFixture()
            let cases = switch group {
            case "comparisons": Self.comparisons()
            case "optionals": Self.optionals()
            case "strings and arrays": Self.stringsAndArrays()
            default: try Self.capturedValues()
            }
            for testCase in cases {
                try fixture.check(testCase.text, testCase.predicate, testCase.dsl)
            }
        }
    }
}
