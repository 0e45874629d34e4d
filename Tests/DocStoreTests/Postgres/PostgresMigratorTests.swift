import DocStorePostgres
import Foundation
import Synchronization
import Testing
@testable import DocStore

// README-POSTGRES-MIGRATE-BEGIN
func migrateRiders(url: String) async throws -> [String] {
    let store = try await PostgresDocumentStore(url: url)
    var migrator = PostgresDocumentMigrator()
    migrator.registerMigration("v2: wins as numbers") { migration in
        let riders = migration.collection(Rider.self, named: "riders")
        try await riders.rename("victories", to: \.wins)           // an index on it follows it
        try await riders.convert(\.wins) { (text: String) in Int(text) ?? 0 }
    }
    let ran = try await migrator.migrate(store)     // what this database hasn't run yet
    await store.close()
    return ran.map(\.name)                          // ["v2: wins as numbers"], then []
}
// README-POSTGRES-MIGRATE-END

extension PostgresTests {
    /// Versioned migrations on PostgreSQL, with the file store's rules: steps run
    /// once, in order, each in its own transaction, recorded in the store.
    @Suite("PostgreSQL: the migrator")
    struct MigratorTests {
        struct Failure: Error {}

        /// A team as the old app stored it, keyed, with its founding year as text.
        struct OldTeam: Codable, Sendable, Identifiable {
            var id: Int
            var city: String
            var nickName: String
            var founded: String
        }

        static func oldTeams(_ count: Int) -> [OldTeam] {
            (1...count).map { OldTeam(id: $0, city: "City \($0 % 7)", nickName: "Team \($0)", founded: String(1850 + $0 % 150)) }
        }

        /// Rename, default and a conversion that spans several batches (2 500
        /// documents, batches of 1 000): each step runs once, its changes are
        /// counted, and the documents decode as the new model.
        @Test func stepsRunOnceInOrderAndAreRecorded() async throws {
            try await PostgresTests.withStore { store in
                try await store.collection(OldTeam.self, named: "teams").insert(contentsOf: Self.oldTeams(2500))
                try await store.collection(named: "teams").createIndex(on: FieldPath("nickName"))
                let ran = Mutex<[String]>([])
                var migrator = PostgresDocumentMigrator()
                migrator.registerMigration("nickname") { migration in
                    ran.withLock { $0.append(migration.name) }
                    try await migration.collection(RenamedTeam.self, named: "teams").rename("nickName", to: \.nickname)
                }
                migrator.registerMigration("founded as a number") { migration in
                    ran.withLock { $0.append(migration.name) }
                    try await migration.collection(RenamedTeam.self, named: "teams").convert(\.founded) { (text: String) in Int(text) ?? 0 }
                    try await migration.collection(RenamedTeam.self, named: "teams").setDefault(\.abbreviation, "?")
                }
                #expect(try await migrator.pendingMigrations(in: store) == ["nickname", "founded as a number"])
                let results = try await migrator.migrate(store)
                #expect(results.map(\.name) == ["nickname", "founded as a number"])
                #expect(results.map { $0.changes.map(\.documentsChanged) } == [[2500], [2500, 2500]])
                #expect(results[0].changes[0].movedIndexes.map(\.fields) == [[FieldPath("nickname")]])
                #expect(try await migrator.hasCompletedMigrations(in: store))
                #expect(try await store.appliedMigrations().map(\.name) == ["nickname", "founded as a number"])
                #expect(try await migrator.migrate(store).isEmpty, "a second run has nothing to do")
                #expect(ran.withLock { $0 } == ["nickname", "founded as a number"])

                let teams = store.collection(RenamedTeam.self, named: "teams")
                let all = try await teams.sorted { $0.id }.fetch()
                #expect(all.count == 2500)
                #expect(all.map(\.founded) == Self.oldTeams(2500).map { Int($0.founded) ?? -1 })
                #expect(all.allSatisfy { $0.abbreviation == "?" && $0.nickname == "Team \($0.id)" })
                let recent: Int = try await teams.filter { $0.founded >= 1990 }.count()
                let expectedRecent: Int = Self.oldTeams(2500).filter { (team) -> Bool in (Int(team.founded) ?? 0) >= 1990 }.count
                #expect(recent == expectedRecent)
                let applied = try await store.appliedMigrations()
                let stamps: [String] = applied.map(\.appliedAt)
                #expect(stamps.allSatisfy { (stamp: String) -> Bool in stamp.count == 24 && stamp.hasSuffix("Z") }, "\(applied)")
            }
        }

        /// A conversion that fails on one document names it and the field, and the
        /// step rolls back whole: documents, indexes, the collection it created
        /// and its record; the step before stays applied.
        @Test func aStepThatThrowsLeavesTheStoreAsItWas() async throws {
            try await PostgresTests.withStore { store in
                var teams = Self.oldTeams(1500)
                teams[1200].founded = "eighteen ninety"
                try await store.collection(OldTeam.self, named: "teams").insert(contentsOf: teams)
                let untyped = store.collection(named: "teams")
                try await untyped.createIndex(on: FieldPath("nickName"))
                let before = try await untyped.sorted { $0.id }.fetch()
                var migrator = PostgresDocumentMigrator()
                migrator.registerMigration("fine") { try await $0.transaction.values.set(true, forKey: "fine") }
                migrator.registerMigration("broken") { migration in
                    try await migration.collection(named: "teams").rename("nickName", to: "nickname")
                    try await migration.transaction.collection(named: "created").insert(["id": 1])
                    try await migration.collection(named: "teams").convert(FieldPath("founded")) { (text: String) -> Int in
                        guard let year = Int(text) else { throw Failure() }
                        return year
                    }
                }
                let error = await #expect(throws: DocStoreError.self) { try await migrator.migrate(store) }
                let message = error?.localizedDescription ?? ""
                #expect(message.contains("teams") && message.contains("1201") && message.contains("founded"), "\(message)")
                #expect(try await untyped.sorted { $0.id }.fetch() == before)
                #expect(try await untyped.indexes().map(\.fields) == [[FieldPath("nickName")]])
                #expect(try await store.collectionNames() == ["teams"])
                #expect(try await store.appliedMigrations().map(\.name) == ["fine"])
                #expect(try await store.values.get("fine", as: Bool.self) == true)
            }
        }

        /// Code that lacks a step the store has run is refused before anything
        /// runs, naming the step and the database; registration mistakes are
        /// errors, not traps.
        @Test func unknownStepsAndRegistrationMistakesAreRefused() async throws {
            try await PostgresTests.withStore { store in
                try await store.collection(OldTeam.self, named: "teams").insert(contentsOf: Self.oldTeams(5))
                var newer = PostgresDocumentMigrator()
                newer.registerMigration("v1") { _ in }
                newer.registerMigration("v2: nickname") { try await $0.collection(named: "teams").rename("nickName", to: "nickname") }
                try await newer.migrate(store)

                var older = PostgresDocumentMigrator()
                older.registerMigration("v1") { _ in }
                older.registerMigration("v1.5") { try await $0.collection(named: "teams").remove("city") }
                let error = await #expect(throws: DocStoreError.self) { try await older.migrate(store) }
                guard case .unknownMigrations(let path, let names)? = error else {
                    Issue.record("expected unknownMigrations, got \(String(describing: error))")
                    return
                }
                #expect(path.hasPrefix("postgres:///t_") && names == ["v2: nickname"])
                #expect(try await store.collection(named: "teams").filter { $0.city == "City 1" }.count() == 1, "v1.5 never ran")

                var twice = PostgresDocumentMigrator()
                twice.registerMigration("x") { _ in }
                twice.registerMigration("x") { _ in }
                let twiceError = await #expect(throws: DocStoreError.self) { try await twice.migrate(store) }
                #expect(twiceError?.localizedDescription.contains("two steps are registered with this name") == true)
                await #expect(throws: DocStoreError.self) { try await newer.migrate(store, upTo: "z") }
            }
        }

        /// The README's example is this file's code, and runs as its comments say.
        @Test func theReadmeExampleIsTheCompiledCode() async throws {
            let readme = try String(contentsOf: ReadmeUsageTests.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
            let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
            let compiled = try #require(readmeSection(of: source, from: "// README-POSTGRES-MIGRATE-BEGIN\n", to: "// README-POSTGRES-MIGRATE-END"))
            let shown = try #require(readmeSection(of: readme, from: "<!-- postgres-migrate -->\n```swift\n", to: "```"))
            #expect(shown == compiled)

            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let store = try await PostgresDocumentStore(url: url)
            do {
                try await store.collection(named: "riders").insert(contentsOf: [
                    ["id": 1, "name": "Ana", "team": "Blue", "victories": "4"],
                    ["id": 2, "name": "Bo", "team": "Red", "victories": "9"],
                ])
                try await store.collection(named: "riders").createIndex(on: FieldPath("victories"))
            } catch {
                await store.close()
                throw error
            }
            await store.close()
            #expect(try await migrateRiders(url: url) == ["v2: wins as numbers"])
            #expect(try await migrateRiders(url: url) == [])
            let again = try await PostgresDocumentStore(url: url)
            let riders = try await again.collection(Rider.self, named: "riders").sorted { $0.id }.fetch()
            let indexes = try await again.collection(named: "riders").indexes().map(\.fields)
            await again.close()
            #expect(riders.map(\.wins) == [4, 9])
            #expect(indexes == [[FieldPath("wins")]])
        }

        /// Two stores (as two app servers) migrating one database at once: each
        /// step runs once, and both see it applied.
        @Test func twoStoresMigratingAtOnceRunEachStepOnce() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let first = try await PostgresDocumentStore(url: url), second = try await PostgresDocumentStore(url: url)
            do {
                try await Self.migrateAtOnce(first, second)
            } catch {
                await first.close(); await second.close()
                throw error
            }
            await first.close(); await second.close()
        }

        private static func migrateAtOnce(_ first: PostgresDocumentStore, _ second: PostgresDocumentStore) async throws {
            try await first.collection(OldTeam.self, named: "teams").insert(contentsOf: Self.oldTeams(300))
            let runs = Mutex(0)
            var migrator = PostgresDocumentMigrator()
            migrator.registerMigration("copy nickName") { migration in
                runs.withLock { $0 += 1 }
                try await migration.collection(named: "teams").copy("nickName", to: "shown")
                try await migration.transaction.collection(named: "log").insert(["note": "copied"])
            }
            async let a = migrator.migrate(first)
            async let b = migrator.migrate(second)
            let (fromFirst, fromSecond) = try await (a, b)
            #expect(fromFirst.count + fromSecond.count == 1)
            #expect(runs.withLock { $0 } == 1)
            #expect(try await second.collection(named: "log").count() == 1)
            #expect(try await first.appliedMigrations().map(\.name) == ["copy nickName"])
        }
    }
}
