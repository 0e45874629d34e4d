import Foundation
import Observation
import Testing
@testable import DocStore

/// `ObservableQuery` publishes a live query's results on the main actor, where
/// Observation's tracking (SwiftUI's) sees them change.
@MainActor
@Suite("ObservableQuery", .timeLimit(.minutes(10)))
struct ObservableQueryTests {
    @Test func resultsFollowCommitsAndTrackingSeesThem() async throws {
        let store = try DocumentStore.inMemory()
        let players = store.collection(Player.self)
        try await players.insert(Player(id: 1, firstName: "A", lastName: "A", number: 1, teamId: 1, position: .catcher, nickname: nil, tags: []))
        let roster = players.filter { $0.teamId == 1 }.sorted { $0.number }.observable()
        #expect(roster.results.isEmpty && !roster.isLoaded)
        while !roster.isLoaded { try await Task.sleep(for: .milliseconds(5)) }
        #expect(roster.results.map(\.id) == [1])

        let changed = AsyncStream<Void>.makeStream()
        withObservationTracking { _ = roster.results } onChange: { changed.continuation.yield() }
        try await players.insert(Player(id: 2, firstName: "B", lastName: "B", number: 0, teamId: 1, position: .catcher, nickname: nil, tags: []))
        var notifications = changed.stream.makeAsyncIterator()
        await notifications.next()
        while roster.results.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(roster.results.map(\.id) == [2, 1])
        #expect(roster.error == nil)
    }
}
