import DocStore
import Foundation

/// A team of the American League East.
@Document
struct Team: Codable, Identifiable {
    var id: Int
    var city: String
    var nickName: String
    var abbreviation: String
}

/// Where a player plays; stored as its raw value, so queries compare it by name.
enum Position: String, Codable {
    case firstBase = "First Base"
    case secondBase = "Second Base"
    case shortstop = "Shortstop"
    case designatedHitter = "Designated Hitter"
}

/// A player, linked to a team by `teamId`.
@Document
struct Player: Codable, Identifiable {
    var id: Int
    var firstName: String
    var lastName: String
    var number: Int
    var teamId: Int
    var position: Position
    var nickname: String?
}

let alEastTeams = [
    Team(id: 1, city: "Boston", nickName: "Red Sox", abbreviation: "BOS"),
    Team(id: 2, city: "Baltimore", nickName: "Orioles", abbreviation: "BAL"),
    Team(id: 3, city: "Tampa Bay", nickName: "Rays", abbreviation: "TB"),
    Team(id: 4, city: "Toronto", nickName: "Blue Jays", abbreviation: "TOR"),
]

let redSoxPlayers = [
    Player(id: 1, firstName: "David", lastName: "Ortiz", number: 34, teamId: 1, position: .designatedHitter, nickname: "Big Papi"),
    Player(id: 2, firstName: "Mike", lastName: "Napoli", number: 12, teamId: 1, position: .firstBase),
    Player(id: 3, firstName: "Dustin", lastName: "Pedroia", number: 15, teamId: 1, position: .secondBase, nickname: "Laser Show"),
    Player(id: 4, firstName: "Xander", lastName: "Bogaerts", number: 2, teamId: 1, position: .shortstop),
]

func describe(_ player: Player) -> String {
    "#\(player.number) \(player.firstName) \(player.lastName), \(player.position.rawValue)"
}

// MARK: The models in the repository (Repository.swift): the fields callers may sort by

extension Team: RepositoryModel {
    static var sortableFields: [String: SortKey] {
        let fields = Fields(_path: .root)
        return ["city": fields.city.ascending, "nickName": fields.nickName.ascending,
                "abbreviation": fields.abbreviation.ascending]
    }
}

extension Player: RepositoryModel {
    static var sortableFields: [String: SortKey] {
        let fields = Fields(_path: .root)
        return ["firstName": fields.firstName.ascending, "lastName": fields.lastName.ascending,
                "number": fields.number.ascending, "teamId": fields.teamId.ascending,
                "position": fields.position.ascending]
    }
}
