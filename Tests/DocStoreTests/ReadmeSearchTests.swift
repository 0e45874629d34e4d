import Foundation
import Testing
import DocStore

// The README's "Searching text" section is this code, character for character
// (the test below compares them), so it always compiles.

// README-SEARCH-BEGIN
@Document
struct Scouting: Codable, Identifiable {
    var id: Int
    var player: String
    var notes: String
}

func search(store: DocumentStore) throws {
    let reports = store.collection(Scouting.self, named: "reports")
    try reports.createSearchIndex(on: \.notes)            // once; kept in sync from then on

    let homers = try reports.filter { $0.notes.matches("home run") }.count()   // both words, any order
    let phrase = try reports.filter {
        $0.notes.matches("\"home run\" swing*")          // a phrase, and a word starting with "swing"
        $0.player != "Ortiz"                             // with any other condition
    }.fetch()
    let best = try reports.filter { $0.notes.matches("resume CAFE") }   // case and accents ignored
        .sorted(byRelevanceTo: "resume CAFE")            // bm25, best first
        .limit(10)
        .fetchWithSnippets(of: \.notes, matching: "resume CAFE")      // [(Scouting, String?)]
    print(homers, phrase.map(\.player), best.map { $0.snippet ?? "" })  // "… [Résumé] … [café] …"
}
// README-SEARCH-END

@Suite("README: searching text")
struct ReadmeSearchTests {
    @Test func theSearchSectionIsTheCompiledCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = try #require(section(of: source, from: "// README-SEARCH-BEGIN\n", to: "// README-SEARCH-END"))
        let shown = try #require(section(of: readme, from: "<!-- search -->\n```swift\n", to: "```"))
        #expect(shown == compiled)
    }

    @Test func theSearchCodeRunsAndFindsWhatItSays() throws {
        let store = try DocumentStore.inMemory()
        let reports = store.collection(Scouting.self, named: "reports")
        try reports.insert(contentsOf: [
            Scouting(id: 1, player: "Ortiz", notes: "Home run swings, a home run hitter."),
            Scouting(id: 2, player: "Ramírez", notes: "Swinging for a home run; Résumé written at the café."),
            Scouting(id: 3, player: "Varitek", notes: "Run home on a wild pitch."),
        ])
        try search(store: store)
        #expect(try reports.filter { $0.notes.matches("home run") }.count() == 3)
        let phrase = try reports.filter { $0.notes.matches("\"home run\" swing*"); $0.player != "Ortiz" }.fetch()
        #expect(phrase.map(\.id) == [2])
        let best = try reports.filter { $0.notes.matches("resume CAFE") }.sorted(byRelevanceTo: "resume CAFE")
            .fetchWithSnippets(of: \.notes, matching: "resume CAFE")
        #expect(best.map(\.document.id) == [2])
        #expect(best.first?.snippet == "Swinging for a home run; [Résumé] written at the [café].")
    }

    private func section(of text: String, from start: String, to end: String) -> String? {
        guard let startRange = text.range(of: start),
              let endRange = text.range(of: end, range: startRange.upperBound..<text.endIndex) else { return nil }
        return String(text[startRange.upperBound..<endRange.lowerBound])
    }
}
