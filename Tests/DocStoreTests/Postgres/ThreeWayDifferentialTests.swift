import DocStorePostgres
import Foundation
import Testing
@_spi(Backends) @testable import DocStore

extension PostgresTests {
    /// The same random documents and queries, three ways: SQLite, PostgreSQL and
    /// the in-memory evaluator. The evaluator mirrors each database's reading of
    /// values (``QueryReading``: exact numbers, and arrays/objects sorted by key on
    /// PostgreSQL); every other rule is one. Zero disagreements allowed.
    @Suite("Differential: SQLite, PostgreSQL and the evaluator")
    struct ThreeWayDifferentialTests {
        static var seeds: [UInt64] {
            if let text = ProcessInfo.processInfo.environment["DOCSTORE_SEED"], let seed = UInt64(text) { return [seed] }
            return [21, 22, 23]
        }

        /// The documents of one run, on both databases. jsonb can't hold NUL, so
        /// strings holding one are stored cut there (queries still bind needles
        /// with NUL, which every side cuts).
        struct Fixture {
            let sqlite: DocumentCollection<JSONValue>
            let postgres: PostgresCollection<JSONValue>
            let store: PostgresDocumentStore
            let documents: [(key: DocumentKey, document: JSONValue)]
            let other: [(key: DocumentKey, document: JSONValue)]

            init(generator: inout RandomQueries) async throws {
                documents = (1...80).map { (DocumentKey.integer(Int64($0)), generator.document(id: Int64($0)).cutAtNUL) }
                other = (1...12).map { (n: Int) in
                    let id = Int64(n) * 2
                    return (DocumentKey.integer(id), generator.document(id: id).cutAtNUL)
                }
                let sqliteStore = try DocumentStore.inMemory()
                sqlite = sqliteStore.collection(named: "main \"docs\". [$]")
                try await sqlite.insert(contentsOf: documents.map(\.document))
                try await sqliteStore.collection(named: "other").insert(contentsOf: other.map(\.document))
                store = try await PostgresTestServer.freshStore()
                postgres = store.collection(named: "main \"docs\". [$]")
                try await postgres.insert(contentsOf: documents.map(\.document))
                try await store.collection(named: "other").insert(contentsOf: other.map(\.document))
            }

            func subqueryValues(_ subquery: Subquery) -> [JSONValue] {
                guard subquery.collection == "other" else { return [] }
                let selected = DocumentQuery(subquery.condition).run(on: other)
                guard let field = subquery.field else { return selected.map(\.key.jsonValue) }
                return selected.map { $0.document.value(at: field) ?? .null }
            }

            func expected(_ query: DocumentQuery, reading: QueryReading) -> [DocumentKey] {
                JSONOrder.$reading.withValue(reading) {
                    query.run(on: documents, subqueryValues: subqueryValues).map(\.key)
                }
            }
        }

        @Test("at least 2000 random queries per run: the same keys in the same order, and the same counts", arguments: seeds)
        func randomQueriesAgree(seed: UInt64) async throws {
            var generator = RandomQueries(rng: SeededGenerator(seed: seed))
            let fixture = try await Fixture(generator: &generator)
            do {
                try await randomQueriesAgree(seed: seed, generator: &generator, fixture: fixture)
            } catch {
                await fixture.store.close()
                throw error
            }
            await fixture.store.close()
        }

        func randomQueriesAgree(seed: UInt64, generator: inout RandomQueries, fixture: Fixture) async throws {
            var failures = 0
            var readingsDiffer = 0
            for iteration in 0..<700 {
                let query = generator.query()
                let expectedSQLite = fixture.expected(query, reading: .sqlite)
                let expectedPostgres = fixture.expected(query, reading: .postgres)
                if expectedSQLite != expectedPostgres { readingsDiffer += 1 }
                let sqlite = Result { try fixture.sqlite.keys(query) }
                let postgres: Result<[DocumentKey], any Error>
                do { postgres = .success(try await fixture.postgres.keys(query)) } catch { postgres = .failure(error) }
                let postgresCount: Result<Int, any Error>
                do { postgresCount = .success(try await fixture.postgres.count(query)) } catch { postgresCount = .failure(error) }
                let agree = (try? sqlite.get()) == expectedSQLite && (try? postgres.get()) == expectedPostgres
                    && (try? postgresCount.get()) == expectedPostgres.count
                if !agree {
                    let sql = try? PostgresCompiler(collection: fixture.postgres.name, keyKinds: [fixture.postgres.name: .integer, "other": .integer])
                        .keys(query).sql
                    Issue.record("""
                        seed \(seed) iteration \(iteration): disagreement
                        query: \(query)
                        SQLite:     \(sqlite)
                        evaluator:  \(expectedSQLite)
                        PostgreSQL: \(postgres) count \(postgresCount)
                        evaluator:  \(expectedPostgres)
                        sql: \(sql ?? "?")
                        """)
                    failures += 1
                    if failures > 5 { return }
                }
            }
            // The readings differ on some queries (exact numbers, arrays sorted):
            // each side matched its own, and most queries mean the same on both.
            #expect(readingsDiffer < 700 / 4, "seed \(seed): \(readingsDiffer) queries read differently")
        }

        @Test("min and max agree", arguments: seeds)
        func randomExtremesAgree(seed: UInt64) async throws {
            var generator = RandomQueries(rng: SeededGenerator(seed: seed &+ 1000))
            let fixture = try await Fixture(generator: &generator)
            var failures = 0
            for iteration in 0..<150 where failures <= 5 {
                var query = generator.query()
                if generator.chance(50) { query.sort = [] }
                let path = generator.path()
                let aggregate: Aggregate = generator.chance(50) ? .min(path) : .max(path)
                let expected = JSONOrder.$reading.withValue(.postgres) {
                    try? query.aggregate(aggregate, on: fixture.documents, subqueryValues: fixture.subqueryValues)
                }
                let actual: JSONValue?
                do {
                    actual = try await fixture.postgres.aggregate(query, aggregate)
                } catch {
                    await fixture.store.close()
                    throw error
                }
                // Arrays and objects have no order of their own on PostgreSQL:
                // when the extreme is one, any of the extreme rank will do.
                let agree = switch (actual, expected) {
                case (.array?, .array?), (.object?, .object?): true
                default: DifferentialTests.close(actual, expected ?? nil)
                }
                if !agree {
                    Issue.record("seed \(seed) iteration \(iteration): \(aggregate) of \(query)\nPostgreSQL: \(String(describing: actual))\nevaluator:  \(String(describing: expected))")
                    failures += 1
                }
            }
            await fixture.store.close()
        }
    }
}
