import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

extension PostgresTests {
    @Suite("PostgreSQL: Foundation #Predicate")
    struct PostgresPredicateTests {
        /// A `#Predicate` filters a PostgreSQL collection as it does a SQLite one,
        /// and an unconvertible one throws there too.
        @Test func predicatesFilterAsOnSQLite() async throws {
            try await PostgresTests.withStore { store in
                let racers = store.collection(Racer.self, named: "racers")
                try await racers.insert(contentsOf: StoreTests.racers)
                let sqlite = try DocumentStore.inMemory().collection(Racer.self, named: "racers")
                try await sqlite.insert(contentsOf: StoreTests.racers)
                let predicate = #Predicate<Racer> { $0.number >= 5 && $0.nickname != "Flash" || $0.tags.contains("veteran") }
                let expected = try StoreTests.racers.filter { try predicate.evaluate($0) }.map(\.id)
                #expect(expected == [2, 3, 4])
                #expect(try await racers.filter(predicate).sorted { $0.id }.fetch().map(\.id) == expected)
                #expect(try await sqlite.filter(predicate).sorted { $0.id }.fetch().map(\.id) == expected)
                #expect(try await racers.filter(predicate).filter { $0.number > 10 }.count() == 2)
                let doubled = #Predicate<Racer> { $0.number * 2 > 10 }   // arithmetic on a field: no equivalent
                do {
                    _ = try await racers.filter(doubled).fetch()
                    Issue.record("arithmetic on a field converted")
                } catch let error as DocStoreError {
                    let text = error.localizedDescription
                    #expect(text.contains("#Predicate: Arithmetic on a document field"))
                }
            }
        }
    }
}
