import Foundation
import Testing
@testable import DocStore

extension DSLTests {
    /// Typed queries run on a store seeded with the Teams/Players example, the
    /// same test and the same answers on SQLite and on PostgreSQL.
    @Suite("Typed queries run")
    struct EndToEndTests {
        static let teams = [
            Team(id: 1, city: "Boston", nickName: "Red Sox", abbreviation: "BOS"),
            Team(id: 2, city: "Baltimore", nickName: "Orioles", abbreviation: "BAL"),
            Team(id: 3, city: "Tampa Bay", nickName: "Rays", abbreviation: "TB"),
            Team(id: 4, city: "Toronto", nickName: "Blue Jays", abbreviation: "TOR"),
        ]

        /// The teams and players in a new store of `backend`, for `body`.
        func withPlayers(
            _ backend: Backend, _ body: (BackendCollection<Team>, BackendCollection<Ballplayer>, BackendStore) async throws -> Void
        ) async throws {
            try await BackendStore.with(backend) { store async throws in
                let teams = store.collection(Team.self, named: "teams")
                let players = store.collection(Ballplayer.self, named: "players")
                try await teams.insert(contentsOf: Self.teams)
                try await players.insert(contentsOf: sampleBallplayers)
                try await body(teams, players, store)
            }
        }

        @Test(arguments: Backend.allCases)
        func theIssueExample(backend: Backend) async throws {
            try await withPlayers(backend) { teams, players, _ async throws in
                let bos = try #require(try await teams.get(1))
                let minimumAverage: Double? = 0.25
                try await players.createIndex(on: \.teamId)
                let found = try await players
                    .filter {
                        $0.teamId == bos.id
                        $0.number >= 10
                        AnyOf {
                            $0.position == .shortstop
                            $0.lastName.hasPrefix("Ped")
                        }
                        if let minimumAverage {
                            $0.stats.battingAverage >= minimumAverage
                        }
                        Not { $0.tags.contains("injured") }
                    }
                    .sorted { $0.lastName; $0.number.descending }
                    .limit(10)
                    .fetch()
                #expect(found.map(\.lastName) == ["Pedroia"])

                #expect(try await players.filter { $0.nickname == nil }.count() == 2)
                #expect(try await players.count { $0.nickname == nil } == 2)
                let bostons = try await players.filter { $0.teamId.in(teams.filter { $0.city == "Boston" }) }.fetch()
                #expect(bostons.count == 4)
                let numbers = try await players.filter { $0.teamId == 1 }.sorted { $0.number }.select { ($0.lastName, $0.number) }
                #expect(numbers.map(\.0) == ["Bogaerts", "Napoli", "Pedroia", "Ortiz"])
                #expect(numbers.map(\.1) == [2, 12, 15, 34])
                #expect(try await players.filter { $0.teamId == 30 }.delete() == 0)
            }
        }

        @Test(arguments: Backend.allCases)
        func fetchingFirstCountExistsKeys(backend: Backend) async throws {
            try await withPlayers(backend) { _, players, _ async throws in
                let query = players.filter { $0.number < 20 }.sorted { $0.number.descending }
                #expect(try await query.fetch().map(\.number) == [15, 12, 2])
                #expect(try await query.first()?.lastName == "Pedroia")
                #expect(try await query.count() == 3)
                #expect(try await query.exists())
                #expect(try await !players.filter { $0.number > 99 }.exists())
                #expect(try await query.keys() == [.integer(3), .integer(2), .integer(4)])
                #expect(try await players.first { $0.position == .designatedHitter }?.lastName == "Ortiz")
                #expect(try await players.contains { $0.stats.homeRuns > 500 })
                if case .sqlite(let streaming) = query {  // streaming is SQLite's alone
                    var streamed: [String] = []
                    try streaming.forEach { streamed.append($0.lastName) }
                    #expect(streamed == ["Pedroia", "Napoli", "Bogaerts"])
                }
                #expect(try await players.query.limit(2, offset: 1).sorted { $0.id }.fetch().map(\.id) == [2, 3])
            }
        }

        @Test(arguments: Backend.allCases)
        func structuredFields(backend: Backend) async throws {
            try await withPlayers(backend) { _, players, _ async throws in
                #expect(try await players.filter { $0.games.any { $0.opponent == "NYY"; $0.runs >= 2 } }.keys().count == 2)
                #expect(try await players.filter { $0.games.all { $0.runs >= 1 } }.sorted { $0.id }.fetch().map(\.id) == [2, 3, 4])
                #expect(try await players.filter { $0.extra["rings"] >= 2 }.sorted { $0.id }.fetch().map(\.id) == [1, 3])
                #expect(try await players.filter { $0.agent.name.hasPrefix("Fernando") }.fetch().map(\.id) == [1])
                #expect(try await players.filter { $0.tags.count >= 2 }.fetch().map(\.id) == [1])
                #expect(try await players.filter { $0.tags.isEmpty }.fetch().map(\.id) == [3])
                #expect(try await players.filter { $0.bats == .right }.count() == 4)
                #expect(try await players.filter { $0.debut > Ballplayer.reference.addingTimeInterval(2.5 * 86_400) }.count() == 2)
                #expect(try await players.filter { $0.card == sampleBallplayers[1].card }.fetch().map(\.id) == [2])
                #expect(try await players.filter { $0.lastName.hasPrefix("ped", caseInsensitive: true) }.count() == 1)
                #expect(try await players.filter { $0.lastName.hasPrefix("ped") }.count() == 0)
            }
        }

        @Test(arguments: Backend.allCases)
        func projectionsAndAggregates(backend: Backend) async throws {
            try await withPlayers(backend) { _, players, _ async throws in
                let rows = try await players.sorted { $0.id }.select { ($0.nickname, $0.stats.homeRuns, $0.position) }
                #expect(rows.map(\.0) == ["Big Papi", nil, "Laser Show", nil])
                #expect(rows.map(\.1) == [541, nil, 140, nil])
                #expect(rows.map(\.2) == [.designatedHitter, .firstBase, .secondBase, .shortstop])
                #expect(try await players.sorted { $0.id }.select { $0.lastName } == ["Ortiz", "Napoli", "Pedroia", "Bogaerts"])

                #expect(try await players.query.min(\.number) == 2)
                #expect(try await players.query.max(\.number) == 34)
                #expect(try await players.filter { $0.teamId == 9 }.max(\.number) == nil)
                #expect(try await players.query.sum(\.number) == 63)
                #expect(try await players.query.sum(\.stats.homeRuns) == 681)
                #expect(try await players.query.max(\.stats.homeRuns) == 541)
                #expect(try await players.query.average(\.number) == 63.0 / 4)
                #expect(try await Set(players.query.distinctValues(of: \.position)) == [.designatedHitter, .firstBase, .secondBase, .shortstop])
                #expect(try await players.query.count(groupedBy: \.teamId) == [1: 4])
                #expect(try await players.query.count(groupedBy: \.nickname) == [nil: 2, "Big Papi": 1, "Laser Show": 1])
            }
        }

        @Test(arguments: Backend.allCases)
        func updatesAndDeletesByQuery(backend: Backend) async throws {
            try await withPlayers(backend) { _, players, _ async throws in
                let changed = try await players.filter { $0.number < 13 }.update {
                    $0.teamId.set(to: 2)
                    $0.stats.hits.increment(by: 10)
                    $0.nickname.set(to: "Traded")
                    $0.agent.remove()
                }
                #expect(changed == 2)
                let traded = try await players.filter { $0.teamId == 2 }.sorted { $0.id }.fetch()
                #expect(traded.map(\.id) == [2, 4])
                #expect(traded.map(\.nickname) == ["Traded", "Traded"])
                #expect(traded.map(\.stats.hits) == sampleBallplayers.filter { $0.number < 13 }.map { $0.stats.hits + 10 })
                #expect(try await players.delete { $0.teamId == 2 } == 2)
                #expect(try await players.count() == 2)
            }
        }

        @Test(arguments: Backend.allCases)
        func indexes(backend: Backend) async throws {
            try await withPlayers(backend) { _, players, _ async throws in
                let teamIndex = try await players.createIndex(on: \.teamId)
                #expect(teamIndex.fields == [FieldPath("teamId")])
                try await players.createIndex(on: \.lastName, \.stats.battingAverage)
                if backend == .sqlite {
                    // PostgreSQL's planner scans a table of four rows whatever its
                    // indexes (PostgresIndexTests shows them used on 100 000 documents).
                    #expect(try await players.filter { $0.teamId == 1 }.explain().usesIndex)
                    #expect(try await players.filter { $0.lastName == "Ortiz"; $0.stats.battingAverage > 0.2 }.explain().usesIndex)
                }
                let unique = try await players.createIndex(on: \.number, unique: true)
                #expect(unique.isUnique)
                #expect(try await players.indexes().count == 3)
                var duplicate = sampleBallplayers[0]
                duplicate.id = 99
                let error = try await #require(throws: DocStoreError.self) { try await players.insert(duplicate) }
                guard case .uniqueConstraint(let collection, let fields, _) = error else { Issue.record("\(error)"); return }
                #expect(collection == "players" && fields == ["number"])
                #expect(try await players.dropIndex(on: \.number))
                #expect(try await !players.dropIndex(on: \.number))
                try await players.insert(duplicate)
            }
        }

        @Test(arguments: Backend.allCases)
        func invalidQueriesThrowWhenTheyRun(backend: Backend) async throws {
            try await withPlayers(backend) { _, players, _ async throws in
                await #expect(throws: DocStoreError.self) { try await players.filter { $0.stats.battingAverage > .nan }.fetch() }
            }
        }

        @Test(arguments: Backend.allCases)
        func untypedCollections(backend: Backend) async throws {
            try await withPlayers(backend) { _, _, store async throws in
                let untyped = store.collection(named: "players")
                #expect(try await untyped.filter { $0.stats.homeRuns > 100; $0.nickname != nil }.count() == 2)
                #expect(try await untyped.filter { $0["lastName"].hasSuffix("ia") }.keys() == [.integer(3)])
            }
        }
    }
}
