import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

extension PostgresTests {
    /// (Small statements with explicit types: this target fails on expressions
    /// slow to type-check (Package.swift), and async closures are slow ones.)
    @Suite("PostgreSQL: Foundation #Predicate")
    struct PostgresPredicateTests {
        // Its constants are typed values it captures: written as literals they
        // took the expression past 200 ms to type-check under load.
        static let minimum = 5
        static let excluded: String? = "Flash"
        static let wanted = "veteran"
        static let predicate = #Predicate<Racer> { $0.number >= minimum && $0.nickname != excluded || $0.tags.contains(wanted) }

        /// The ids of the racers `query` fetches.
        static func ids(_ query: PostgresCollectionQuery<Racer>) async throws -> [Int] {
            let found: [Racer] = try await query.sorted { $0.id }.fetch()
            return found.map(\.id)
        }

        /// A `#Predicate` filters a PostgreSQL collection as `Predicate.evaluate`
        /// filters the models, and as it filters a SQLite collection.
        @Test func predicatesFilterAsOnSQLite() async throws {
            let expected: [Int] = try StoreTests.racers.filter { try Self.predicate.evaluate($0) }.map(\.id)
            #expect(expected == [2, 3, 4])
            let sqlite = try DocumentStore.inMemory().collection(Racer.self, named: "racers")
            try await sqlite.insert(contentsOf: StoreTests.racers)
            let onSQLite: [Int] = try await sqlite.filter(Self.predicate).sorted { $0.id }.fetch().map(\.id)
            #expect(onSQLite == expected)
            try await PostgresTests.withStore { store in
                let racers: PostgresCollection<Racer> = store.collection(Racer.self, named: "racers")
                try await racers.insert(contentsOf: StoreTests.racers)
                let onPostgres: [Int] = try await Self.ids(racers.filter(Self.predicate))
                #expect(onPostgres == expected)
                let refined: [Int] = try await Self.ids(racers.filter(Self.predicate).filter { $0.number > 10 })
                #expect(refined == [2, 4])
            }
        }

        /// A predicate with no DocStore equivalent throws on PostgreSQL too, naming it.
        @Test func anUnconvertiblePredicateThrows() async throws {
            let doubled = #Predicate<Racer> { $0.number * 2 > 10 }   // arithmetic on a field
            try await PostgresTests.withStore { store in
                let query: PostgresCollectionQuery<Racer> = store.collection(Racer.self, named: "racers").filter(doubled)
                let message: String? = await Self.failure(of: query)
                #expect(message?.contains("#Predicate: Arithmetic on a document field") == true)
            }
        }

        /// The description of the error fetching `query` throws, if it throws one.
        static func failure(of query: PostgresCollectionQuery<Racer>) async -> String? {
            do {
                _ = try await query.fetch()
                return nil
            } catch {
                return error.localizedDescription
            }
        }
    }
}
