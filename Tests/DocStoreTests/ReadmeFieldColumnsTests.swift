import Foundation
import Testing
import DocStore

// The README's "Field columns" section is this code, character for character
// (the test below compares them), so it always compiles.

// README-COLUMNS-BEGIN
@Document
struct Season: Codable {                           // one line of Lahman's Batting.csv
    var playerID: String
    var yearID: Int
    var teamID: String
    var HR: Int
}

func fastScans(store: DocumentStore) throws {
    let seasons = store.collection(Season.self, named: "batting")
    try seasons.createFieldColumns(on: \.playerID, \.teamID, \.HR)   // once; kept in step by every write

    let sluggers = try seasons.count { $0.HR >= 40 }                 // reads the HR column, no JSON
    let boston = try seasons.filter { $0.teamID == "BOS" }
        .sorted { $0.HR.descending }
        .limit(10)
        .fetch()                                   // picks 10 keys from the columns, then reads 10 documents
    let leaders = try seasons.query
        .group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }   // the columns' table alone
        .sorted { $0.hr.descending }
        .limit(3)
        .fetch()
    print(sluggers, boston.map(\.HR), leaders.map { "\($0.playerID) \($0.hr)" })
}
// README-COLUMNS-END

@Suite("README: field columns")
struct ReadmeFieldColumnsTests {
    @Test func theSectionIsTheCompiledCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = try #require(readmeSection(of: source, from: "// README-COLUMNS-BEGIN\n", to: "// README-COLUMNS-END"))
        let shown = try #require(readmeSection(of: readme, from: "<!-- columns -->\n```swift\n", to: "```"))
        #expect(shown == compiled)
    }

    @Test func theCodeRunsAndItsQueriesReadTheColumns() throws {
        let store = try DocumentStore.inMemory()
        let seasons = store.collection(Season.self, named: "batting")
        try seasons.insert(contentsOf: [
            Season(playerID: "ortizda01", yearID: 2006, teamID: "BOS", HR: 54),
            Season(playerID: "ortizda01", yearID: 2005, teamID: "BOS", HR: 47),
            Season(playerID: "bondsba01", yearID: 2001, teamID: "SFN", HR: 73),
            Season(playerID: "ruthba01", yearID: 1918, teamID: "BOS", HR: 11),
        ])
        try fastScans(store: store)
        #expect(try seasons.count { $0.HR >= 40 } == 3)
        #expect(try seasons.filter { $0.teamID == "BOS" }.sorted { $0.HR.descending }.limit(10).fetch().map(\.HR) == [54, 47, 11])
        let leaders = seasons.query.group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }
            .sorted { $0.hr.descending }.limit(3)
        #expect(try leaders.fetch().map(\.playerID) == ["ortizda01", "bondsba01", "ruthba01"])
        #expect(try leaders.explain().sql.contains(#"FROM "docstore_columns_1" AS docstore_columns"#))
        #expect(try seasons.filter { $0.HR >= 40 }.explain().sql.contains("docstore_columns.v2 >= ?"))
    }
}
