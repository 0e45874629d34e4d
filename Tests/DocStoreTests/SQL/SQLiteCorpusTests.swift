import Foundation
import Testing
@testable import DocStore

/// The SQLite SQL (text and bindings) of a broad corpus of queries — conditions of
/// every kind, sorts, limits, counts, aggregates, groups, joins, computed values,
/// updates and indexes — compared with the text recorded before the compiler
/// learned a second dialect (`Fixtures/sqlite-corpus.txt`). The SQLite path must
/// emit exactly what it emitted before: same statements, same plans, same speed.
/// A deliberate change is recorded again, with the benchmark showing its speed
/// (2026-11-27: pipelines order by carried sort columns, not `row_number()`;
/// later: a group's filter, sort and limit go into the group's own `SELECT`).
///
/// `DOCSTORE_RECORD_SQL_CORPUS=1 swift test --filter SQLiteCorpus` rewrites the
/// file (and fails, so that a recording is never mistaken for a pass).
@Suite("SQL compiler: the SQLite corpus is unchanged")
struct SQLiteCorpusTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/sqlite-corpus.txt")

    @Test func sqliteTextAndBindingsMatchTheRecordedCorpus() throws {
        let actual = try Self.corpus()
        if ProcessInfo.processInfo.environment["DOCSTORE_RECORD_SQL_CORPUS"] == "1" {
            try actual.write(to: Self.fixture, atomically: true, encoding: .utf8)
            Issue.record("recorded \(Self.fixture.path); run again without DOCSTORE_RECORD_SQL_CORPUS")
            return
        }
        let expected = try String(contentsOf: Self.fixture, encoding: .utf8)
        let expectedCases = expected.components(separatedBy: "\n## ")
        let actualCases = actual.components(separatedBy: "\n## ")
        #expect(actualCases.count == expectedCases.count)
        var differences = 0
        for (a, e) in zip(actualCases, expectedCases) where a != e {
            Issue.record("SQL differs from the recorded corpus:\nexpected: \(e)\nactual:   \(a)")
            differences += 1
            if differences >= 3 { break }
        }
        #expect(actualCases.count > 500, "the corpus should stay broad")
    }

    // MARK: The corpus

    static func keyKind(_ name: String) -> KeyKind? {
        switch name {
        case "other": .integer
        case "names": .string
        default: nil
        }
    }

    static func compiler(_ collection: String, indexed: [[FieldPath]] = []) -> QueryCompiler {
        var compiler = QueryCompiler(collection: collection, keyKind: { keyKind($0) })
        compiler.indexedFields = { $0 == collection ? indexed : [[FieldPath("code")]] }
        return compiler
    }

    /// One case: a name and the statement it compiles to (or the error it throws).
    static func entry(_ name: String, _ compile: () throws -> SQLFragment) -> String {
        do {
            let fragment = try compile()
            return "## \(name)\n\(fragment.sql)\nbindings: \(fragment.bindings.map { String(reflecting: $0) })\n"
        } catch {
            return "## \(name)\nerror: \(error)\n"
        }
    }

    static func corpus() throws -> String {
        var entries: [String] = []
        let main = compiler("main \"docs\". [$]")

        // Random queries over the whole condition AST: documents, count, keys,
        // delete, every aggregate.
        var queries = RandomQueries(rng: SeededGenerator(seed: 4242))
        for index in 0..<160 {
            let query = queries.query()
            let aggregate = queries.aggregate()
            entries.append(entry("query \(index) documents") { try main.documents(query) })
            entries.append(entry("query \(index) count") { try main.count(query) })
            if index % 5 == 0 { entries.append(entry("query \(index) delete") { try main.delete(query) }) }
            entries.append(entry("query \(index) aggregate \(aggregate)") { try main.aggregate(aggregate, query) })
        }

        // Random pipelines: groups (with and without an index on the keys), joins
        // by key and by field (indexed or not, one and many), computed values.
        var pipelines = RandomPipelines(rng: SeededGenerator(seed: 777))
        for index in 0..<160 {
            let pipeline = pipelines.pipeline()
            let indexed = index % 2 == 0 ? [[FieldPath("g")], [FieldPath("h", "k"), FieldPath("t")]] : []
            entries.append(entry("pipeline \(index)") {
                var compiler = PipelineCompiler(Self.compiler("main", indexed: indexed))
                return try compiler.compile(pipeline).sql
            })
            if index % 4 == 0 {
                entries.append(entry("pipeline \(index) count") {
                    var compiler = PipelineCompiler(Self.compiler("main", indexed: indexed))
                    return try compiler.count(pipeline)
                })
            }
        }

        // Updates: set, remove, increment (integer, real, exact), by query and by
        // key; the checks an increment runs first.
        let updates: [[FieldUpdate]] = [
            [.set(FieldPath("a"), 5)], [.set(FieldPath("obj", "x.y"), ["k": [1, "two", nil]])],
            [.remove(FieldPath([.key("tags"), .index(2)]))], [.increment(FieldPath("n"), 1)], [.increment(FieldPath("n"), -3)],
            [.increment(FieldPath("n"), 2.5)], [.set(FieldPath("s"), "it's"), .remove(FieldPath("b")), .increment(FieldPath("c"), 7)],
            [.set(FieldPath("q\"k"), 1)], [.set(FieldPath.root, 1)], [.set(FieldPath("a"), 1), .remove(FieldPath("a", "b"))],
            [.set(FieldPath("d"), .double(.nan))],
        ]
        let updateQuery = DocumentQuery(.compare(FieldPath("a"), .greater, 2), sort: [SortKey(FieldPath("b"))], limit: 3)
        for (index, update) in updates.enumerated() {
            entries.append(entry("update \(index) by query") { try main.update(update, DocumentQuery(.exists(FieldPath("a")))) })
            entries.append(entry("update \(index) limited") { try main.update(update, updateQuery) })
            entries.append(entry("update \(index) by key") { try main.update(update, key: .string("k'1")) })
        }
        for amount: JSONValue in [1, -1, 2.5, 0] {
            entries.append(entry("overflows \(amount)") { try main.overflows(at: FieldPath("n"), by: amount, updateQuery) })
        }
        entries.append(entry("non-numbers") { try main.nonNumbers(at: FieldPath("stats", "n"), updateQuery) })

        // Indexes: single, compound, unique, unindexable.
        let indexes: [IndexInfo] = [
            IndexInfo(name: "i1", collection: "main", fields: [FieldPath("g")], isUnique: false),
            IndexInfo(name: "i2", collection: "main", fields: [FieldPath("h", "k"), FieldPath("t")], isUnique: true),
            IndexInfo(name: "i\"3", collection: "we'ird", fields: [FieldPath([.key("tags"), .index(0)])], isUnique: false),
            IndexInfo(name: "i4", collection: "main", fields: [FieldPath("back\\slash")], isUnique: false),
        ]
        for index in indexes {
            entries.append(entry("index \(index.name)") { SQLFragment(try IndexSQL.create(index)) })
        }
        return entries.joined(separator: "\n")
    }
}
