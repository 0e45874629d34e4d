import Foundation
import Testing
import DocStore

// The README's "Groups, joins and computed values" section is this code,
// character for character (the test below compares them), so it always compiles,
// under this target's type-check guard (-warn-long-expression-type-checking, Package.swift).

// README-GROUPS-BEGIN
@Document
struct Person: Codable, Identifiable {
    var id: String                                 // Lahman's playerID
    var nameFirst: String
    var nameLast: String
}

@Document
struct Batting: Codable {                          // one line of Batting.csv
    var playerID: String
    var yearID: Int
    var lgID: String
    var HR: Int
    var H: Int
    var AB: Int
    var player: Person? = nil                      // filled by join, never stored
}

struct Career: Decodable {                         // a group row, decoded
    var playerID: String
    var hr: Int
    var seasons: Int
}

func answers(store: DocumentStore) throws {
    let batting = store.collection(Batting.self, named: "batting")
    let people = store.collection(Person.self, named: "people")
    try batting.createIndex(on: \.playerID)        // counts per playerID read the index alone

    let leaders = try batting.query
        .group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }
        .sorted { $0.hr.descending }               // ties in key order
        .limit(10)
        .fetch()                                   // [GroupRow]
    print(leaders.map { "\($0.playerID): \($0.hr) in \($0.seasons)" })   // String, Int, Int

    let careers = try batting.query
        .group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }
        .filter { $0.seasons >= 20 }               // conditions on groups (HAVING)
        .fetch(as: Career.self)                    // [Career]

    let leagues = try batting.query
        .group(by: \.yearID, \.lgID) { (players: $0.count(distinct: \.playerID), most: $0.max(\.HR)) }
        .sorted { $0.yearID.descending; $0.lgID }
        .first()
    print(careers.count, leagues?.players ?? 0, leagues?.most ?? 0)

    let names = try batting.filter { $0.yearID == 2001 }
        .sorted { $0.HR.descending }
        .limit(5)
        .join(people, on: \.playerID, equals: \.id, as: \.player)
        .select { ($0.player.nameFirst, $0.player.nameLast, $0.HR) }   // [(String?, String?, Int)]
    print(names)

    let totals = batting.query.group(by: \.playerID) { (h: $0.sum(\.H), ab: $0.sum(\.AB)) }
    let best = try totals
        .filter { $0.ab >= 8000 }
        .select { ($0.playerID, avg: $0.h.asDouble / $0.ab.asDouble) }
        .sorted { $0.avg.descending }
        .limit(5)
        .fetch()
    print(best.map { "\($0.playerID) \($0.avg)" })                     // String, Double
}
// README-GROUPS-END

@Suite("README: groups")
struct ReadmeGroupsTests {
    @Test func theGroupsSectionIsTheCompiledCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = try #require(readmeSection(of: source, from: "// README-GROUPS-BEGIN\n", to: "// README-GROUPS-END"))
        let shown = try #require(readmeSection(of: readme, from: "<!-- groups -->\n```swift\n", to: "```"))
        #expect(shown == compiled)
    }

    @Test func theGroupsCodeRuns() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(Person.self, named: "people").insert(contentsOf: [
            Person(id: "bondsba01", nameFirst: "Barry", nameLast: "Bonds"),
            Person(id: "sosasa01", nameFirst: "Sammy", nameLast: "Sosa"),
        ])
        try store.collection(Batting.self, named: "batting").insert(contentsOf: [
            Batting(playerID: "bondsba01", yearID: 2001, lgID: "NL", HR: 73, H: 156, AB: 476),
            Batting(playerID: "sosasa01", yearID: 2001, lgID: "NL", HR: 64, H: 189, AB: 577),
            Batting(playerID: "bondsba01", yearID: 2002, lgID: "NL", HR: 46, H: 149, AB: 403),
        ])
        try answers(store: store)
        let batting = store.collection(Batting.self, named: "batting")
        let names = try batting.filter { $0.yearID == 2001 }.sorted { $0.HR.descending }
            .join(people(store), on: \.playerID, equals: \.id, as: \.player)
            .select { ($0.player.nameLast, $0.HR) }
        #expect(names.map(\.0) == ["Bonds", "Sosa"])
    }

    private func people(_ store: DocumentStore) -> DocumentCollection<Person> {
        store.collection(Person.self, named: "people")
    }
}
