import Foundation
import Testing
@testable import DocStore

@Suite("Migrations: stale-shape detection")
struct ShapeCheckTests {
    /// The migration that goes with `RenamedTeam`, as an app would ship it.
    static func migrator(includingFounded: Bool = true) -> DocumentMigrator {
        var migrator = DocumentMigrator()
        migrator.registerMigration("teams v2") { migration in
            let teams = migration.collection(RenamedTeam.self, named: "teams")
            try teams.rename("nickName", to: \.nickname)
            if includingFounded { try teams.setDefault(\.founded, 1901) }
        }
        return migrator
    }

    @Test func aMigrationIsTestedBeforeItShips() throws {
        // The data the shipped model wrote.
        let store = try teamsStore()
        let before = try store.check(RenamedTeam.self, named: "teams")
        #expect(before.documentCount == 4 && before.staleCount == 4)
        #expect(before.stale.map(\.key) == [1, 2, 3, 4].map(DocumentKey.integer))
        #expect(before.stale.allSatisfy { $0.codingPath == "nickname" }, "\(before)")

        // A migration that forgets the new field is caught...
        let incomplete = try teamsStore()
        try Self.migrator(includingFounded: false).migrate(incomplete)
        let forgot = try incomplete.check(RenamedTeam.self, named: "teams")
        #expect(forgot.staleCount == 4 && forgot.stale.allSatisfy { $0.codingPath == "founded" }, "\(forgot)")
        #expect("\(forgot)".hasPrefix(#"4 documents of "teams" checked against RenamedTeam: 4 do not decode"#), "\(forgot)")

        // ...and the complete one leaves every document decodable.
        try Self.migrator().migrate(store)
        let after = try store.check(RenamedTeam.self, named: "teams")
        #expect(after.isHealthy && after.documentCount == 4, "\(after)")
        #expect("\(after)" == #"4 documents of "teams" checked against RenamedTeam: all decode"#)
    }

    @Test func everyStaleDocumentIsStreamedAndTheReportKeepsTheFirst() throws {
        let store = try DocumentStore.inMemory()
        let documents = (1...250).map { i -> JSONValue in
            let value: JSONValue = i % 5 == 0 ? .string("x") : .integer(Int64(i))
            return ["id": .string(String(format: "t%03d", i)), "value": value]
        }
        try store.collection(named: "tagged").insert(contentsOf: documents)
        var streamed: [StaleDocument] = []
        let report = try store.check(Tagged.self, named: "tagged", keeping: 3) { streamed.append($0) }
        #expect(report.collection == "tagged" && report.documentCount == 250)
        #expect(report.staleCount == 50 && streamed.count == 50 && report.stale == Array(streamed.prefix(3)))
        #expect(streamed.allSatisfy { $0.codingPath == "value" })
        #expect("\(report)".hasSuffix("• … and 47 more"), "\(report)")
    }

    @Test func aDamagedDocumentIsReportedNotThrown() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(Tagged.self, named: "tagged").insert(Tagged(id: "a", value: 1))
        try store.databaseWriter.write { db in try db.execute(sql: #"INSERT INTO "tagged" (key, body) VALUES ('b', '{"id": "b", ')"#) }
        let report = try store.check(Tagged.self, named: "tagged")
        #expect(report.staleCount == 1)
        #expect(report.stale.first?.key == .string("b") && report.stale.first?.reason.hasPrefix("not valid JSON") == true)
    }
}
