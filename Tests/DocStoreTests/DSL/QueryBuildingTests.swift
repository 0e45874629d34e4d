import Foundation
import Testing
@testable import DocStore

extension DSLTests {
    @Suite("Typed queries build the AST")
    struct QueryBuildingTests {
        let store: DocumentStore
        let players: DocumentCollection<Ballplayer>
        let teams: DocumentCollection<Team>

        init() throws {
            store = try DocumentStore.inMemory()
            players = store.collection(Ballplayer.self, named: "players")
            teams = store.collection(Team.self)
        }

        @Test func filtersChainAndSortLimit() throws {
            let query = players
                .filter { $0.teamId == 1 }
                .filter { $0.number >= 10 }
                .sorted { $0.lastName; $0.number.descending }
                .limit(10, offset: 5)
            #expect(try query.documentQuery() == DocumentQuery(
                .and([.compare(path("teamId"), .equal, 1), .compare(path("number"), .greaterOrEqual, 10)]),
                sort: [SortKey(path("lastName")), SortKey(path("number"), descending: true)],
                limit: 10, offset: 5))
        }

        @Test func blocksThatOnlyHoldAGroup() throws {
            #expect(try players.filter { _ in AnyOf { $0.number == 2; $0.number == 34 } }.documentQuery().condition
                    == .or([.compare(path("number"), .equal, 2), .compare(path("number"), .equal, 34)]))
            #expect(try players.filter { _ in Not { $0.tags.isEmpty } }.documentQuery().condition
                    == .not(.arrayCount(path("tags"), .equal, 0)))
        }

        @Test func sortingAgainMakesTheNewKeysDecideFirst() throws {
            let query = players.sorted { $0.lastName }.sorted { $0.teamId.descending }
            #expect(try query.documentQuery().sort
                    == [SortKey(path("teamId"), descending: true), SortKey(path("lastName"))])
        }

        @Test func sortBuilderControlFlow() throws {
            for byNumber in [true, false] {
                let query = players.sorted {
                    if byNumber { $0.number.descending } else { $0.lastName.ascending }
                    $0.stats.battingAverage
                }
                #expect(try query.documentQuery().sort == [
                    byNumber ? SortKey(path("number"), descending: true) : SortKey(path("lastName")),
                    SortKey(path("stats", "battingAverage")),
                ])
            }
        }

        @Test func subqueriesOnKeysAndFields() throws {
            let query = players.filter { $0.teamId.in(teams.filter { $0.city == "Boston" }) }
            #expect(try query.documentQuery().condition == .isInSubquery(
                path("teamId"), Subquery(collection: "teams", condition: .compare(path("city"), .equal, "Boston"))))
            let byCity = teams.filter {
                $0.city.in(teams.filter { $0.abbreviation.hasPrefix("B") }, selecting: \.city)
            }
            #expect(try byCity.documentQuery().condition == .isInSubquery(
                path("city"), Subquery(collection: "teams",
                                       condition: .string(path("abbreviation"), .hasPrefix, "B", caseInsensitive: false),
                                       field: path("city"))))
        }

        @Test func subqueriesCantHaveALimit() throws {
            let query = players.filter { $0.teamId.in(teams.query.limit(2)) }
            #expect(throws: DocStoreError.self) { try query.documentQuery() }
        }

        @Test func invalidConditionsAreReportedWithTheCollection() throws {
            let query = players.filter { $0.stats.battingAverage < .nan }.filter { $0.number == 1 }
            #expect {
                try query.documentQuery()
            } throws: { error in
                guard case .invalidQuery(let collection, _, _)? = error as? DocStoreError else { return false }
                return collection == "players"
            }
        }

        @Test func indexPaths() throws {
            #expect(DocumentCollection<Ballplayer>.paths(\.teamId) == [path("teamId")])
            #expect(DocumentCollection<Ballplayer>.paths(\.lastName, \.stats.battingAverage, \.extra["rings"])
                    == [path("lastName"), path("stats", "battingAverage"), path("extra", "rings")])
        }

        @Test func untypedCollectionsQueryByName() throws {
            let untyped = store.collection(named: "players")
            #expect(try untyped.filter { $0.nickname == nil; $0.stats.hits > 3 }.documentQuery().condition
                    == .and([.isNull(path("nickname")), .compare(path("stats", "hits"), .greater, 3)]))
        }
    }
}

extension DSLTests.QueryBuildingTests {
    @Test func updateBlocks() throws {
        let resetNickname = true
        let updates = try players.filter { $0.teamId == 30 }.fieldUpdates {
            $0.teamId.set(to: 31)
            $0.stats.hits.increment(by: 2)
            $0.position.set(to: .catcher)
            if resetNickname { $0.nickname.remove() }
            $0.agent.phone.set(to: nil)
            $0["legacy"].remove()
        }
        #expect(updates == [
            .set(path("teamId"), 31),
            .increment(path("stats", "hits"), 2),
            .set(path("position"), "Catcher"),
            .remove(path("nickname")),
            .set(path("agent", "phone"), .null),
            .remove(path("legacy")),
        ])
    }

    @Test func updateWithAnInvalidValueThrows() throws {
        #expect(throws: DocStoreError.self) {
            try players.query.fieldUpdates { $0.stats.battingAverage.set(to: .nan) }
        }
    }
}
