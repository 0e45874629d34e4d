import DocStore
import Observation
import Testing

// Main-actor code as an app target writes it (default isolation): a view model
// holding a live query, and writes through the async API from the main actor.

/// A view model: main-actor isolated by default in this target.
@Observable
final class RosterModel {
    let roster: ObservableQuery<[Player]>
    private let players: DocumentCollection<Player>

    init(players: DocumentCollection<Player>) {
        self.players = players
        roster = players.filter { $0.teamId == 1 }.sorted { $0.number }.observable()
    }

    func sign(_ player: Player) async throws {
        try await players.insert(player)
    }
}

@Test func aMainActorViewModelFollowsItsLiveQuery() async throws {
    let store = try DocumentStore.inMemory()
    let players = store.collection(Player.self)
    try await players.insert(contentsOf: roster)
    let model = RosterModel(players: players)
    while !model.roster.isLoaded { try await Task.sleep(for: .milliseconds(5)) }
    #expect(model.roster.results.map(\.number) == [2, 15, 34, 50])

    try await model.sign(Player(id: 6, name: "Devers", teamId: 1, number: 11, stats: Stats(hits: 160)))
    while model.roster.results.count < 5 { try await Task.sleep(for: .milliseconds(5)) }
    #expect(model.roster.results.map(\.name) == ["Holt", "Devers", "Pedroia", "Ortiz", "Betts"])

    var counts = players.filter { $0.teamId == 2 }.observe { try $0.count() }.makeAsyncIterator()
    #expect(try await counts.next() == 1)
}
