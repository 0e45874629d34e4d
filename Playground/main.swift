// A guided tour of DocStore on the classic Teams/Players example.
// Run it with `swift run Playground`: every step prints what it does.
import DocStore
import Foundation

func step(_ title: String) {
    print("\n== \(title)")
}

struct Cancelled: Error {}

/// The view model did not show a write within the wait's timeout.
struct NotShown: Error {}

func seen(_ shown: Bool) throws {
    guard shown else { throw NotShown() }
}

/// Chapters 1–11: the synchronous API, as a script or a command-line tool uses it.
func synchronousTour() throws {
    step("1. Create a store (in memory here; DocumentStore(path:) for a file)")
    let store = try DocumentStore.inMemory()
    let teams = store.collection(Team.self)        // the "teams" collection
    let players = store.collection(Player.self)    // the "players" collection
    print("collections: \(teams.name), \(players.name)")

    step("2. Insert four teams and four players, one transaction each")
    try teams.insert(contentsOf: alEastTeams)
    try players.insert(contentsOf: redSoxPlayers)
    print("\(try teams.count()) teams, \(try players.count()) players")

    step("3. Find a team by id")
    let boston = try teams.get(1)
    print("team 1: \(boston.map { "\($0.city) \($0.nickName)" } ?? "none")")
    print("team 9: \(try teams.get(9).map(\.city) ?? "none")")

    step("4. Find all players, sorted by last name")
    for player in try players.query.sorted(by: { $0.lastName }).fetch() {
        print(describe(player))
    }

    step("5. Query players by team: the Red Sox, by number")
    let redSox = try players.filter { $0.teamId == 1 }.sorted { $0.number }.fetch()
    print(redSox.map { "#\($0.number) \($0.lastName)" }.joined(separator: ", "))

    step("6. Query players by position: infielders with a number above 10")
    let infielders = try players
        .filter {
            $0.number > 10
            AnyOf {
                $0.position == .firstBase
                $0.position == .secondBase
                $0.position == .shortstop
            }
        }
        .sorted { $0.lastName }
        .fetch()
    print(infielders.map(describe).joined(separator: "\n"))
    print("players without a nickname: \(try players.count { $0.nickname == nil })")

    step("7. Update: Napoli changes his number, atomically")
    let napoli = try players.update(2) { $0.number = 44 }
    print("now \(describe(napoli))")

    step("8. Update by query: Red Sox with a one-digit number move to Toronto, one statement")
    let moved = try players.filter { $0.teamId == 1; $0.number < 10 }.update { $0.teamId.set(to: 4) }
    print("moved \(moved) player(s): \(try players.filter { $0.teamId == 4 }.select { ($0.lastName) }.joined(separator: ", "))")

    step("9. Index teamId, and see SQLite use it")
    try players.createIndex(on: \.teamId)
    let plan = try players.filter { $0.teamId == 1 }.explain()
    print("uses an index: \(plan.usesIndex)")

    step("10. Delete a player")
    print("deleted player 4: \(try players.delete(4))")
    print("\(try players.count()) players left")

    step("11. A transaction is all or nothing")
    do {
        try store.write { tx in
            try tx.collection(Team.self).delete(2)
            try tx.collection(Player.self).deleteAll()
            throw Cancelled()
        }
    } catch is Cancelled {
        print("rolled back: \(try teams.count()) teams, \(try players.count()) players")
    }
}

/// Chapter 12: an app's repository layer over the async API, and a view model
/// whose live query follows the repository's writes.
@MainActor
func repositoryTour() async throws {
    step("12. An app's repository (async) and a view model on a live query")
    let repository = DocStoreRepository(store: try DocumentStore.inMemory())
    try await repository.saveAll(alEastTeams)
    try await repository.saveAll(redSoxPlayers)
    let byLastName = try await repository.fetch(Player.self, sorted: Sorted(key: "lastName", ascending: true))
    print("by \"lastName\": \(byLastName.map(\.lastName).joined(separator: ", "))")
    do {
        _ = try await repository.fetch(Player.self, sorted: Sorted(key: "lastname"))
    } catch {
        print("by \"lastname\": \(error.localizedDescription)")
    }

    let model = RosterViewModel(repository: repository, teamId: 1)
    try seen(await model.wait(until: { model.isLoaded }))
    print("roster: \(model.players.map(\.lastName).joined(separator: ", ")) (\(model.playerCount) in the league)")

    try await model.sign(Player(id: 5, firstName: "Hanley", lastName: "Ramirez", number: 13, teamId: 0, position: .firstBase))
    try seen(await model.wait(until: { model.players.count == 5 }))
    print("signed: \(model.players.map { "#\($0.number) \($0.lastName)" }.joined(separator: ", "))")

    guard var ortiz = byLastName.first(where: { $0.lastName == "Ortiz" }) else { throw Cancelled() }
    ortiz.number = 99
    try await repository.update(ortiz)
    try seen(await model.wait(until: { model.players.last?.number == 99 }))
    print("updated: \(model.lines.last ?? "")")

    try await repository.save(Player(id: 6, firstName: "Jose", lastName: "Bautista", number: 19, teamId: 4, position: .designatedHitter))
    try seen(await model.wait(until: { model.playerCount == 6 }))
    print("a Blue Jay signs: roster still \(model.players.count), league \(model.playerCount)")

    let jays = try await repository.fetch(Player.self, predicate: { $0.teamId == 4 })
    print("Blue Jays: \(jays.map(\.lastName).joined(separator: ", "))")

    try await repository.deleteAll(Player.self)
    try seen(await model.wait(until: { model.players.isEmpty && model.playerCount == 0 }))
    print("after deleteAll: roster \(model.players.count), league \(model.playerCount)")

    try await repository.reset()
    print("after reset: \(try await repository.fetch(Team.self).count) teams")
}

do {
    try synchronousTour()
    try await repositoryTour()
} catch {
    print("error: \(error)")
    exit(1)
}
