import Foundation
import Testing
@testable import DocStore
import DocStorePostgres

/// Collection and member names in which a quote, or the `?` of a parameter, sits
/// next to a combining mark. Swift joins the mark to the character before it, so
/// code that reads SQL text by `Character` (or Foundation's string search) does
/// not see that quote: `a"\u{301}b` came out of `quoteIdentifier` with its quote
/// undoubled (a syntax error, and SQL text a name could steer), and a `?` inside
/// `E'\u{301}?'` was numbered as a parameter on PostgreSQL.
@Suite("Names with combining marks, on both backends", .postgresServer)
struct CombiningMarkNamesTests {
    static let collectionName = "say \"\u{301}hi\" it'\u{301}s \u{301}?"
    static let memberNames = ["it'\u{301}s", "\u{301}?", "q\"\u{301}"]

    @Test(arguments: Backend.allCases)
    func collectionsAndMembersWithCombiningMarksAreQueriedIndexedAndChanged(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let docs = store.collection(named: Self.collectionName)
            // Member i holds i in the first document and i + 10 in the second.
            try await docs.insert(contentsOf: [
                ["id": 1, "it'\u{301}s": 0, "\u{301}?": 1, "q\"\u{301}": 2],
                ["id": 2, "it'\u{301}s": 10, "\u{301}?": 11, "q\"\u{301}": 12],
                ["id": 3, "other": 1],
            ])
            for (offset, name) in Self.memberNames.enumerated() {
                let field = FieldPath(name)
                #expect(try await docs.keys(DocumentQuery(.compare(field, .equal, .integer(Int64(offset + 10))))) == [.integer(2)],
                        "\(name) on \(backend)")
                #expect(try await docs.keys(DocumentQuery(.compare(field, .less, 10), sort: [SortKey(field)])) == [.integer(1)])
                #expect(try await docs.select(DocumentQuery(), fields: [field]) == [[.integer(Int64(offset))], [.integer(Int64(offset + 10))], [.null]])
            }
            // A member SQLite's path syntax can name gets an index and an update.
            let indexed = FieldPath("it'\u{301}s")
            try await docs.run({ _ = try $0.createIndex(on: indexed) }, { _ = try await $0.createIndex(on: indexed) })
            let indexes = try await docs.run({ try $0.indexes() }, { try await $0.indexes() })
            #expect(indexes.map(\.fields) == [[indexed]])
            if backend == .sqlite {
                // (PostgreSQL may rightly scan three rows instead.)
                #expect(try await docs.explain(DocumentQuery(.compare(indexed, .equal, 10))).usesIndex)
            }
            #expect(try await docs.update(DocumentQuery(.compare(indexed, .equal, 10)), [.increment(indexed, 5)]) == 1)
            #expect(try await docs.get(2)?["it'\u{301}s"] == 15)
            #expect(try await docs.delete(DocumentQuery(.exists(FieldPath("\u{301}?")))) == 2)
            #expect(try await docs.keys() == [.integer(3)])
        }
    }
}
