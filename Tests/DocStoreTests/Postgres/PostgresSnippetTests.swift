import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

extension PostgresTests {
    /// Snippets on PostgreSQL: the same as a file store's (FTS5's), document by
    /// document, on random notes and searches.
    @Suite("PostgreSQL: search snippets")
    struct SnippetTests {
        @Test func snippetsEqualAFileStores() async throws {
            var random = SearchDifferentialTests.Random(generator: SeededGenerator(seed: 41))
            let file = try DocumentStore.inMemory().collection(named: "notes")
            try file.createSearchIndex(on: [FieldPath("text")])
            try await PostgresTests.withStore { store in
                let notes = store.collection(named: "notes")
                try await notes.createSearchIndex(on: FieldPath("text"))
                var documents: [JSONValue] = []
                for id in 1...150 {
                    documents.append(["id": .integer(Int64(id)), "text": .string(SnippetDifferentialTests.note(&random, words: random.int(1...50)))])
                }
                try await file.insert(contentsOf: documents)
                try await notes.insert(contentsOf: documents)
                var compared = 0
                for _ in 0..<60 {
                    let search = random.search()
                    let request = SearchSnippetRequest(field: FieldPath("text"), text: search, words: random.pick([1, 4, 10, 64]))
                    let query = DocumentQuery(.matches(FieldPath("text"), search), sort: [SortKey(FieldPath("id"))])
                    let expected = try file.fetchWithSnippets(query, request)
                    let found = try await notes.fetchWithSnippets(query, request)
                    #expect(found.map(\.document) == expected.map(\.document), "\(search)")
                    #expect(found.map(\.snippet) == expected.map(\.snippet), "\(search)")
                    compared += found.count
                }
                #expect(compared > 200, "the searches must find notes often (\(compared))")
            }
        }

        /// The typed form, a document whose field doesn't match (nil), and the
        /// errors of a file store.
        @Test func typedSnippetsAndErrors() async throws {
            try await PostgresTests.withStore { store in
                let notes = store.collection(ScoutingNote.self, named: "notes")
                try await notes.insert(contentsOf: sampleNotes)
                let missing = await #expect(throws: DocStoreError.self) {
                    try await notes.filter { $0.year == 2004 }.fetchWithSnippets(of: \.text, matching: "home")
                }
                #expect(missing?.localizedDescription.contains("createSearchIndex") == true, "\(String(describing: missing))")
                try await notes.createSearchIndex(on: \.text)
                let found = try await notes.filter { $0.year != 2008 }.sorted { $0.id }.fetchWithSnippets(of: \.text, matching: "home run", words: 4)
                let onFile = try DocumentStore.inMemory().collection(ScoutingNote.self, named: "notes")
                try await onFile.insert(contentsOf: sampleNotes)
                try onFile.createSearchIndex(on: \.text)
                let expected = try onFile.filter { $0.year != 2008 }.sorted { $0.id }.fetchWithSnippets(of: \.text, matching: "home run", words: 4)
                #expect(found.map(\.document.id) == expected.map(\.document.id))
                #expect(found.map(\.snippet) == expected.map(\.snippet))
                #expect(found.contains { $0.snippet == nil } && found.contains { $0.snippet?.contains("[home]") == true }, "\(found)")
                let syntax = await #expect(throws: DocStoreError.self) {
                    try await notes.filter { $0.year == 2004 }.fetchWithSnippets(of: \.text, matching: "\"home")
                }
                #expect(syntax?.localizedDescription.contains("text") == true)
            }
        }
    }
}
