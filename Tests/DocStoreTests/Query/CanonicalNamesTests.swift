import Foundation
import Testing
@_spi(Backends) @testable import DocStore

/// Texts that differ in bytes but are equal as Swift strings (a composed "é",
/// U+00E9, and "e" with a combining accent, U+0065 U+0301) are two names and
/// two values to JSON, SQLite and PostgreSQL, so they must be to DocStore too:
/// a cache keyed by `String` gave the second query the first one's rows, and a
/// `JSONValue` object merged the two members of one document (helper-46).
@Suite("Canonically equivalent names and values")
struct CanonicalNamesTests {
    static let composed = "\u{E9}"
    static let decomposed = "e\u{301}"

    /// A file store (its read-only connections cache statements and compiled
    /// queries) with document 12 holding the composed name and value and 13
    /// the decomposed ones.
    func makeStore() throws -> (store: DocumentStore, directory: URL) {
        let (path, directory) = try temporaryStorePath()
        let store = try DocumentStore(path: path)
        let collection = store.collection(named: "u")
        try collection.insert(["id": 12, .init(stringLiteral: Self.composed): 1, "v": .string(Self.composed)])
        try collection.insert(["id": 13, Self.decomposed: 1, "v": .string(Self.decomposed)])
        return (store, directory)
    }

    @Test(arguments: [false, true])
    func eachNameAndValueFindsItsOwnDocumentWhateverRanFirst(decomposedFirst: Bool) throws {
        let (store, directory) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let collection = store.collection(named: "u")
        let order = decomposedFirst ? [Self.decomposed, Self.composed] : [Self.composed, Self.decomposed]
        for _ in 0..<2 {
            for text in order {
                let expected: [DocumentKey] = [.integer(ExactText.same(text, Self.composed) ? 12 : 13)]
                let byName = DocumentQuery(.compare(FieldPath(text), .equal, .integer(1)))
                #expect(try collection.keys(byName) == expected, "member \(text.unicodeScalars.map(\.value))")
                let byValue = DocumentQuery(.compare(FieldPath("v"), .equal, .string(text)))
                #expect(try collection.keys(byValue) == expected, "value \(text.unicodeScalars.map(\.value))")
                #expect(try collection.select(byName, fields: [FieldPath(text)]) == [[1]])
            }
        }
        try store.close()
    }

    @Test func jsonValuesAndPathsCompareByBytes() {
        #expect(JSONValue.string(Self.composed) != .string(Self.decomposed))
        #expect(Set([JSONValue.string(Self.composed), .string(Self.decomposed)]).count == 2)
        #expect(FieldPath(Self.composed) != FieldPath(Self.decomposed))
        // The evaluator reads a member as the databases' paths do: by its bytes.
        let document: JSONValue = .object([Self.decomposed: 1])
        #expect(document.value(at: FieldPath(Self.decomposed)) == 1)
        #expect(document.value(at: FieldPath(Self.composed)) == nil)
    }

    /// A document holding both names can't be a `JSONValue`: it reads as one
    /// with duplicate names does (the first counts), and `check` names it.
    @Test func bothNamesInOneDocumentAreDuplicates() throws {
        let text = "{\"\(Self.composed)\":1,\"\(Self.decomposed)\":2,\"K\":3,\"\u{212A}\":4}"
        let bytes = Array(text.utf8)
        #expect(try bytes.withUnsafeBytes { try DocumentCodec.validate($0) })
        #expect(try DocumentCodec.parse(bytes) == .object([Self.composed: 1, "K": 3]))
        #expect(try !Array("{\"\(Self.composed)\":1,\"x\":{\"\(Self.decomposed)\":2}}".utf8).withUnsafeBytes { try DocumentCodec.validate($0) })
    }

    /// Two collections whose names differ only so are refused: every map of
    /// collections keyed by `String` took them for one (a copy failed
    /// saying a table was missing, naming the wrong one).
    @Test func aSecondCollectionNamedTheSameWayIsRefused() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try DocumentStore(path: path).collection(named: "c" + Self.composed).insert(["id": 1])
        // Another session, whose caches never saw the first.
        let other = try DocumentStore(path: path)
        let error = try #require(throws: DocStoreError.self) { try other.collection(named: "c" + Self.decomposed).insert(["id": 1]) }
        guard case .invalidCollectionName = error else { Issue.record("\(error)"); return }
        #expect("\(error)".contains("the same name written with other Unicode characters"), "\(error)")
        #expect(try other.collection(named: "c" + Self.composed).count() == 1)
    }

    /// An index, search index or field columns for a collection not yet made
    /// are recorded for it ahead; for the other spelling of an existing
    /// collection's name (or another letter case), which can never be made,
    /// they were recorded and reported made, and stayed in the catalog for
    /// nothing (helper-48). Refused, recording nothing.
    @Test func indexesAheadOfACollectionThatCantBeMadeAreRefused() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(named: "c" + Self.composed).insert(["id": 1, "a": 1])
        try store.collection(named: "Players").insert(["id": 1, "a": 1])
        for name in ["c" + Self.decomposed, "players"] {
            let other = store.collection(named: name)
            let attempts: [(String, () throws -> Void)] = [
                ("index", { _ = try other.createIndex(on: FieldPath("a")) }),
                ("search index", { _ = try other.createSearchIndex(on: FieldPath("a")) }),
                ("field columns", { _ = try other.createFieldColumns(on: [FieldPath("a")]) }),
            ]
            for (what, attempt) in attempts {
                let error = try #require(throws: DocStoreError.self, "\(what) on \(name)") { try attempt() }
                guard case .invalidCollectionName = error else { Issue.record("\(what): \(error)"); continue }
                #expect("\(error)".contains("U+0063 U+00E9 there, U+0063 U+0065 U+0301 here") || "\(error)".contains("letter case"), "\(error)")
            }
            #expect(try other.indexes().isEmpty && other.searchIndexes().isEmpty && other.fieldColumns() == nil, "\(name)")
        }
        // A new name still takes them ahead of its first document.
        let later = store.collection(named: "later")
        _ = try later.createIndex(on: FieldPath("a"))
        try later.insert(["id": 1, "a": 1])
        #expect(try later.explain(DocumentQuery(.compare(FieldPath("a"), .equal, 1))).usesIndex)
    }

    /// Grouping by both spellings of a name (or naming an aggregate the other
    /// one) made rows whose `String`-keyed objects held the two as one: one
    /// key's values landed under the other's header, the other's were lost
    /// (helper-48). Refused by the row shape, which the SQL compiler and the
    /// evaluator both check.
    @Test func groupingByBothSpellingsOfANameIsRefused() throws {
        let (store, directory) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let collection = store.collection(named: "u")
        let pipelines = [
            Grouping(keys: [FieldPath(Self.composed), FieldPath(Self.decomposed)], aggregates: [NamedAggregate("n", .count)]),
            Grouping(keys: [FieldPath("a", Self.composed), FieldPath("a", Self.decomposed)], aggregates: []),
            Grouping(keys: [FieldPath("K")], aggregates: [NamedAggregate("\u{212A}", .count)]),
        ].map { QueryPipeline(stages: [.group($0)]) }
        for pipeline in pipelines {
            let error = try #require(throws: DocStoreError.self) { try collection.rows(pipeline) }
            #expect("\(error)".contains("written with other Unicode characters"), "\(error)")
            #expect(throws: DocStoreError.self) { try RowShape.of(pipeline, collection: "u") }
        }
        // One spelling, or two names that merely look alike, still group.
        let one = QueryPipeline(stages: [.group(Grouping(keys: [FieldPath(Self.composed), FieldPath("v")], aggregates: [NamedAggregate("n", .count)]))])
        #expect(try collection.rows(one).count == 2)
        try store.close()
    }
}
