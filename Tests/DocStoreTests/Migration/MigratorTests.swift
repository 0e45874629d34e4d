import Foundation
import GRDB
import Testing
@testable import DocStore

/// `Team` as a later version of an app declares it: `nickName` became
/// `nickname`, and every team now has a founding year.
@Document
struct RenamedTeam: Codable, Identifiable, Equatable {
    var id: Int
    var city: String
    var nickname: String
    var abbreviation: String
    var founded: Int
}

/// A store holding `sampleTeams` as `Team` (the README's model, with `nickName`).
func teamsStore() throws -> DocumentStore {
    let store = try DocumentStore.inMemory()
    try store.collection(Team.self).insert(contentsOf: sampleTeams)
    return store
}

@Suite("Migrations: the migrator")
struct MigratorTests {
    struct Failure: Error {}

    @Test func stepsRunOnceInOrderAndAreRecorded() throws {
        let store = try teamsStore()
        var ran: [String] = []
        var migrator = DocumentMigrator()
        migrator.registerMigration("nickname") { migration in
            ran.append(migration.name)
            try migration.collection(RenamedTeam.self, named: "teams").rename("nickName", to: \.nickname)
        }
        migrator.registerMigration("founded") { migration in
            ran.append(migration.name)
            try migration.collection(RenamedTeam.self, named: "teams").setDefault(\.founded, 1901)
        }
        #expect(try migrator.pendingMigrations(in: store) == ["nickname", "founded"])
        let results = try migrator.migrate(store)
        #expect(results.map(\.name) == ["nickname", "founded"])
        #expect(results.map { $0.changes.map(\.documentsChanged) } == [[4], [4]])
        #expect(ran == ["nickname", "founded"])
        #expect(try migrator.appliedMigrations(in: store).map(\.name) == ["nickname", "founded"])
        #expect(try migrator.hasCompletedMigrations(in: store))

        #expect(try migrator.migrate(store).isEmpty, "a second run has nothing to do")
        #expect(ran == ["nickname", "founded"])
        let teams = try store.collection(RenamedTeam.self, named: "teams").all()
        #expect(teams.map(\.nickname) == ["Red Sox", "Orioles", "Rays", "Blue Jays"])
        #expect(teams.allSatisfy { $0.founded == 1901 })
    }

    @Test func aStepAddedLaterRunsAloneAndUpToStopsAtItsTarget() throws {
        let store = try teamsStore()
        var first = DocumentMigrator()
        first.registerMigration("a") { _ in }
        try first.migrate(store)
        var later = first
        later.registerMigration("b") { try $0.transaction.values.set(1, forKey: "b") }
        later.registerMigration("c") { try $0.transaction.values.set(1, forKey: "c") }
        #expect(try later.migrate(store, upTo: "b").map(\.name) == ["b"])
        #expect(try store.values.get("c", as: Int.self) == nil)
        #expect(try later.pendingMigrations(in: store) == ["c"])
        let error = try #require(throws: DocStoreError.self) { try later.migrate(store, upTo: "z") }
        #expect("\(error)".contains(#""z""#) && "\(error)".contains("no step of this name"))
    }

    @Test func codeThatLacksAStepTheStoreRanIsRefusedBeforeAnythingRuns() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try DocumentStore(path: path)
            try store.collection(Team.self).insert(contentsOf: sampleTeams)
            var newer = DocumentMigrator()
            newer.registerMigration("v1") { _ in }
            newer.registerMigration("v2: nickname") { try $0.collection(named: "teams").rename("nickName", to: "nickname") }
            try newer.migrate(store)
        }
        let store = try DocumentStore(path: path)
        var older = DocumentMigrator()
        older.registerMigration("v1") { _ in }
        older.registerMigration("v1.5") { try $0.collection(named: "teams").remove("city") }
        let error = try #require(throws: DocStoreError.self) { try older.migrate(store) }
        guard case .unknownMigrations(let errorPath, let names) = error else {
            Issue.record("expected unknownMigrations, got \(error)")
            return
        }
        #expect(errorPath == path && names == ["v2: nickname"])
        #expect("\(error)".contains(#""v2: nickname""#) && "\(error)".contains("newer version of the app"))
        #expect(throws: DocStoreError.self) { try older.pendingMigrations(in: store) }
        #expect(try store.collection(named: "teams").filter { $0.city == "Boston" }.count() == 1, "v1.5 never ran")
    }

    @Test func registrationMistakesAreErrorsNotTraps() throws {
        let store = try teamsStore()
        var twice = DocumentMigrator()
        twice.registerMigration("x") { _ in }
        twice.registerMigration("x") { _ in }
        let error = try #require(throws: DocStoreError.self) { try twice.migrate(store) }
        #expect("\(error)".contains("two steps are registered with this name"))
        var unnamed = DocumentMigrator()
        unnamed.registerMigration("") { _ in }
        #expect(throws: DocStoreError.self) { try unnamed.migrate(store) }
        #expect(try twice.appliedMigrations(in: store).isEmpty)
    }

    @Test func aStepThatThrowsLeavesDocumentsIndexesCatalogAndCachesAsTheyWere() throws {
        let store = try teamsStore()
        let teams = store.collection(named: "teams")
        try teams.createIndex(on: FieldPath("nickName"))
        let indexesBefore = try teams.indexes()
        let documentsBefore = try teams.all()
        var migrator = DocumentMigrator()
        migrator.registerMigration("fine") { try $0.transaction.values.set(true, forKey: "fine") }
        migrator.registerMigration("broken") { migration in
            try migration.collection(named: "teams").rename("nickName", to: "nickname")
            try migration.collection(named: "teams").remove("city")
            try migration.transaction.collection(named: "created").insert(["id": 1])
            #expect(try migration.transaction.collection(named: "created").count() == 1)
            throw Failure()
        }
        #expect(throws: Failure.self) { try migrator.migrate(store) }

        #expect(try teams.all() == documentsBefore)
        #expect(try teams.indexes() == indexesBefore)
        #expect(try teams.explain(DocumentQuery(.compare(FieldPath("nickName"), .equal, "Rays"))).usesIndex)
        #expect(try migrator.appliedMigrations(in: store).map(\.name) == ["fine"], "the step before stays applied")
        #expect(try store.collections().map(\.name) == ["teams"])
        #expect(try store.collection(named: "created").count() == 0, "the cache forgot the rolled-back collection")
        try store.collection(named: "created").insert(["id": 2])
        #expect(try store.collection(named: "created").keys() == [.integer(2)])
        #expect(try store.check().isHealthy)
    }

    @Test func aReadOnlyStoreThatNeedsNothingOpensAndOneThatNeedsAStepSaysSo() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        var migrator = DocumentMigrator()
        migrator.registerMigration("a") { _ in }
        try migrator.migrate(try DocumentStore(path: path))
        let readOnly = try DocumentStore(path: path, readOnly: true)
        #expect(try migrator.migrate(readOnly).isEmpty)
        migrator.registerMigration("b") { _ in }
        let error = try #require(throws: DocStoreError.self) { try migrator.migrate(readOnly) }
        guard case .readOnly = error else { Issue.record("expected readOnly, got \(error)"); return }
    }
}
