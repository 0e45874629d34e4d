import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// `docstore copy` carries a store's migration history with its documents,
    /// so that the copy's app doesn't run its steps again on migrated documents
    /// (a `copy` step run twice overwrites, a `convert` fails).
    @Suite("docstore copy: migration history")
    struct CopyMigrationTests {
        static func migrator() -> DocumentMigrator {
            var migrator = DocumentMigrator()
            migrator.registerMigration("v1: nickname") { try $0.collection(named: "teams").rename("nickName", to: "nickname") }
            migrator.registerMigration("v2: shown name") { try $0.collection(named: "teams").copy("nickname", to: "shown") }
            return migrator
        }

        @Test func theHistoryGoesToPostgreSQLAndBackAndNoStepRunsAgain() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("source.sqlite").path
            let back = directory.appendingPathComponent("back.sqlite").path
            let applied: [AppliedMigration]
            do {
                let store = try DocumentStore(path: source)
                try store.collection(named: "teams").insert(contentsOf: (1...30).map { ["id": .integer(Int64($0)), "nickName": .string("Team \($0)")] })
                try Self.migrator().migrate(store)
                applied = try store.appliedMigrations()
            }
            #expect(applied.map(\.name) == ["v1: nickname", "v2: shown name"])

            let url = try PostgresREPLServer.freshDatabaseURL()
            let there = try runProcess(try docstoreBinary(), ["copy", source, url])
            #expect(there.status == 0, "\(there.stderr)")
            #expect(there.stdout.contains("migrations: v1: nickname, v2: shown name"), "\(there.stdout)")
            let home = try runProcess(try docstoreBinary(), ["copy", url, back])
            #expect(home.status == 0, "\(home.stderr)")

            let copy = try DocumentStore(path: back)
            #expect(try copy.appliedMigrations() == applied, "names, order and times kept")
            #expect(try Self.migrator().pendingMigrations(in: copy).isEmpty)
            #expect(try Self.migrator().migrate(copy).isEmpty)
            #expect(try copy.collection(named: "teams").filter { $0.shown == "Team 7" }.count() == 1)
        }

        /// A destination that has run other steps is refused before anything is
        /// copied: its documents and history stay as they were.
        @Test func aDestinationWithAnotherHistoryIsRefused() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let source = directory.appendingPathComponent("source.sqlite").path
            let other = directory.appendingPathComponent("other.sqlite").path
            do {
                let store = try DocumentStore(path: source)
                try store.collection(named: "teams").insert(["id": 1, "nickName": "Red Sox"])
                try Self.migrator().migrate(store)
                var elsewhere = DocumentMigrator()
                elsewhere.registerMigration("v1: nickname") { _ in }
                elsewhere.registerMigration("v2: fork") { _ in }
                try elsewhere.migrate(try DocumentStore(path: other))
            }
            let refused = try runProcess(try docstoreBinary(), ["copy", source, other, "--replace"])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("the destination has run migrations v1: nickname, v2: fork and the source v1: nickname, v2: shown name"),
                    "\(refused.stderr)")
            let destination = try DocumentStore(path: other)
            #expect(try destination.collections().isEmpty, "nothing was copied")
            #expect(try destination.appliedMigrations().map(\.name) == ["v1: nickname", "v2: fork"])
        }
    }
}
