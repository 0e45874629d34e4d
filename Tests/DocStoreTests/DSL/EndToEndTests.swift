import Foundation
import Testing
@testable import DocStore

extension DSLTests {
    /// Typed queries run on an in-memory store seeded with the Teams/Players example.
    @Suite("Typed queries run")
    struct EndToEndTests {
        let store: DocumentStore
        let teams: DocumentCollection<Team>
        let players: DocumentCollection<Ballplayer>

        init() throws {
            store = try DocumentStore.inMemory()
            teams = store.collection(Team.self)
            players = store.collection(Ballplayer.self, named: "players")
            try teams.insert(contentsOf: [
                Team(id: 1, city: "Boston", nickName: "Red Sox", abbreviation: "BOS"),
                Team(id: 2, city: "Baltimore", nickName: "Orioles", abbreviation: "BAL"),
                Team(id: 3, city: "Tampa Bay", nickName: "Rays", abbreviation: "TB"),
                Team(id: 4, city: "Toronto", nickName: "Blue Jays", abbreviation: "TOR"),
            ])
            try players.insert(contentsOf: sampleBallplayers)
        }

        @Test func theIssueExample() throws {
            let bos = try #require(try teams.get(1))
            let minimumAverage: Double? = 0.25
            try players.createIndex(on: \.teamId)
            let found = try players
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

            #expect(try players.filter { $0.nickname == nil }.count() == 2)
            #expect(try players.count { $0.nickname == nil } == 2)
            let bostons = try players.filter { $0.teamId.in(teams.filter { $0.city == "Boston" }) }.fetch()
            #expect(bostons.count == 4)
            let numbers = try players.filter { $0.teamId == 1 }.sorted { $0.number }.select { ($0.lastName, $0.number) }
            #expect(numbers.map(\.0) == ["Bogaerts", "Napoli", "Pedroia", "Ortiz"])
            #expect(numbers.map(\.1) == [2, 12, 15, 34])
            #expect(try players.filter { $0.teamId == 30 }.delete() == 0)
        }

        @Test func fetchingFirstCountExistsKeys() throws {
            let query = players.filter { $0.number < 20 }.sorted { $0.number.descending }
            #expect(try query.fetch().map(\.number) == [15, 12, 2])
            #expect(try query.first()?.lastName == "Pedroia")
            #expect(try query.count() == 3)
            #expect(try query.exists())
            #expect(try !players.filter { $0.number > 99 }.exists())
            #expect(try query.keys() == [.integer(3), .integer(2), .integer(4)])
            #expect(try players.first { $0.position == .designatedHitter }?.lastName == "Ortiz")
            #expect(try players.contains { $0.stats.homeRuns > 500 })
            var streamed: [String] = []
            try query.forEach { streamed.append($0.lastName) }
            #expect(streamed == ["Pedroia", "Napoli", "Bogaerts"])
            #expect(try players.query.limit(2, offset: 1).sorted { $0.id }.fetch().map(\.id) == [2, 3])
        }

        @Test func structuredFields() throws {
            #expect(try players.filter { $0.games.any { $0.opponent == "NYY"; $0.runs >= 2 } }.keys().count == 2)
            #expect(try players.filter { $0.games.all { $0.runs >= 1 } }.sorted { $0.id }.fetch().map(\.id) == [2, 3, 4])
            #expect(try players.filter { $0.extra["rings"] >= 2 }.sorted { $0.id }.fetch().map(\.id) == [1, 3])
            #expect(try players.filter { $0.agent.name.hasPrefix("Fernando") }.fetch().map(\.id) == [1])
            #expect(try players.filter { $0.tags.count >= 2 }.fetch().map(\.id) == [1])
            #expect(try players.filter { $0.tags.isEmpty }.fetch().map(\.id) == [3])
            #expect(try players.filter { $0.bats == .right }.count() == 4)
            #expect(try players.filter { $0.debut > Ballplayer.reference.addingTimeInterval(2.5 * 86_400) }.count() == 2)
            #expect(try players.filter { $0.card == sampleBallplayers[1].card }.fetch().map(\.id) == [2])
            #expect(try players.filter { $0.lastName.hasPrefix("ped", caseInsensitive: true) }.count() == 1)
            #expect(try players.filter { $0.lastName.hasPrefix("ped") }.count() == 0)
        }

        @Test func projectionsAndAggregates() throws {
            let rows = try players.sorted { $0.id }.select { ($0.nickname, $0.stats.homeRuns, $0.position) }
            #expect(rows.map(\.0) == ["Big Papi", nil, "Laser Show", nil])
            #expect(rows.map(\.1) == [541, nil, 140, nil])
            #expect(rows.map(\.2) == [.designatedHitter, .firstBase, .secondBase, .shortstop])
            #expect(try players.sorted { $0.id }.select { $0.lastName } == ["Ortiz", "Napoli", "Pedroia", "Bogaerts"])

            #expect(try players.query.min(\.number) == 2)
            #expect(try players.query.max(\.number) == 34)
            #expect(try players.filter { $0.teamId == 9 }.max(\.number) == nil)
            #expect(try players.query.sum(\.number) == 63)
            #expect(try players.query.sum(\.stats.homeRuns) == 681)
            #expect(try players.query.max(\.stats.homeRuns) == 541)
            #expect(try players.query.average(\.number) == 63.0 / 4)
            #expect(try Set(players.query.distinctValues(of: \.position)) == [.designatedHitter, .firstBase, .secondBase, .shortstop])
            #expect(try players.query.count(groupedBy: \.teamId) == [1: 4])
            #expect(try players.query.count(groupedBy: \.nickname) == [nil: 2, "Big Papi": 1, "Laser Show": 1])
        }

        @Test func updatesAndDeletesByQuery() throws {
            let changed = try players.filter { $0.number < 13 }.update {
                $0.teamId.set(to: 2)
                $0.stats.hits.increment(by: 10)
                $0.nickname.set(to: "Traded")
                $0.agent.remove()
            }
            #expect(changed == 2)
            let traded = try players.filter { $0.teamId == 2 }.sorted { $0.id }.fetch()
            #expect(traded.map(\.id) == [2, 4])
            #expect(traded.map(\.nickname) == ["Traded", "Traded"])
            #expect(traded.map(\.stats.hits) == sampleBallplayers.filter { $0.number < 13 }.map { $0.stats.hits + 10 })
            #expect(try players.delete { $0.teamId == 2 } == 2)
            #expect(try players.count() == 2)
        }

        @Test func indexes() throws {
            let teamIndex = try players.createIndex(on: \.teamId)
            #expect(teamIndex.fields == [FieldPath("teamId")])
            #expect(try players.filter { $0.teamId == 1 }.explain().usesIndex)
            try players.createIndex(on: \.lastName, \.stats.battingAverage)
            #expect(try players.filter { $0.lastName == "Ortiz"; $0.stats.battingAverage > 0.2 }.explain().usesIndex)
            let unique = try players.createIndex(on: \.number, unique: true)
            #expect(unique.isUnique)
            #expect(try players.indexes().count == 3)
            var duplicate = sampleBallplayers[0]
            duplicate.id = 99
            #expect {
                try players.insert(duplicate)
            } throws: { error in
                guard case .uniqueConstraint(let collection, let fields, _)? = error as? DocStoreError else { return false }
                return collection == "players" && fields == ["number"]
            }
            #expect(try players.dropIndex(on: \.number))
            #expect(try !players.dropIndex(on: \.number))
            try players.insert(duplicate)
        }

        @Test func invalidQueriesThrowWhenTheyRun() throws {
            #expect(throws: DocStoreError.self) { try players.filter { $0.stats.battingAverage > .nan }.fetch() }
        }

        @Test func untypedCollections() throws {
            let untyped = store.collection(named: "players")
            #expect(try untyped.filter { $0.stats.homeRuns > 100; $0.nickname != nil }.count() == 2)
            #expect(try untyped.filter { $0["lastName"].hasSuffix("ia") }.keys() == [.integer(3)])
        }
    }
}
