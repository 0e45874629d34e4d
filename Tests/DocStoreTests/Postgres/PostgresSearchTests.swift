import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

extension PostgresTests {
    /// Full-text search on PostgreSQL: the same documents match as on a file
    /// store, the in-memory evaluator's brute-force word match being the judge.
    @Suite("PostgreSQL: full-text search")
    struct SearchTests {
        /// Random notes (diacritics, case variants, FTS5 keywords, punctuation),
        /// some written before the index and some after, rewritten and deleted;
        /// random search texts (words, phrases, prefixes): PostgreSQL's matches
        /// and the evaluator's agree, and a relevance sort puts exactly the
        /// matches first.
        @Test(arguments: [UInt64(11), 12])
        func searchAgreesWithTheEvaluator(seed: UInt64) async throws {
            try await PostgresTests.withStore { store in
                let notes = store.collection(named: "notes")
                let (disagreements, nonEmpty) = try await SearchDifferentialTests.disagreements(
                    seed: seed, indexAt: 60, searches: 200, exactRanking: false, SearchDifferentialTests.Backend(
                        createIndex: { try await notes.createSearchIndex(on: FieldPath("text")) },
                        save: { try await notes.save($0) },
                        delete: { _ = try await notes.delete($0) },
                        keys: { try await notes.keys($0) }))
                #expect(disagreements.isEmpty, "seed \(seed): \(disagreements.count) disagreements, first: \(disagreements.prefix(3))")
                #expect(nonEmpty > 60, "seed \(seed): the searches must find something often (\(nonEmpty) of 200)")
            }
        }

        /// The typed DSL, string keys, relevance and the errors, as on SQLite.
        @Test func typedSearchRankingAndErrors() async throws {
            try await PostgresTests.withStore { store in
                let notes = store.collection(ScoutingNote.self, named: "notes")
                try await notes.insert(contentsOf: sampleNotes)
                let error = await #expect(throws: DocStoreError.self) {
                    try await notes.filter { $0.text.matches("home") }.count()
                }
                #expect(error?.localizedDescription.contains("createSearchIndex") == true, "\(String(describing: error))")
                try await notes.createSearchIndex(on: \.text)
                #expect(try await notes.searchIndexes().map(\.fields) == [[FieldPath("text")]])
                #expect(try await notes.filter { $0.text.matches("home run") }.count() == 3)
                #expect(try await notes.filter { $0.text.matches("\"home run\"") }.fetch().map(\.id) == [1, 3, 5])
                #expect(try await notes.filter { $0.text.matches("cafe resume") }.fetch().map(\.id) == [3])
                #expect(try await notes.filter { $0.text.matches("run*"); $0.year == 2004 }.fetch().map(\.id) == [1, 3])
                let best = try await notes.filter { $0.text.matches("home") }.sorted(byRelevanceTo: "home").fetch().map(\.id)
                #expect(Set(best) == [1, 2, 3, 5])
                let syntax = await #expect(throws: DocStoreError.self) {
                    try await notes.filter { $0.text.matches("\"home run") }.fetch()
                }
                #expect(syntax?.localizedDescription.contains("text") == true, "the error names the field: \(String(describing: syntax))")

                let keyed = store.collection(KeyedNote.self, named: "keyed")
                try await keyed.createSearchIndex(on: \.text)  // before the collection exists: built with its table
                try await keyed.insert(contentsOf: [KeyedNote(id: "b", text: "Łódź in winter"), KeyedNote(id: "a", text: "lodz")])
                #expect(try await keyed.filter { $0.text.matches("LODZ") }.fetch().map(\.id) == ["a"])  // Ł is no L with a diacritic: it stays ł
                #expect(try await keyed.filter { $0.text.matches("ŁÓDŹ") }.fetch().map(\.id) == ["b"])
                #expect(try await keyed.dropSearchIndex(on: [FieldPath("text")]))
                #expect(try await keyed.searchIndexes().isEmpty)
            }
        }

        /// A search on a collection of 20 000 documents reads the GIN index,
        /// and a document whose text PostgreSQL can't index is still written.
        @Test func searchesUseTheIndexAndHugeTextsAreStillWritten() async throws {
            try await PostgresTests.withStore { store in
                let notes = store.collection(named: "notes")
                try await notes.createSearchIndex(on: FieldPath("text"))
                let words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
                try await notes.insert(contentsOf: (1...20_000).map { key -> JSONValue in
                    let text = (0..<8).map { words[(key &* 7 &+ $0 &* 3) % words.count] }.joined(separator: " ")
                    return ["id": .integer(Int64(key)), "text": .string(key == 777 ? text + " needle" : text)]
                })
                let query = DocumentQuery(.matches(FieldPath("text"), "needle"))
                #expect(try await notes.keys(query) == [.integer(777)])
                let plan = try await notes.explain(query)
                #expect(plan.plan.contains { $0.contains("docstore_search_") }, "\(plan.plan.joined(separator: "\n"))")
                // Over a megabyte of distinct words: more than a tsvector holds.
                let huge = (0..<120_000).map { "w\($0)" }.joined(separator: " ")
                try await notes.insert(["id": 20_001, "text": .string(huge)])
                #expect(try await notes.get(20_001)?["text"] == .string(huge))
                #expect(try await notes.keys(DocumentQuery(.matches(FieldPath("text"), "w5"))) == [])
            }
        }
    }
}
