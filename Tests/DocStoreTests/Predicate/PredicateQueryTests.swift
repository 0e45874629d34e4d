import Foundation
import Testing
@testable import DocStore

/// A model with a private stored property: the macro's key-path table names it,
/// and predicates written where it is visible can use it.
@Document
struct Locker: Codable, Identifiable {
    var id: Int
    private var combination: Int

    init(id: Int, combination: Int) {
        self.id = id
        self.combination = combination
    }

    static func opening(with combination: Int) -> Predicate<Locker> {
        #Predicate { $0.combination == combination }
    }
}

extension PredicateTests {
    /// A predicate filters like any filter: sorted, limited, counted, deleted,
    /// combined with DSL filters, and through the async API.
    @Suite("#Predicate: queries")
    struct PredicateQueryTests {
        @Test func theConditionIsTheDSLs() throws {
            #expect(try Condition(#Predicate<Ballplayer> { $0.teamId == 1 && $0.number > 10 })
                == ast { $0.teamId == 1; $0.number > 10 })
            #expect(try Condition(#Predicate<Ballplayer> { $0.agent?.name == "Scott Boras" }) == ast { $0.agent.name == "Scott Boras" })
            #expect(try Condition(#Predicate<Ballplayer> { $0.stats.homeRuns == nil }) == .isNull(path("stats", "homeRuns")))
            let shortstop = Position.shortstop   // #Predicate takes no `.member` without a base
            let position = try Condition(#Predicate<Ballplayer> { $0.position == shortstop })
            #expect(position == .compare(path("position"), .equal, .string("Shortstop")))
            // CodingKeys renames are followed.
            #expect(try Condition(#Predicate<Renamed> { $0.firstName == "Ann" }) == .compare(path("first_name"), .equal, .string("Ann")))
        }

        @Test func sortedLimitedCountedAndDeleted() throws {
            let store = try DocumentStore.inMemory()
            let players = store.collection(Ballplayer.self, named: "players")
            try players.insert(contentsOf: sampleBallplayers)
            let onTeam = #Predicate<Ballplayer> { $0.teamId == 1 && $0.number > 10 }
            #expect(try players.filter(onTeam).sorted { $0.number.descending }.fetch().map(\.lastName) == ["Ortiz", "Pedroia", "Napoli"])
            #expect(try players.filter(onTeam).sorted { $0.number }.limit(1, offset: 1).fetch().map(\.id) == [3])
            #expect(try players.filter(onTeam).count() == 3)
            #expect(try players.filter(onTeam).filter { $0.nickname != nil }.keys() == [.integer(1), .integer(3)])
            #expect(try players.query.filter { $0.tags.isEmpty }.filter(onTeam).first()?.id == 3)
            #expect(try players.filter(#Predicate { $0.tags.contains("injured") }).delete() == 1)
            #expect(try players.all().map(\.id) == [1, 3, 4])
        }

        @Test func throughTheAsyncAPI() async throws {
            let store = try DocumentStore.inMemory()
            let players = store.collection(Ballplayer.self, named: "players")
            try await players.insert(contentsOf: sampleBallplayers)
            let sluggers = players.filter(#Predicate { ($0.stats.homeRuns ?? 0) >= 100 })
            #expect(try await sluggers.sorted { $0.lastName }.fetch().map(\.lastName) == ["Ortiz", "Pedroia"])
            #expect(try await sluggers.count() == 2)
            #expect(try await players.filter(#Predicate { $0.number == 2 }).delete() == 1)
            #expect(try await players.count() == 3)
        }

        @Test func aPrivatePropertyIsNamed() throws {
            let store = try DocumentStore.inMemory()
            let lockers = store.collection(Locker.self, named: "lockers")
            try lockers.insert(contentsOf: [Locker(id: 1, combination: 1234), Locker(id: 2, combination: 4321)])
            #expect(try lockers.filter(Locker.opening(with: 4321)).keys() == [.integer(2)])
        }

        /// The SQL of a predicate is the DSL's, so an index on the field serves it.
        @Test func anIndexServesThePredicate() throws {
            let store = try DocumentStore.inMemory()
            let players = store.collection(Ballplayer.self, named: "players")
            try players.insert(contentsOf: sampleBallplayers)
            try players.createIndex(on: \.number)
            let fromPredicate = try players.filter(#Predicate { $0.number >= 12 }).explain()
            let fromDSL = try players.filter { $0.number >= 12 }.explain()
            #expect(fromPredicate == fromDSL)
            #expect(fromPredicate.usesIndex)
        }
    }
}
