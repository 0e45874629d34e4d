import Foundation
import Testing
import DocStore

// The README's "Using DocStore from Swift" section is this code, character for
// character (the test below compares them), so the README always compiles.

// README-USAGE-BEGIN
struct Team: Codable, Identifiable, Equatable {
    var id: Int
    var city: String
    var nickName: String
    var abbreviation: String
}

struct Settings: Codable {
    var favoriteTeam: Int
}

func tour(storePath: String) throws {
    let store = try DocumentStore(path: storePath)    // or DocumentStore.inMemory()
    let teams = store.collection(Team.self)            // the "teams" collection

    try teams.insert(Team(id: 1, city: "Boston", nickName: "Red Sox", abbreviation: "BOS"))
    try teams.insert(contentsOf: [                     // one transaction
        Team(id: 2, city: "Baltimore", nickName: "Orioles", abbreviation: "BAL"),
        Team(id: 3, city: "Tampa Bay", nickName: "Rays", abbreviation: "TB"),
    ])
    let boston = try teams.get(1)                      // Team? (nil when absent)
    print(boston?.nickName ?? "no team 1")

    try teams.update(1) { $0.nickName = "Sox" }        // atomic read-modify-write
    try teams.save(Team(id: 4, city: "Toronto", nickName: "Blue Jays", abbreviation: "TOR"))  // upsert
    try teams.delete(3)
    print(try teams.count())                           // 3

    try teams.forEach { team in                        // streams: flat memory
        print(team.city)
    }

    try store.write { tx in                            // atomic across collections
        try tx.collection(Team.self).update(4) { $0.abbreviation = "TBJ" }
        try tx.values.set(Settings(favoriteTeam: 1), forKey: "settings")
    }                                                  // a thrown error rolls it all back

    let settings: Settings? = try store.values.get("settings")
    print(settings?.favoriteTeam ?? 0)

    let raw = store.collection(named: "teams")         // the same documents, untyped
    print(try raw.get(1)?["nickName"] ?? "none")       // "Sox"

    let report = try store.check()                     // SQLite's integrity check, the catalog, every document
    if !report.isHealthy { print(report) }             // what is wrong, and what repair(collection:) would do
}
// README-USAGE-END

// README-QUERY-BEGIN
enum Position: String, Codable, CaseIterable {
    case pitcher = "Pitcher", catcher = "Catcher", firstBase = "First Base", secondBase = "Second Base"
    case thirdBase = "Third Base", shortstop = "Shortstop", designatedHitter = "Designated Hitter"
}

@Document                                          // typed fields for queries
struct Player: Codable, Identifiable {
    var id: Int
    var firstName: String
    var lastName: String
    var number: Int
    var teamId: Int
    var position: Position                         // compared by its raw value
    var nickname: String?
    var tags: [String]
}

func queries(store: DocumentStore, minimumNumber: Int?) throws {
    let players = store.collection(Player.self)
    try players.createIndex(on: \.teamId)          // used by == on teamId, ranges and sorts

    let found = try players
        .filter {
            $0.teamId == 1                         // lines in a block are ANDed
            AnyOf {                                // OR
                $0.position == .shortstop
                $0.lastName.hasPrefix("Ped")       // case-sensitive, as in Swift
            }
            if let minimumNumber {                 // if, if let, if/else and for work inside
                $0.number >= minimumNumber
            }
            Not { $0.tags.contains("injured") }
        }
        .sorted { $0.lastName; $0.number.descending }
        .limit(10)
        .fetch()                                   // [Player]
    print(found.map(\.lastName))

    let unnamed = try players.count { $0.nickname == nil }
    let numbers = try players.filter { $0.teamId == 1 }.select { ($0.lastName, $0.number) }   // [(String, Int)]
    let highest = try players.query.max(\.number)                                             // Int?
    print(unnamed, numbers, highest ?? 0)

    try players.filter { $0.tags.contains("retired") }.update { $0.teamId.set(to: 0) }        // one statement
    try players.filter { $0.teamId == 30 }.delete()
    print(try players.filter { $0.teamId == 1 }.explain())                                     // SQL, bindings, plan
}
// README-QUERY-END

// README-KEYS-BEGIN
struct Reminder: Codable, Identifiable, Equatable {  // GRDB's auto-increment idiom
    var id: Int64?                                 // nil until inserted
    var text: String
}

enum Archive {
    struct Reminder: Codable, Identifiable { var id: Int64?; var text: String }
}

func reminders(store: DocumentStore) throws {
    let reminders = store.collection(Reminder.self)               // "reminders"
    var milk = Reminder(id: nil, text: "Buy milk")
    try reminders.insert(&milk)                                   // milk.id == 1, the generated key
    let call = try reminders.inserted(Reminder(id: nil, text: "Call Ann"))   // returned with id 2
    var batch = [Reminder(id: nil, text: "Walk"), Reminder(id: 10, text: "Read")]
    try reminders.insert(contentsOf: &batch)                      // ids 3 and 10: all or none
    milk.text = "Buy oat milk"
    try reminders.save(&milk)                                     // replaces 1 (a nil id inserts)
    print(call.id ?? 0, try reminders.get(1)?.text ?? "")         // the stored document holds its id

    // Archive.Reminder's default name is "reminders" too: its operations would throw
    // collectionNameCollision naming both types. Name one of them:
    let archived = store.collection(Archive.Reminder.self, named: "archivedReminders")
    try archived.insert(Archive.Reminder(id: nil, text: "Old"))
}
// README-KEYS-END

// README-LIVE-BEGIN
func liveRoster(store: DocumentStore) async throws -> [[String]] {
    let players = store.collection(Player.self)
    try await players.insert(Player(id: 1, firstName: "David", lastName: "Ortiz", number: 34, teamId: 1,
                                    position: .designatedHitter, tags: []))   // every call has an async form
    let redSox = players.filter { $0.teamId == 1 }.sorted { $0.number }
    print(try await redSox.count())                            // SQLite works on the store's threads, not the pool

    var pages: [[String]] = []
    for try await roster in redSox.values() {                  // the result now, then after each commit that changes it
        pages.append(roster.map(\.lastName))
        guard roster.count == 1 else { break }                 // leaving the loop ends the observation
        try await players.insert(Player(id: 2, firstName: "Jose", lastName: "Bautista", number: 19, teamId: 4,
                                        position: .designatedHitter, tags: []))   // selected neither before nor after: no fetch
        try await store.write { tx in                          // one commit: one new result
            let players = tx.collection(Player.self)
            try players.insert(Player(id: 3, firstName: "Dustin", lastName: "Pedroia", number: 15, teamId: 1,
                                      position: .secondBase, tags: []))
            try players.update(1) { $0.number = 1 }
        }
    }

    let changes = players.changes()                            // from now on, per commit: the keys written
    try await players.delete(2)
    for try await change in changes {
        print(change.inserted, change.updated, change.deleted)  // [] [] [2]
        break
    }
    return pages                                               // [["Ortiz"], ["Ortiz", "Pedroia"]]
}
// README-LIVE-END

@Suite("README")
struct ReadmeUsageTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theUsageSectionIsTheCompiledCode() throws {
        let readme = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = try #require(readmeSection(of: source, from: "// README-USAGE-BEGIN\n", to: "// README-USAGE-END"))
        let shown = try #require(readmeSection(of: readme, from: "<!-- usage -->\n```swift\n", to: "```"))
        #expect(shown == compiled)
    }

    @Test func theQuerySectionIsTheCompiledCode() throws {
        let readme = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = try #require(readmeSection(of: source, from: "// README-QUERY-BEGIN\n", to: "// README-QUERY-END"))
        let shown = try #require(readmeSection(of: readme, from: "<!-- queries -->\n```swift\n", to: "```"))
        #expect(shown == compiled)
    }

    @Test func theKeysSectionIsTheCompiledCode() throws {
        let readme = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = try #require(readmeSection(of: source, from: "// README-KEYS-BEGIN\n", to: "// README-KEYS-END"))
        let shown = try #require(readmeSection(of: readme, from: "<!-- generated-keys -->\n```swift\n", to: "```"))
        #expect(shown == compiled)
    }

    @Test func theLiveQuerySectionIsTheCompiledCode() throws {
        let readme = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = try #require(readmeSection(of: source, from: "// README-LIVE-BEGIN\n", to: "// README-LIVE-END"))
        let shown = try #require(readmeSection(of: readme, from: "<!-- live-queries -->\n```swift\n", to: "```"))
        #expect(shown == compiled)
    }

    @Test func theLiveQueryCodeRuns() async throws {
        let store = try DocumentStore.inMemory()
        let pages = try await liveRoster(store: store)
        #expect(pages == [["Ortiz"], ["Ortiz", "Pedroia"]])
        let players = store.collection(Player.self)
        #expect(try await players.keys() == [1, 3].map { DocumentKey.integer($0) })
        #expect(try await players.get(1)?.number == 1)
    }

    @Test func theKeysCodeRuns() throws {
        let store = try DocumentStore.inMemory()
        try reminders(store: store)
        let stored = store.collection(Reminder.self)
        #expect(try stored.all() == [
            Reminder(id: 1, text: "Buy oat milk"), Reminder(id: 2, text: "Call Ann"),
            Reminder(id: 3, text: "Walk"), Reminder(id: 10, text: "Read"),
        ])
        #expect(try store.collection(named: "archivedReminders").get(1)?["id"] == .integer(1))
        let collision = try #require(throws: DocStoreError.self) { try store.collection(Archive.Reminder.self).count() }
        guard case .collectionNameCollision = collision else { Issue.record("expected collectionNameCollision, got \(collision)"); return }
    }

    @Test func theQueryCodeRuns() throws {
        let store = try DocumentStore.inMemory()
        let players = store.collection(Player.self)
        try players.insert(contentsOf: [
            Player(id: 1, firstName: "David", lastName: "Ortiz", number: 34, teamId: 1, position: .designatedHitter, nickname: "Big Papi", tags: ["retired"]),
            Player(id: 3, firstName: "Dustin", lastName: "Pedroia", number: 15, teamId: 1, position: .secondBase, tags: []),
            Player(id: 4, firstName: "Xander", lastName: "Bogaerts", number: 2, teamId: 1, position: .shortstop, tags: ["injured"]),
        ])
        try queries(store: store, minimumNumber: 10)
        #expect(try players.get(1)?.teamId == 0, "the update by query ran")
        #expect(try players.indexes().map(\.fields) == [[FieldPath("teamId")]])
    }

    @Test func theUsageCodeRuns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("baseball.sqlite").path
        try tour(storePath: path)
        let teams = try DocumentStore(path: path).collection(Team.self)
        #expect(try teams.keys() == [1, 2, 4].map { DocumentKey.integer($0) })
        #expect(try teams.get(1)?.nickName == "Sox")
        #expect(try teams.get(4)?.abbreviation == "TBJ")
    }
}
