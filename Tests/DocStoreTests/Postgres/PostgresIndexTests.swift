import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

extension PostgresTests {
    /// Indexes PostgreSQL uses: a DocStore index is a btree on exactly the terms
    /// the compiler compares and sorts by, so PostgreSQL's plan for equality
    /// and ranges on 100 000 documents reads the index; unique indexes raise
    /// DocStore's errors.
    @Suite("PostgreSQL: indexes")
    struct IndexTests {
        @Test func equalityAndRangesOn100000DocumentsUseTheIndex() async throws {
            guard let server = PostgresTestServer.current else { throw PostgresTestServer.ServerError(message: "no server") }
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let store = try await PostgresDocumentStore(url: url)
            do {
                let racers = store.collection(Racer.self, named: "racers")
                try await racers.insert(Racer(id: 0, name: "zero", number: 0, tags: []))
                // 100 000 documents loaded in one statement behind DocStore's back
                // (DocStore's own inserts are one statement per document), then analyzed.
                try PostgresTestServer.psql("""
                    INSERT INTO racers (key, body) SELECT g, jsonb_build_object('id', g, 'name', 'racer ' || g, 'number', g % 1000,
                        'tags', jsonb_build_array(CASE WHEN g % 100 = 0 THEN 'rare' ELSE 'common' END))
                    FROM generate_series(1, 100000) AS g;
                    ANALYZE racers;
                    """, databaseURL: url)
                let number = try await racers.createIndex(on: \.number)
                let name = try await racers.createIndex(on: \.name)
                try PostgresTestServer.psql("ANALYZE racers", databaseURL: url)

                let equal = racers.filter { $0.number == 417 }
                #expect(try await equal.count() == 100)
                let plan = try await equal.explain()
                #expect(plan.usesIndex && plan.plan.joined().contains(number.name), "\(plan)")
                // On an indexed field, the ranked terms the index serves, not jsonb's `=`.
                #expect(!plan.sql.contains("IS TRUE"), "\(plan.sql)")

                let range = racers.filter { $0.number >= 998 }.sorted { $0.number }
                #expect(try await range.count() == 200)
                #expect(try await range.first()?.number == 998)
                let rangePlan = try await range.explain()
                #expect(rangePlan.usesIndex && rangePlan.plan.joined().contains(number.name), "\(rangePlan)")

                let byName = racers.filter { $0.name == "racer 4242" }
                #expect(try await byName.fetch().map(\.id) == [4242])
                let namePlan = try await byName.explain()
                #expect(namePlan.usesIndex && namePlan.plan.joined().contains(name.name), "\(namePlan)")
                let prefixRange = racers.filter { $0.name >= "racer 99998"; $0.name < "racer 99999" }
                #expect(try await prefixRange.count() == 1)
                #expect(try await prefixRange.explain().usesIndex)

                // Without the index, the same query scans the table.
                #expect(try await racers.dropIndex(on: [FieldPath("number")]))
                let scanned = try await equal.explain()
                #expect(!scanned.plan.joined().contains(number.name))
                // The field's last index went: the equality is jsonb's own `=` again.
                #expect(scanned.sql.contains("IS TRUE"), "\(scanned.sql)")
                #expect(try await equal.count() == 100)
                #expect(try await racers.indexes().map(\.fields) == [[FieldPath("name")]])

                // Containment: a GIN index on the documents serves `contains` and
                // equalities on several fields (the condition still decides).
                let rare = racers.filter { $0.tags.contains("rare") }
                #expect(try await !rare.explain().plan.joined().contains("Bitmap Index Scan"))
                let documents = try await racers.createIndex(on: .root)
                try PostgresTestServer.psql("ANALYZE racers", databaseURL: url)
                #expect(try await rare.count() == 1000)
                let rarePlan = try await rare.explain()
                #expect(rarePlan.plan.joined().contains("Bitmap Index Scan on \(documents.name)"), "\(rarePlan)")
                let both = racers.filter { $0.number == 400; $0.tags.contains("rare") }
                #expect(try await both.count() == 100)
                #expect(try await both.explain().plan.joined().contains(documents.name))
                #expect(try await racers.filter { $0.number == 401; $0.tags.contains("rare") }.count() == 0)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }

        /// A btree row holds at most about 2.7 kB: a longer string key, or a
        /// longer value of an indexed field, is refused saying which and what to
        /// do (it was the server's "index row size 3016 exceeds btree version 4
        /// maximum 2704" alone). A file store takes both.
        @Test func aKeyOrIndexedValueTooLongForABtreeSaysWhichAndWhatToDo() async throws {
            try await PostgresTests.withStore { store in
                // Hex of random bytes: pglz can't squeeze it under the limit.
                let long = (0..<120).map { _ in UUID().uuidString }.joined()
                let keyed = store.collection(named: "keyed")
                let keyError = try await #require(throws: (any Error).self) { try await keyed.insert(["id": .string(long)]) }
                #expect(keyError.localizedDescription.contains("can't index a key this long") && keyError.localizedDescription.contains("use shorter keys"),
                        "\(keyError.localizedDescription)")
                let notes = store.collection(named: "notes")
                try await notes.insert(["id": 1, "text": "short"])
                _ = try await notes.createIndex(on: FieldPath("text"))
                let valueError = try await #require(throws: (any Error).self) { try await notes.insert(["id": 2, "text": .string(long)]) }
                #expect(valueError.localizedDescription.contains("a value this long in an indexed field (index docstore_ix_"), "\(valueError.localizedDescription)")
                #expect(valueError.localizedDescription.contains("drop the index on that field"), "\(valueError.localizedDescription)")
                #expect(try await notes.count() == 1)
            }
        }

        @Test func uniqueIndexesAreEnforcedWithDocStoresErrors() async throws {
            try await PostgresTests.withStore { store in
                let racers = store.collection(Racer.self, named: "racers")
                // An index made before the table exists is built with it.
                let index = try await racers.createIndex(on: \.name, unique: true)
                #expect(try await racers.createIndex(on: \.name, unique: true) == index)
                try await racers.insert(contentsOf: StoreTests.racers)
                let taken = Racer(id: 9, name: "Ana", number: 1, tags: [])
                let error = try await #require(throws: DocStoreError.self) { try await racers.insert(taken) }
                #expect(error.description == DocStoreError.uniqueConstraint(collection: "racers", fields: ["name"], key: .integer(9)).description)
                #expect(try await racers.count() == 4)
                // Equal numbers are one value (2 and 2.0); missing never conflicts.
                let untyped = store.collection(named: "loose")
                try await untyped.createIndex(on: FieldPath("n"), unique: true)
                try await untyped.insert(["id": 1, "n": 2])
                await #expect(throws: DocStoreError.self) { try await untyped.insert(["id": 2, "n": 2.0]) }
                try await untyped.insert(["id": 3])
                try await untyped.insert(["id": 4, "n": .null])
                try await untyped.insert(["id": 5, "n": .null])
                // An update-by-query that would break it changes nothing.
                await #expect(throws: DocStoreError.self) {
                    try await racers.query.update { $0.name.set(to: "Same") }
                }
                #expect(try await racers.get(1)?.name == "Ana")
                // A unique index over documents that already break it is refused, naming them.
                let duplicate = try await #require(throws: DocStoreError.self) { try await racers.createIndex(on: \.number, unique: true) }
                #expect(duplicate.description == DocStoreError.duplicateIndexValues(collection: "racers", fields: ["number"],
                                                                                     keys: [.integer(2), .integer(4)]).description)
                #expect(try await racers.indexes() == [index])
            }
        }
    
        /// An index created by a connection that hasn't seen the collection's
        /// table yet (another process's first insert made it) is built: it was
        /// only recorded, so a unique index refused nothing (one collection in
        /// five when six shells inserted while a seventh created the index).
        @Test func anIndexCreatedAfterAnotherConnectionMadeTheTableIsBuilt() async throws {
            guard let server = PostgresTestServer.current else { throw PostgresTestServer.ServerError(message: "no server") }
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let (writer, indexer) = (try await PostgresDocumentStore(url: url), try await PostgresDocumentStore(url: url))
            do {
                _ = try await indexer.collections()                         // its catalog: no collection "m"
                try await writer.collection(named: "m").insert(contentsOf: [["id": 1, "a": 1], ["id": 2, "a": 2]])
                _ = try await indexer.collection(named: "m").createIndex(on: FieldPath("a"), unique: true)
                _ = try await indexer.collection(named: "m").createSearchIndex(on: FieldPath("t"))
                let refused = await #expect(throws: DocStoreError.self) { try await writer.collection(named: "m").insert(["id": 3, "a": 1]) }
                if case .uniqueConstraint(_, let fields, _)? = refused { #expect(fields == ["a"]) } else { Issue.record("\(String(describing: refused))") }
                #expect(try await writer.check(collection: "m").isHealthy, "every recorded index is built")
            } catch {
                await writer.close()
                await indexer.close()
                throw error
            }
            await writer.close()
            await indexer.close()
        }

        /// A collection another session dropped is gone for this one too, as
        /// on a file: reads find none and a write makes it anew (the cached
        /// catalog still recorded it, so every command failed saying its table
        /// was lost and to restore it from a backup).
        @Test func aCollectionAnotherSessionDroppedIsGoneAndMadeAnewByAWrite() async throws {
            guard let server = PostgresTestServer.current else { throw PostgresTestServer.ServerError(message: "no server") }
            let url = try await PostgresTestServer.freshDatabaseURL(server)
            let (dropper, other) = (try await PostgresDocumentStore(url: url), try await PostgresDocumentStore(url: url))
            do {
                try await dropper.collection(named: "p").insert(contentsOf: [["id": 1], ["id": 2]])
                let p = other.collection(named: "p")
                #expect(try await p.count() == 2)
                #expect(try await dropper.dropCollection(named: "p"))
                #expect(try await p.count() == 0)
                #expect(try await p.get(1) == nil)
                #expect(try await p.fetch(DocumentQuery()).isEmpty)
                try await p.insert(["id": 5])
                #expect(try await dropper.collection(named: "p").all() == [["id": 5]])
                #expect(try await dropper.dropCollection(named: "p"))
                try await p.save(["id": 6])
                try await p.insert(contentsOf: [["id": 7]])
                #expect(try await dropper.collection(named: "p").keys(DocumentQuery()) == [.integer(6), .integer(7)])
            } catch {
                await dropper.close()
                await other.close()
                throw error
            }
            await dropper.close()
            await other.close()
        }
}
}
