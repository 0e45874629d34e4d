import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

// README-POSTGRES-BEGIN
@Document
struct Rider: Codable, Identifiable, Sendable {
    var id: Int
    var name: String
    var team: String
    var wins: Int
}

func podium(url: String) async throws -> [String] {
    let store = try await PostgresDocumentStore(url: url)  // postgres://user@host/database
    let riders = store.collection(Rider.self, named: "riders")
    try await riders.insert(contentsOf: [
        Rider(id: 1, name: "Ana", team: "Blue", wins: 4),
        Rider(id: 2, name: "Bo", team: "Red", wins: 9),
        Rider(id: 3, name: "Cy", team: "Blue", wins: 6),
    ])
    let blue = try await riders                          // the same closures as on SQLite
        .filter { $0.team == "Blue"; $0.wins > 3 }
        .sorted { $0.wins.descending }
        .fetch()
    try await store.transaction { transaction in         // all or nothing
        try await transaction.collection(Rider.self, named: "riders").delete(2)
    }
    try await store.values.set(blue.map(\.name), forKey: "podium")  // the key/value area
    await store.close()
    return blue.map(\.name)                              // ["Cy", "Ana"]
}

func standings(url: String) async throws -> [String] {
    let store = try await PostgresDocumentStore(url: url)
    let riders = store.collection(Rider.self, named: "riders")
    try await riders.createIndex(on: \.team)             // a btree on the expressions queries use
    let teams = try await riders.query                   // groups, joins, computed values: as on SQLite
        .group(by: \.team) { (riders: $0.count(), wins: $0.sum(\.wins)) }
        .sorted { $0.wins.descending }
        .select { ($0.team, perRider: $0.wins.asDouble / $0.riders.asDouble) }
        .fetch()
    try await riders.filter { $0.team == "Red" }.update { $0.wins.increment(by: 1) }
    await store.close()
    return teams.map { "\($0.team): \($0.perRider)" }    // ["Blue: 5.0", "Red: 9.0"]
}
// README-POSTGRES-END

extension PostgresTests {
    @Suite("README: PostgreSQL")
    struct ReadmePostgresTests {
        @Test func theSectionIsTheCompiledCode() throws {
            let readme = try String(contentsOf: ReadmeUsageTests.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
            let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
            let compiled = try #require(readmeSection(of: source, from: "// README-POSTGRES-BEGIN\n", to: "// README-POSTGRES-END"))
            let shown = try #require(readmeSection(of: readme, from: "<!-- postgres -->\n```swift\n", to: "```"))
            #expect(shown == compiled)
        }

        @Test func theCodeRuns() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            #expect(try await podium(url: url) == ["Cy", "Ana"])
            let check = try await PostgresDocumentStore(url: url)
            let ids = try await check.collection(Rider.self, named: "riders").all().map(\.id)
            let podium = try await check.values.get("podium", as: [String].self)
            await check.close()
            #expect(ids == [1, 3])
            #expect(podium == ["Cy", "Ana"])
        }

        @Test func theGroupExampleRuns() async throws {
            let server = try #require(PostgresTestServer.current)
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let store = try await PostgresDocumentStore(url: url)
            try await store.collection(Rider.self, named: "riders").insert(contentsOf: [
                Rider(id: 1, name: "Ana", team: "Blue", wins: 4),
                Rider(id: 2, name: "Bo", team: "Red", wins: 9),
                Rider(id: 3, name: "Cy", team: "Blue", wins: 6),
            ])
            #expect(try await standings(url: url) == ["Blue: 5.0", "Red: 9.0"])
            #expect(try await store.collection(Rider.self, named: "riders").get(2)?.wins == 10)
            await store.close()
        }
    }
}
