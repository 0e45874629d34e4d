import DocStore

/// The standard workload's data and keys, exactly as ../shared/bench/WORKLOAD.md
/// defines them, shared by every way so that all of them do the same work.
/// `@Document` gives DocStore's queries their typed fields; the peers ignore it.
@Document
struct Player: Codable, Identifiable, Equatable, Sendable {
    var id: Int
    var firstName: String
    var lastName: String
    var number: Int
    var teamId: Int
    var position: String
    var battingAverage: Double
    var nickname: String?
    var tags: [String]
}

/// W9's second collection: `{"id": t, "name": "Team " + t, "city": "City " + t}`.
@Document
struct BenchTeam: Codable, Identifiable, Sendable {
    var id: Int
    var name: String
    var city: String
}

/// A player with the member W9's join fills (DocStore's ways only): the same
/// stored documents, read through a model that names the joined team
/// (`Identifiable`, as a PostgreSQL collection's model must be).
@Document
struct RosterLine: Codable, Identifiable, Sendable {
    var id: Int
    var lastName: String
    var teamId: Int
    var team: BenchTeam? = nil
}

enum Workload {
    static let positions = [
        "Pitcher", "Catcher", "First Base", "Second Base", "Third Base",
        "Shortstop", "Left Field", "Center Field", "Right Field", "Designated Hitter",
    ]
    static let allTags = ["rookie", "allstar", "veteran"]

    /// Document `i` (1-based), field by field as WORKLOAD.md says.
    static func player(_ i: Int) -> Player {
        Player(
            id: i,
            firstName: "First" + String(i),
            lastName: "Last" + String((i * 7919) % 1000),
            number: (i * 31) % 100,
            teamId: i % 30,
            position: positions[i % 10],
            battingAverage: Double((i * 37) % 400) / 1000.0,
            nickname: i % 3 == 0 ? "Nick" + String(i) : nil,
            tags: Array(allTags.prefix(i % 4)))
    }

    /// Documents 1...n.
    static func players(_ n: Int) -> [Player] {
        (1...n).map(player)
    }

    /// W2's keys: ((i * 7919) % N) + 1 for i in 0..<N.
    static func lookupKeys(_ n: Int) -> [Int] {
        (0..<n).map { ($0 * 7919) % n + 1 }
    }

    /// W3: 20 queries `teamId == t && number >= 50`, t in 0..<20.
    static let scanTeams = 0..<20
    static let scanMinimumNumber = 50
    /// W4: 30 queries `teamId == t`, t in 0..<30.
    static let indexedTeams = 0..<30
    /// W7: further inserts, keys N+1...N+1000.
    static let commitCount = 1000
    /// W8: rounds of grouping.
    static let groupRounds = 5
    /// W9: the 30 teams, and the teams whose players are joined.
    static let teams = (0..<30).map { BenchTeam(id: $0, name: "Team " + String($0), city: "City " + String($0)) }
    static let joinedTeams = 0..<10
}

extension Player {
    /// A cheap sum over every decoded field, so no decoding can be skipped and the
    /// ways can be checked against each other.
    var checksum: Int {
        var sum = id &+ number &+ teamId &* 3 &+ Int(battingAverage * 1000) &* 5
        sum &+= firstName.utf8.count &+ lastName.utf8.count &* 7 &+ position.utf8.count &* 11
        sum &+= (nickname?.utf8.count ?? 0) &* 13
        for tag in tags { sum &+= tag.utf8.count &* 17 }
        return sum
    }
}
