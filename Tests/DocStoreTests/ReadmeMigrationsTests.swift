import Foundation
import Testing
import DocStore

// The README's "Changing your models" section is this code, character for
// character (the test below compares them), so it always compiles.

// README-MIGRATIONS-BEGIN
// Version 1 stored `Team` with `nickName`; version 2 renames it and adds a year.
@Document
struct TeamV2: Codable, Identifiable {
    var id: Int
    var city: String
    var nickname: String                                    // was nickName
    var abbreviation: String
    var founded: Int                                        // new, and required
}

func teamsMigrator() -> DocumentMigrator {
    var migrator = DocumentMigrator()
    migrator.registerMigration("teams: nickname, founded") { migration in
        let teams = migration.collection(TeamV2.self, named: "teams")
        try teams.rename("nickName", to: \.nickname)         // an index on nickName follows it
        try teams.setDefault(\.founded, 1901)                // where missing or null
    }
    migrator.registerMigration("teams: abbreviations in lower case") { migration in
        try migration.collection(TeamV2.self, named: "teams")
            .convert(\.abbreviation) { (old: String) in old.lowercased() }   // streamed, in batches
    }
    return migrator
}

func openStore(path: String) throws -> DocumentStore {
    let store = try DocumentStore(path: path)
    try teamsMigrator().migrate(store)                      // what this store hasn't run yet
    return store
}

// In the app's tests, on a copy of real data, before the new version ships:
func testTeamsMigration(on store: DocumentStore) throws -> Bool {
    let before = try store.check(TeamV2.self, named: "teams")
    print(before)            // 4 documents of 'teams' checked against TeamV2: 4 do not decode
                             //   • document 1 at nickname: …
    for result in try teamsMigrator().migrate(store) {
        print(result.name, result.changes)   // 'teams': rename nickName to nickname: 4 documents; …
    }
    return try store.check(TeamV2.self, named: "teams").isHealthy
}
// README-MIGRATIONS-END

@Suite("README: changing your models")
struct ReadmeMigrationsTests {
    @Test func theSectionIsTheCompiledCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = try #require(section(of: source, from: "// README-MIGRATIONS-BEGIN\n", to: "// README-MIGRATIONS-END"))
        let shown = try #require(section(of: readme, from: "<!-- migrations -->\n```swift\n", to: "```"))
        #expect(shown == compiled)
    }

    @Test func theCodeRuns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("docstore-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("teams.sqlite").path
        do {
            let version1 = try DocumentStore(path: path)
            try version1.collection(Team.self, named: "teams").insert(contentsOf: sampleTeams)
            try version1.collection(Team.self, named: "teams").createIndex(on: FieldPath("nickName"))
        }
        let copy = try DocumentStore.inMemory()
        try copy.collection(Team.self, named: "teams").insert(contentsOf: sampleTeams)
        #expect(try testTeamsMigration(on: copy))

        let store = try openStore(path: path)
        let teams = try store.collection(TeamV2.self, named: "teams").filter { $0.nickname == "Rays" }.fetch()
        #expect(teams.map(\.abbreviation) == ["tb"] && teams.map(\.founded) == [1901])
        #expect(try store.collection(TeamV2.self, named: "teams").indexes().map(\.fields) == [[FieldPath("nickname")]])
        #expect(try teamsMigrator().migrate(try openStore(path: path)).isEmpty)
    }

    private func section(of text: String, from start: String, to end: String) -> String? {
        guard let startRange = text.range(of: start),
              let endRange = text.range(of: end, range: startRange.upperBound..<text.endIndex) else { return nil }
        return String(text[startRange.upperBound..<endRange.lowerBound])
    }
}
