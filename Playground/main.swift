// A guided tour of DocStore on the classic Teams/Players example.
// Run it with `swift run Playground`; every step prints what it does.
import DocStore
import Foundation

struct Team: Codable, Identifiable {
    var id: Int
    var city: String
    var nickName: String
    var abbreviation: String
}

struct Player: Codable, Identifiable {
    var id: Int
    var firstName: String
    var lastName: String
    var number: Int
    var teamId: Int
    var position: String
}

func step(_ title: String) {
    print("\n== \(title)")
}

func show(_ player: Player) -> String {
    "#\(player.number) \(player.firstName) \(player.lastName), \(player.position)"
}

do {
    step("Create a store (in memory here; DocumentStore(path:) for a file)")
    let store = try DocumentStore.inMemory()
    let teams = store.collection(Team.self)
    let players = store.collection(Player.self)
    print("collections: \(teams.name), \(players.name)")

    step("Insert the teams and players, one transaction each")
    try teams.insert(contentsOf: [
        Team(id: 1, city: "Boston", nickName: "Red Sox", abbreviation: "BOS"),
        Team(id: 2, city: "Baltimore", nickName: "Orioles", abbreviation: "BAL"),
        Team(id: 3, city: "Tampa Bay", nickName: "Rays", abbreviation: "TB"),
        Team(id: 4, city: "Toronto", nickName: "Blue Jays", abbreviation: "TOR"),
    ])
    try players.insert(contentsOf: [
        Player(id: 1, firstName: "David", lastName: "Ortiz", number: 34, teamId: 1, position: "Designated Hitter"),
        Player(id: 2, firstName: "Mike", lastName: "Napoli", number: 12, teamId: 1, position: "First Base"),
        Player(id: 3, firstName: "Dustin", lastName: "Pedroia", number: 15, teamId: 1, position: "Second Base"),
        Player(id: 4, firstName: "Xander", lastName: "Bogaerts", number: 2, teamId: 1, position: "Shortstop"),
    ])
    print("\(try teams.count()) teams, \(try players.count()) players")

    step("Find a team by id")
    if let boston = try teams.get(1) {
        print("team 1: \(boston.city) \(boston.nickName)")
    }
    print("team 9: \(try teams.get(9).map(\.city) ?? "none")")

    step("Find all players, in key order")
    for player in try players.all() {
        print(show(player))
    }

    step("Update a player atomically")
    let moved = try players.update(2) { $0.number = 44 }
    print("now \(show(moved))")

    step("Delete a player")
    print("deleted player 4: \(try players.delete(4))")
    print("\(try players.count()) players left")

    step("A transaction: all or nothing")
    struct Cancelled: Error {}
    do {
        try store.write { tx in
            try tx.collection(Team.self).delete(2)
            try tx.collection(Player.self).deleteAll()
            throw Cancelled()
        }
    } catch is Cancelled {
        print("rolled back: \(try teams.count()) teams, \(try players.count()) players")
    }
} catch {
    print("error: \(error)")
    exit(1)
}
