import Foundation
@testable import DocStore

// `Position` is declared by the README's query code, in ReadmeUsageTests.swift.

enum Handedness: Int, Codable {
    case left = 1, right = 2, both = 3
}

@Document
struct Stats: Codable, Equatable {
    var games: Int
    var hits: Int
    var battingAverage: Double
    var homeRuns: Int?
}

@Document
struct Agent: Codable, Equatable {
    var name: String
    var phone: String?
}

@Document
struct Game: Codable, Equatable {
    var opponent: String
    var runs: Int
}

@Document
struct Ballplayer: Codable, Identifiable, Equatable {
    var id: Int
    var firstName: String
    var lastName: String
    var number: Int
    var teamId: Int
    var position: Position
    var bats: Handedness
    var nickname: String?
    var tags: [String]
    var stats: Stats
    var agent: Agent?
    var games: [Game]
    var extra: [String: Int]
    var debut: Date
    var card: UUID

    var fullName: String { firstName + " " + lastName }
    static let league = "AL"
}

/// A model with custom CodingKeys: `firstName` is stored as `first_name`, `cache` isn't stored.
@Document
struct Renamed: Codable, Equatable {
    var id: Int
    var firstName: String
    var cache: String? = nil

    enum CodingKeys: String, CodingKey {
        case id
        case firstName = "first_name"
    }
}

extension Ballplayer {
    static let reference = Date(timeIntervalSinceReferenceDate: 100_000_000)

    init(id: Int, firstName: String, lastName: String, number: Int, teamId: Int, position: Position,
         nickname: String? = nil, tags: [String] = [], average: Double = 0.25, homeRuns: Int? = nil,
         agent: Agent? = nil, games: [Game] = [], extra: [String: Int] = [:]) {
        self.init(id: id, firstName: firstName, lastName: lastName, number: number, teamId: teamId,
                  position: position, bats: .right, nickname: nickname, tags: tags,
                  stats: Stats(games: 100, hits: Int(average * 400), battingAverage: average, homeRuns: homeRuns),
                  agent: agent, games: games, extra: extra,
                  debut: Ballplayer.reference.addingTimeInterval(Double(id) * 86_400),
                  card: UUID(uuidString: "00000000-0000-0000-0000-\(String(format: "%012d", id))")!)
    }
}

let sampleBallplayers = [
    Ballplayer(id: 1, firstName: "David", lastName: "Ortiz", number: 34, teamId: 1, position: .designatedHitter,
           nickname: "Big Papi", tags: ["captain", "slugger"], average: 0.286, homeRuns: 541,
           agent: Agent(name: "Fernando Cuza", phone: nil),
           games: [Game(opponent: "NYY", runs: 3), Game(opponent: "TB", runs: 0)], extra: ["rings": 3]),
    Ballplayer(id: 2, firstName: "Mike", lastName: "Napoli", number: 12, teamId: 1, position: .firstBase,
           tags: ["injured"], average: 0.246, games: [Game(opponent: "BAL", runs: 1)]),
    Ballplayer(id: 3, firstName: "Dustin", lastName: "Pedroia", number: 15, teamId: 1, position: .secondBase,
           nickname: "Laser Show", tags: [], average: 0.299, homeRuns: 140, extra: ["rings": 2, "mvp": 1]),
    Ballplayer(id: 4, firstName: "Xander", lastName: "Bogaerts", number: 2, teamId: 1, position: .shortstop,
           tags: ["rookie"], average: 0.292,
           games: [Game(opponent: "NYY", runs: 2), Game(opponent: "TOR", runs: 4)]),
]

/// `Team` (declared by the README's usage code) has no `@Document`: its fields are
/// written by hand, as for any model without the macro.
extension Team: QueryableDocument {
    struct Fields: DocumentFieldSet {
        let _path: FieldPath
        init(_path: FieldPath) { self._path = _path }
        var id: DocumentField<Int> { DocumentField(_path.appending("id")) }
        var city: DocumentField<String> { DocumentField(_path.appending("city")) }
        var nickName: DocumentField<String> { DocumentField(_path.appending("nickName")) }
        var abbreviation: DocumentField<String> { DocumentField(_path.appending("abbreviation")) }
    }
}
