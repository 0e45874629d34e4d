import DocStore
import Testing

// This target is built with `.defaultIsolation(MainActor.self)`: every declaration
// here without `nonisolated` is main-actor isolated, as in a new Xcode app target.
// That the file compiles at all is half the test: the nonisolated and
// `@concurrent` functions below use the models' generated conformances, fields and
// key paths, which they could not if `@Document` output were main-actor isolated.

/// A model as an app declares it for use off the main actor.
@Document
nonisolated struct Player: Codable, Identifiable, Sendable, Equatable {
    var id: Int
    var name: String
    var teamId: Int
    var number: Int
    var stats: Stats
}

/// A nested model: its fields are reached through `$0.stats`.
@Document
nonisolated struct Stats: Codable, Sendable, Equatable {
    var hits: Int
}

let roster = [
    Player(id: 1, name: "Ortiz", teamId: 1, number: 34, stats: Stats(hits: 150)),
    Player(id: 2, name: "Pedroia", teamId: 1, number: 15, stats: Stats(hits: 170)),
    Player(id: 3, name: "Betts", teamId: 1, number: 50, stats: Stats(hits: 190)),
    Player(id: 4, name: "Jones", teamId: 2, number: 10, stats: Stats(hits: 120)),
    Player(id: 5, name: "Holt", teamId: 1, number: 2, stats: Stats(hits: 90)),
]

/// A typed query in a synchronous nonisolated function: callable from any thread.
nonisolated func teamRoster(_ players: DocumentCollection<Player>, team: Int, minimumHits: Int) throws -> [String] {
    try players
        .filter {
            $0.teamId == team
            $0.stats.hits >= minimumHits
        }
        .sorted { $0.number.descending }
        .fetch()
        .map(\.name)
}

/// Runs on the global concurrent executor, never on the caller's actor
/// (`NonisolatedNonsendingByDefault` would otherwise keep a nonisolated async
/// function on the main actor when called from it).
@concurrent nonisolated func concurrentCount(_ players: DocumentCollection<Player>, above number: Int) async throws -> Int {
    try await players.filter { $0.number > number }.count()
}

@Suite("@Document under default MainActor isolation")
struct DefaultIsolationTests {
    let store: DocumentStore
    let players: DocumentCollection<Player>

    init() throws {
        store = try DocumentStore.inMemory()
        players = store.collection(Player.self)
        try players.insert(contentsOf: roster)
    }

    @Test func insertFilterSortFetchOnTheMainActor() throws {
        _ = try players.insert(Player(id: 6, name: "Devers", teamId: 1, number: 11, stats: Stats(hits: 160)))
        let found = try players
            .filter { $0.teamId == 1; $0.number >= 11 }
            .sorted { $0.number }
            .fetch()
        #expect(found.map(\.name) == ["Devers", "Pedroia", "Ortiz", "Betts"])
        #expect(try players.get(6)?.stats.hits == 160)
    }

    @Test func typedIndexIsCreatedAndUsed() throws {
        try players.createIndex(on: \.teamId, \.number)
        let query = players.filter { $0.teamId == 2 }
        #expect(try query.explain().usesIndex)
        #expect(try query.fetch().map(\.id) == [4])
    }

    @Test func typedQueryInADetachedTask() async throws {
        let players = self.players
        let names = try await Task.detached {
            // Off the main actor: a detached task inherits no actor.
            try players.filter { $0.stats.hits > 100 }.sorted { $0.name }.fetch().map(\.name)
        }.value
        #expect(names == ["Betts", "Jones", "Ortiz", "Pedroia"])
    }

    @Test func typedQueriesFromNonisolatedFunctions() async throws {
        #expect(try teamRoster(players, team: 1, minimumHits: 100) == ["Betts", "Ortiz", "Pedroia"])
        #expect(try await concurrentCount(players, above: 14) == 3)
    }

    @Test func createIndexAndWriteOffTheMainActor() async throws {
        let players = self.players
        let found = try await Task.detached {
            try players.createIndex(on: \.stats.hits)
            _ = try players.insert(Player(id: 7, name: "Story", teamId: 1, number: 10, stats: Stats(hits: 200)))
            let query = players.filter { $0.stats.hits >= 190 }.sorted { $0.stats.hits.descending }
            return (try query.explain().usesIndex, try query.fetch())
        }.value
        #expect(found.0)
        #expect(found.1.map(\.id) == [7, 3])
    }
}
