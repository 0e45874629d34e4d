import Foundation
import Testing
@testable import DocStore

/// Random notes and random search texts: the search index (FTS5) must find
/// exactly the documents the in-memory evaluator's brute-force word match finds,
/// and rank them in the same order as the evaluator's bm25.
@Suite("Search: FTS5 against the evaluator's brute-force match")
struct SearchDifferentialTests {
    /// Words with diacritics, case variants and FTS5 keywords (which must stay words).
    static let vocabulary: [[String]] = [
        ["home", "Home", "HOME"],
        ["run", "Run", "RUN"],
        ["runner", "Runner"],
        ["café", "Café", "CAFÉ", "cafe", "cafe\u{301}"],
        ["résumé", "Résumé", "resume", "RÉSUMÉ"],
        ["naïve", "NAÏVE", "naive"],
        ["straße", "STRAẞE", "Straße"],
        ["señor", "Señor", "senor", "SEÑOR"],
        ["łódź", "Łódź", "ŁÓDŹ", "lodz"],
        ["ångström", "Ångström", "angstrom"],
        ["øre", "Øre"],
        ["homer", "Homer"],
        ["and", "AND"],
        ["near", "NEAR"],
        ["not", "NOT"],
        ["2004", "2004"],
    ]
    static let separators = [" ", " ", " ", ", ", "; ", "-", " — ", "'", "! ", " (", ") ", "\n", ":", "*"]

    struct Random {
        var generator: SeededGenerator
        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
        mutating func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }
        mutating func word() -> String { pick(pick(SearchDifferentialTests.vocabulary)) }

        mutating func note(id: Int) -> JSONValue {
            switch int(0...19) {
            case 0: return ["id": .integer(Int64(id))]  // no text
            case 1: return ["id": .integer(Int64(id)), "text": .integer(Int64(int(0...3000)))]  // not a string
            default:
                var text = ""
                for i in 0..<int(1...14) {
                    if i > 0 { text += pick(SearchDifferentialTests.separators) }
                    text += word()
                }
                return ["id": .integer(Int64(id)), "text": .string(text)]
            }
        }

        mutating func search() -> String {
            (0..<int(1...3)).map { _ -> String in
                switch int(0...5) {
                case 0: return "\"" + word() + " " + word() + "\""
                case 1:
                    let word = word()
                    return String(word.prefix(int(1...max(1, word.count)))) + "*"
                case 2: return "\"" + word() + " " + String(word().prefix(2)) + "\"*"
                default: return word()
                }
            }.joined(separator: pick([" ", "  ", "\t"]))
        }
    }

    /// What a backend under test does: its writes, and the keys a query selects.
    struct Backend {
        var createIndex: () async throws -> Void
        var save: (JSONValue) async throws -> Void
        var delete: (DocumentKey) async throws -> Void
        var keys: (DocumentQuery) async throws -> [DocumentKey]
    }

    /// Writes 150 random notes (the index created before the `indexAt`th),
    /// rewrites and deletes some, then runs `searches` random search texts:
    /// the disagreements with the evaluator, and how many searches found
    /// something. With `exactRanking`, a relevance sort must give the
    /// evaluator's bm25 order; without, only the matches first, then the rest
    /// in key order (PostgreSQL ranks by `ts_rank_cd`).
    static func disagreements(seed: UInt64, indexAt: Int, searches: Int, exactRanking: Bool,
                              _ backend: Backend) async throws -> (disagreements: [String], nonEmpty: Int) {
        var random = Random(generator: SeededGenerator(seed: seed))
        var documents: [(key: DocumentKey, document: JSONValue)] = []
        for key in 1...150 {
            if key == indexAt { try await backend.createIndex() }
            let note = random.note(id: key)
            try await backend.save(note)
            documents.append((.integer(Int64(key)), note))
        }
        // Rewrite some, delete some: the index's upkeep is part of what's checked.
        for _ in 0..<30 {
            let position = random.int(0...(documents.count - 1))
            if random.int(0...1) == 0 {
                guard case .integer(let key) = documents[position].key else { continue }
                let note = random.note(id: Int(key))
                try await backend.save(note)
                documents[position].document = note
            } else {
                try await backend.delete(documents[position].key)
                documents.remove(at: position)
            }
        }
        var disagreements: [String] = []
        var nonEmpty = 0
        for _ in 0..<searches {
            let text = random.search()
            let found = DocumentQuery(.matches(FieldPath("text"), text))
            let expected = found.run(on: documents).map(\.key)
            let actual = try await backend.keys(found)
            if actual != expected { disagreements.append("matches(\(text)): SQL \(actual), evaluator \(expected)") }
            if !expected.isEmpty { nonEmpty += 1 }
            let ranked = DocumentQuery(relevance: SearchRelevance(field: FieldPath("text"), text: text))
            let actualOrder = try await backend.keys(ranked)
            if exactRanking {
                let expectedOrder = ranked.run(on: documents).map(\.key)
                if actualOrder != expectedOrder {
                    disagreements.append("relevance to \(text): SQL \(actualOrder.prefix(8)), evaluator \(expectedOrder.prefix(8))")
                }
            } else {
                let rest = documents.map(\.key).filter { !expected.contains($0) }
                if Set(actualOrder.prefix(expected.count)) != Set(expected) || Array(actualOrder.dropFirst(expected.count)) != rest {
                    disagreements.append("relevance to \(text): SQL \(actualOrder.prefix(8)), matches \(expected.prefix(8))")
                }
            }
        }
        return (disagreements, nonEmpty)
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func searchIndexAgreesWithTheEvaluator(seed: UInt64) async throws {
        let store = try DocumentStore.inMemory()
        let notes = store.collection(named: "notes")
        let (disagreements, nonEmpty) = try await Self.disagreements(seed: seed, indexAt: 1, searches: 300, exactRanking: true, Backend(
            createIndex: { try notes.createSearchIndex(on: FieldPath("text")) },
            save: { try notes.save($0) },
            delete: { try notes.delete($0) },
            keys: { try notes.keys($0) }))
        #expect(disagreements.isEmpty, "seed \(seed): \(disagreements.count) disagreements, first: \(disagreements.prefix(3))")
        #expect(nonEmpty > 100, "seed \(seed): the queries must find something most of the time (\(nonEmpty) of 300)")
    }
}
