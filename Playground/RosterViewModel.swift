// A view model in the shape a SwiftUI screen holds: @Observable, on the main
// actor, showing a live query that stays current as the repository writes, and
// sending its actions through the repository.
import DocStore
import Observation

/// One team's roster, by number, and the league's player count, kept current.
@MainActor @Observable
final class RosterViewModel {
    let teamId: Int
    /// The team's players by number: a live query, refetched on the store's
    /// threads after each commit that changes it, published here on the main actor.
    private let roster: ObservableQuery<[Player]>
    /// Every team's players, counted: `observe` runs only the count again.
    private let leagueCount: ObservableQuery<Int>
    private let repository: any Repository

    init(repository: DocStoreRepository, teamId: Int) {
        self.teamId = teamId
        self.repository = repository
        let players = repository.collection(Player.self)
        roster = players.filter { $0.teamId == teamId }.sorted { $0.number }.observable()
        leagueCount = ObservableQuery(players.query.observe { try $0.count() }, initial: 0)
    }

    /// What a view shows: `ForEach(model.players) { … }`.
    var players: [Player] { roster.results }
    var playerCount: Int { leagueCount.results }
    var isLoaded: Bool { roster.isLoaded && leagueCount.isLoaded }
    /// The error that ended the live query, if one did.
    var error: (any Error)? { roster.error ?? leagueCount.error }
    var lines: [String] { players.map(describe) }

    // MARK: Actions, as buttons would call them

    func sign(_ player: Player) async throws {
        var player = player
        player.teamId = teamId
        try await repository.save(player)
    }

    func release(_ player: Player) async throws {
        try await repository.delete(player)
    }

    // MARK: Waiting, for scripts and tests (a SwiftUI view just re-renders)

    /// Waits until `condition` holds, looking again each time the roster or the
    /// count is published. Returns false when it doesn't hold within `timeout`.
    func wait(until condition: () -> Bool, timeout: Duration = .seconds(5)) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !condition() {
            guard clock.now < deadline else { return false }
            let (published, continuation) = AsyncStream<Void>.makeStream()
            withObservationTracking {
                _ = roster.results
                _ = leagueCount.results
            } onChange: {
                continuation.yield()
            }
            let timer = Task {
                try? await Task.sleep(until: deadline, clock: clock)
                continuation.yield()
            }
            for await _ in published { break }
            timer.cancel()
        }
        return true
    }
}
