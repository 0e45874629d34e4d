import Foundation
import Testing
@testable import DocStore

/// Snippets cut in Swift (``SearchSnippet``, what PostgreSQL stores use) against
/// SQLite FTS5's own `snippet()`: on random notes of up to 60 words, with
/// sentences, and random search texts and window sizes, both must give the same
/// text, marks and ellipses.
@Suite("Search: snippets cut in Swift against FTS5's")
struct SnippetDifferentialTests {
    static let separators = [" ", " ", " ", " ", ", ", ". ", ":  ", ".", "-", " — ", "\n", "; ", "? ", "!\n"]

    /// A note of `words` random words from the search tests' vocabulary.
    static func note(_ random: inout SearchDifferentialTests.Random, words: Int) -> String {
        var text = random.int(0...4) == 0 ? "(" : ""
        for i in 0..<words {
            if i > 0 { text += random.pick(separators) }
            text += random.word()
        }
        return text + random.pick(["", ".", "!", " …", ")"])
    }

    /// The first disagreements of `seed`'s notes and searches, and how many
    /// snippets were compared.
    static func disagreements(seed: UInt64) throws -> (found: [String], compared: Int) {
        var random = SearchDifferentialTests.Random(generator: SeededGenerator(seed: seed))
        let store = try DocumentStore.inMemory()
        let notes = store.collection(named: "notes")
        try notes.createSearchIndex(on: [FieldPath("text")])
        var texts: [DocumentKey: String] = [:]
        for id in 1...200 {
            let text = note(&random, words: random.int(1...60))
            texts[.integer(Int64(id))] = text
            try notes.insert(["id": .integer(Int64(id)), "text": .string(text)])
        }
        var found: [String] = []
        var compared = 0
        for _ in 0..<150 {
            let search = random.search()
            let request = SearchSnippetRequest(
                field: FieldPath("text"), text: search, highlight: random.pick([("[", "]"), ("<b>", "</b>"), ("", "")]),
                ellipsis: random.pick(["…", "...", ""]), words: random.pick([1, 2, 3, 5, 8, 10, 15, 64, 100]))
            let parsed = try SearchText(parsing: search)
            for (document, snippet) in try notes.fetchWithSnippets(DocumentQuery(.matches(FieldPath("text"), search)), request) {
                guard case .string(let text)? = document["text"] else { continue }
                compared += 1
                let cut = SearchSnippet.cut(text, matching: parsed, request)
                if cut != snippet, found.count < 5 {
                    found.append("search \(DocumentKey.quoted(search)), words \(request.words), text \(DocumentKey.quoted(text)): FTS5 \(String(describing: snippet)), Swift \(String(describing: cut))")
                }
            }
        }
        return (found, compared)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func swiftSnippetsEqualFTS5s(seed: UInt64) throws {
        let (found, compared) = try Self.disagreements(seed: seed)
        #expect(found.isEmpty, "seed \(seed): \(found.joined(separator: "\n"))")
        #expect(compared > 300, "seed \(seed): the searches must find notes often (\(compared) snippets)")
    }

    /// A document whose field lacks a term gets no snippet; the window and
    /// ellipses as FTS5 puts them on a known text.
    @Test func knownTexts() throws {
        let text = "Scouted in May. Hit a home run to right field, then another home run: a fine day for the home team."
        let request = SearchSnippetRequest(field: FieldPath("text"), text: "home run", words: 6)
        #expect(SearchSnippet.cut(text, matching: try SearchText(parsing: "home run"), request) == "…Hit a [home] [run] to right…")
        #expect(SearchSnippet.cut(text, matching: try SearchText(parsing: "home pitcher"), request) == nil)
        let whole = SearchSnippetRequest(field: FieldPath("text"), text: "day", words: 64)
        #expect(SearchSnippet.cut("A fine day.", matching: try SearchText(parsing: "day"), whole) == "A fine [day].")
    }
}
