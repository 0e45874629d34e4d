import Foundation
import Testing
import DocStore

// The README's "Coming from SwiftData" subsection is this code, character for
// character (the test below compares them), so it always compiles.

// README-PREDICATE-BEGIN
func swiftDataStyle(store: DocumentStore, team: Int) throws -> [String] {
    let players = store.collection(Player.self)
    let regulars = #Predicate<Player> { $0.teamId == team && $0.number > 10 }   // as written for SwiftData

    let found = try players.filter(regulars)           // the same query AST as filter { … }
        .sorted { $0.lastName }                         // then refined like any filter
        .limit(10)
        .fetch()
    let nicknamed = try players.filter(#Predicate { ($0.nickname ?? "").starts(with: "Big") }).count()
    try players.filter(#Predicate { $0.tags.contains("retired") }).delete()

    do {
        _ = try players.filter(#Predicate { $0.number % 2 == 0 }).fetch()   // no DocStore equivalent
    } catch {
        print(error.localizedDescription)   // invalid query on collection "players": #Predicate: IntRemainder on a document field…
    }
    print(nicknamed)
    return found.map(\.lastName)
}
// README-PREDICATE-END

@Suite("README: coming from SwiftData")
struct ReadmePredicateTests {
    @Test func thePredicateSectionIsTheCompiledCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = try #require(section(of: source, from: "// README-PREDICATE-BEGIN\n", to: "// README-PREDICATE-END"))
        let shown = try #require(section(of: readme, from: "<!-- predicate -->\n```swift\n", to: "```"))
        #expect(shown == compiled)
    }

    @Test func thePredicateCodeRunsAndFindsWhatItSays() throws {
        let store = try DocumentStore.inMemory()
        let players = store.collection(Player.self)
        try players.insert(contentsOf: [
            Player(id: 1, firstName: "David", lastName: "Ortiz", number: 34, teamId: 1, position: .designatedHitter,
                   nickname: "Big Papi", tags: ["retired"]),
            Player(id: 2, firstName: "Dustin", lastName: "Pedroia", number: 15, teamId: 1, position: .secondBase, tags: []),
            Player(id: 3, firstName: "Xander", lastName: "Bogaerts", number: 2, teamId: 1, position: .shortstop, tags: []),
            Player(id: 4, firstName: "Mookie", lastName: "Betts", number: 50, teamId: 1, position: .pitcher, tags: []),
            Player(id: 5, firstName: "Jose", lastName: "Bautista", number: 19, teamId: 4, position: .designatedHitter, tags: []),
        ])
        #expect(try swiftDataStyle(store: store, team: 1) == ["Betts", "Ortiz", "Pedroia"])
        #expect(try players.keys() == [.integer(2), .integer(3), .integer(4), .integer(5)])   // Ortiz retired
        let thrown = try #require(throws: DocStoreError.self) { try players.filter(#Predicate { $0.number % 2 == 0 }).fetch() }
        #expect(thrown.localizedDescription.hasPrefix("invalid query on collection \"players\": #Predicate: IntRemainder on a document field"))
    }

    private func section(of text: String, from start: String, to end: String) -> String? {
        guard let startRange = text.range(of: start),
              let endRange = text.range(of: end, range: startRange.upperBound..<text.endIndex) else { return nil }
        return String(text[startRange.upperBound..<endRange.lowerBound])
    }
}
