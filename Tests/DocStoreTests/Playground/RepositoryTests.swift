import DocStore
import Foundation
import Observation
@testable import Playground
import Synchronization
import Testing

// This module has models named Team and Player too (ReadmeUsageTests): these are the tour's.
typealias TourPlayer = Playground.Player
typealias TourTeam = Playground.Team

@Suite("The Playground's repository and view model")
struct RepositoryTests {
    func repository() throws -> DocStoreRepository {
        DocStoreRepository(store: try DocumentStore.inMemory())
    }

    func player(_ id: Int, _ lastName: String, number: Int, team: Int = 1) -> TourPlayer {
        TourPlayer(id: id, firstName: "F\(id)", lastName: lastName, number: number, teamId: team, position: .shortstop)
    }

    @Test func saveSaveAllUpdateDeleteAndDeleteAllWriteThroughTheAsyncAPI() async throws {
        let repository = try repository()
        try await repository.saveAll(playground_redSox)
        try await repository.save(player(9, "Betts", number: 50))
        #expect(try await repository.fetch(TourPlayer.self).map(\.id) == [1, 2, 3, 4, 9])

        var betts = player(9, "Betts", number: 50)
        betts.number = 51
        try await repository.update(betts)
        #expect(try await repository.collection(TourPlayer.self).get(9)?.number == 51)

        #expect(try await repository.delete(betts))
        #expect(try await repository.delete(betts) == false)
        #expect(try await repository.deleteAll(TourPlayer.self) == 4)
        #expect(try await repository.fetch(TourPlayer.self).isEmpty)
    }

    @Test func updateOfAMissingModelThrowsAndStoresNothing() async throws {
        let repository = try repository()
        let error = await #expect(throws: DocStoreError.self) { try await repository.update(player(7, "Nobody", number: 1)) }
        guard case .documentNotFound? = error else { Issue.record("expected documentNotFound, got \(String(describing: error))"); return }
        #expect(try await repository.fetch(TourPlayer.self).isEmpty)
    }

    @Test func saveAllIsOneTransaction() async throws {
        let repository = try repository()
        try await repository.save(player(1, "Ortiz", number: 34))
        // A player whose lastName can't be stored would be needed to fail half-way;
        // a unique index on number makes the second document conflict instead.
        try await repository.collection(TourPlayer.self).createIndex(on: [FieldPath("number")], unique: true)
        await #expect(throws: DocStoreError.self) {
            try await repository.saveAll([player(2, "Napoli", number: 12), player(3, "Pedroia", number: 34)])
        }
        #expect(try await repository.fetch(TourPlayer.self).map(\.id) == [1])
    }

    @Test func fetchSortsByARunTimeKeyInEitherDirectionAndFilters() async throws {
        let repository = try repository()
        try await repository.saveAll(playground_redSox)
        let key = ["last", "Name"].joined()   // known only at run time
        let ascending = try await repository.fetch(TourPlayer.self, sorted: Sorted(key: key, ascending: true))
        #expect(ascending.map(\.lastName) == ["Bogaerts", "Napoli", "Ortiz", "Pedroia"])
        let descending = try await repository.fetch(TourPlayer.self, sorted: Sorted(key: "number", ascending: false))
        #expect(descending.map(\.number) == [34, 15, 12, 2])
        let filtered = try await repository.fetch(TourPlayer.self, predicate: { $0.number > 10 && $0.nickname != nil },
                                                  sorted: Sorted(key: "lastName"))
        #expect(filtered.map(\.lastName) == ["Ortiz", "Pedroia"])
        try await repository.saveAll(playground_teams)
        let teams = try await repository.fetch(TourTeam.self, sorted: Sorted(key: "city"))
        #expect(teams.map(\.city) == ["Baltimore", "Boston", "Tampa Bay", "Toronto"])
    }

    @Test func anUnknownSortKeyThrowsAClearErrorRatherThanSortingByNothing() async throws {
        let repository = try repository()
        try await repository.saveAll(playground_redSox)
        let error = await #expect(throws: RepositoryError.self) {
            try await repository.fetch(TourPlayer.self, sorted: Sorted(key: "lastname"))
        }
        #expect(error == .unknownSortKey("lastname", model: "Player", known: ["firstName", "lastName", "number", "position", "teamId"]))
        #expect(error?.localizedDescription == "cannot sort Player by \"lastname\": it has no such sortable field (known: firstName, lastName, number, position, teamId)")
    }

    @Test func resetEmptiesEveryCollectionAndTheValuesInOneGo() async throws {
        let repository = try repository()
        try await repository.saveAll(playground_teams)
        try await repository.saveAll(playground_redSox)
        try await repository.store.values.set(1, forKey: "favoriteTeam")
        try await repository.reset()
        #expect(try await repository.fetch(TourTeam.self).isEmpty)
        #expect(try await repository.fetch(TourPlayer.self).isEmpty)
        #expect(try await repository.store.values.keys().isEmpty)
        try await repository.save(player(1, "Ortiz", number: 34))   // still usable
        #expect(try await repository.fetch(TourPlayer.self).count == 1)
    }

    @MainActor
    @Test func theViewModelShowsTheRepositorysWritesAsTheyCommit() async throws {
        let repository = try repository()
        try await repository.saveAll(playground_redSox)
        let model = RosterViewModel(repository: repository, teamId: 1)
        #expect(await model.wait(until: { model.isLoaded }))
        #expect(model.players.map(\.number) == [2, 12, 15, 34])
        #expect(model.playerCount == 4)

        try await model.sign(player(5, "Ramirez", number: 13, team: 0))
        #expect(await model.wait(until: { model.players.count == 5 }))
        #expect(model.players.map(\.number) == [2, 12, 13, 15, 34])

        var ortiz = try #require(model.players.last)
        ortiz.number = 1
        try await repository.update(ortiz)
        #expect(await model.wait(until: { model.players.first?.lastName == "Ortiz" }))
        #expect(model.lines.first == "#1 David Ortiz, Designated Hitter")

        try await model.release(ortiz)
        try await repository.save(player(6, "Bautista", number: 19, team: 4))
        #expect(await model.wait(until: { model.playerCount == 5 && model.players.count == 4 }))
        #expect(model.players.map(\.number) == [2, 12, 13, 15])

        try await repository.reset()
        #expect(await model.wait(until: { model.players.isEmpty && model.playerCount == 0 }))
        #expect(model.error == nil)
    }

    @MainActor
    @Test func writesTheRosterDoesNotSelectPublishNoNewRoster() async throws {
        let repository = try repository()
        try await repository.saveAll(playground_redSox)
        let model = RosterViewModel(repository: repository, teamId: 1)
        #expect(await model.wait(until: { model.isLoaded }))

        let republished = Mutex(false)
        withObservationTracking { _ = model.players } onChange: { republished.withLock { $0 = true } }
        // Another collection, and a player of another team: the roster's query
        // selects none of them before or after, so it is not fetched again.
        try await repository.saveAll(playground_teams)
        try await repository.save(player(6, "Bautista", number: 19, team: 4))
        #expect(await model.wait(until: { model.playerCount == 5 }))   // the league count did change
        try await Task.sleep(for: .milliseconds(100))
        #expect(!republished.withLock { $0 })
        #expect(model.players.count == 4)
    }

    @Test func theRepositoryIsUsableFromManyTasksAtOnce() async throws {
        let repository = try repository()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 1...50 {
                group.addTask { try await repository.save(TourPlayer(id: id, firstName: "P", lastName: "L\(id)", number: id, teamId: id % 3, position: .shortstop)) }
            }
            try await group.waitForAll()
        }
        let sorted = try await repository.fetch(TourPlayer.self, predicate: { $0.teamId == 0 }, sorted: Sorted(key: "number", ascending: false))
        #expect(sorted.map(\.number) == stride(from: 48, through: 3, by: -3).map { $0 })
    }
}

private let playground_redSox = Playground.redSoxPlayers
private let playground_teams = Playground.alEastTeams
