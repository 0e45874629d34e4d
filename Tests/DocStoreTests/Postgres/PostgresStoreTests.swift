import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

@Document
struct Racer: Codable, Identifiable, Equatable, Sendable {
    var id: Int
    var name: String
    var number: Int
    var nickname: String?
    var tags: [String]
}

extension PostgresTests {
    /// Runs `body` on a new, empty database and closes the store, also when it throws.
    static func withStore(_ body: (PostgresDocumentStore) async throws -> Void) async throws {
        try await withStoreAndURL { store, _ in try await body(store) }
    }

    /// The same, with the database's URL (for psql, behind DocStore's back).
    static func withStoreAndURL(_ body: (PostgresDocumentStore, _ url: String) async throws -> Void) async throws {
        guard let server = PostgresTestServer.current else {
            throw PostgresTestServer.ServerError(message: "no PostgreSQL test server: PostgreSQL tests run inside the PostgresTests suite, whose trait starts one")
        }
        let url = try await PostgresTestServer.freshDatabaseURL(server)
        let store = try await PostgresDocumentStore(url: url)
        do {
            try await body(store, url)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Suite("PostgreSQL: documents, queries and transactions")
    struct StoreTests {
        static let racers = [
            Racer(id: 1, name: "Ana", number: 7, nickname: "Flash", tags: ["fast", "rookie"]),
            Racer(id: 2, name: "bea", number: 12, nickname: nil, tags: []),
            Racer(id: 3, name: "Émile", number: 3, nickname: "Slow", tags: ["veteran"]),
            Racer(id: 4, name: "Zoé", number: 12, nickname: "flash", tags: ["fast"]),
        ]

        @Test func insertGetSaveUpdateDelete() async throws {
            try await PostgresTests.withStore { store in
                let racers = store.collection(Racer.self, named: "racers")
                #expect(try await racers.get(1) == nil)  // no table yet: nothing, not an error
                try await racers.insert(contentsOf: Self.racers)
                #expect(try await racers.get(3) == Self.racers[2])
                #expect(try await racers.count() == 4)
                let duplicate = try await #require(throws: DocStoreError.self) { try await racers.insert(Self.racers[0]) }
                #expect(duplicate.description == DocStoreError.duplicateKey(collection: "racers", key: .integer(1)).description)
                var changed = Self.racers[1]
                changed.nickname = "B"
                try await racers.update(changed)
                #expect(try await racers.get(2)?.nickname == "B")
                let missing = try await #require(throws: DocStoreError.self) {
                    try await racers.update(Racer(id: 9, name: "", number: 0, tags: []))
                }
                #expect(missing.description == DocStoreError.documentNotFound(collection: "racers", key: .integer(9)).description)
                try await racers.save(Racer(id: 9, name: "Nine", number: 9, tags: []))
                try await racers.save(Racer(id: 9, name: "Nine again", number: 9, tags: []))
                #expect(try await racers.get(9)?.name == "Nine again")
                #expect(try await racers.delete(9))
                #expect(try await !racers.delete(9))
                #expect(try await racers.all().map(\.id) == [1, 2, 3, 4])
                #expect(try await store.collectionNames() == ["racers"])
            }
        }

        @Test func typedQueriesReadAsOnSQLite() async throws {
            try await PostgresTests.withStore { store in
                let racers = store.collection(Racer.self, named: "racers")
                try await racers.insert(contentsOf: Self.racers)
                let sqlite = try DocumentStore.inMemory().collection(Racer.self, named: "racers")
                try await sqlite.insert(contentsOf: Self.racers)
                // The same closures on both backends.
                let onPostgres = try await racers.filter { $0.number >= 5; $0.nickname != "Flash" }.sorted { $0.number.descending; $0.name }.fetch()
                let onSQLite = try await sqlite.filter { $0.number >= 5; $0.nickname != "Flash" }.sorted { $0.number.descending; $0.name }.fetch()
                #expect(onPostgres.map(\.id) == [4, 2])  // != is true on a missing nickname; "Z" < "b"
                #expect(onPostgres == onSQLite)
                #expect(try await racers.filter { $0.tags.contains("fast") }.count() == 2)
                #expect(try await racers.filter { $0.nickname.hasPrefix("fl") }.keys() == [.integer(4)])  // case-sensitive
                // Unicode scalar order, not the database's en-US collation (Ana, bea, Émile, Zoé).
                #expect(try await racers.sorted { $0.name }.fetch().map(\.name) == ["Ana", "Zoé", "bea", "Émile"])
                #expect(try await racers.sorted { $0.name }.limit(2, offset: 1).fetch().map(\.name) == ["Zoé", "bea"])
                #expect(try await racers.sorted { $0.number }.first()?.name == "Émile")
                #expect(try await racers.query.min(\.number) == 3)
                #expect(try await racers.query.max(\.name) == "Émile")  // "É" sorts after "Z" by Unicode scalars
                #expect(try await racers.filter { $0.number == 12 }.delete() == 2)
                #expect(try await racers.count() == 2)
            }
        }

        @Test func aTransactionCommitsEverythingOrNothing() async throws {
            try await PostgresTests.withStore { store in
                let duplicate = try await #require(throws: DocStoreError.self) {
                    try await store.transaction { transaction in
                        let racers = transaction.collection(Racer.self, named: "racers")
                        try await racers.insert(Self.racers[0])
                        try await racers.insert(Self.racers[0])
                    }
                }
                #expect(duplicate.description == DocStoreError.duplicateKey(collection: "racers", key: .integer(1)).description)
                // The collection created inside the failed transaction is gone too.
                #expect(try await store.collectionNames() == [])
                let racers = store.collection(Racer.self, named: "racers")
                #expect(try await racers.count() == 0)
                try await store.transaction { transaction in
                    try await transaction.collection(Racer.self, named: "racers").insert(contentsOf: Self.racers)
                }
                #expect(try await racers.count() == 4)
                // A batch insert is one transaction: a duplicate undoes the rest.
                await #expect(throws: DocStoreError.self) {
                    try await racers.insert(contentsOf: [Racer(id: 5, name: "Five", number: 5, tags: []), Self.racers[0]])
                }
                #expect(try await racers.get(5) == nil)
            }
        }

        /// Many documents go in batches (one statement per batch); a taken key in
        /// a later batch is named, and undoes every batch.
        @Test func aLargeInsertGoesInBatchesAndADuplicateIsNamed() async throws {
            try await PostgresTests.withStore { store in
                let count = PostgresCollection<Racer>.insertBatchSize * 2 + 7
                let many = (1...count).map { Racer(id: $0, name: "R\($0)", number: $0 % 50, tags: []) }
                let racers = store.collection(Racer.self, named: "racers")
                #expect(try await racers.insert(contentsOf: many).count == count)
                #expect(try await racers.count() == count)
                #expect(try await racers.get(count) == many.last)
                #expect(try await racers.filter { $0.number == 7 }.count() == many.filter { $0.number == 7 }.count)

                let more = (count + 1...count + PostgresCollection<Racer>.insertBatchSize + 10).map {
                    Racer(id: $0, name: "M\($0)", number: 1, tags: [])
                } + [Racer(id: 3, name: "again", number: 1, tags: [])]
                let duplicate = try await #require(throws: DocStoreError.self) { try await racers.insert(contentsOf: more) }
                #expect(duplicate.description == DocStoreError.duplicateKey(collection: "racers", key: .integer(3)).description)
                #expect(try await racers.count() == count, "nothing of the failed insert is kept")

                // A document jsonb can't hold in a later batch (encoded while the
                // one before it is sent) is refused, naming it; nothing is kept.
                var withNUL = (count + 1...count + 1_500).map { Racer(id: $0, name: "N\($0)", number: 1, tags: []) }
                withNUL[1_200].name = "bad\u{0}name"
                let refused = try await #require(throws: DocStoreError.self) { try await racers.insert(contentsOf: withNUL) }
                guard case .encodingFailed(_, let key, _, _) = refused else { Issue.record("\(refused)"); return }
                #expect(key == .integer(Int64(count + 1_201)))
                #expect(try await racers.count() == count)

                // Inside a transaction the refused insert is named too, and the
                // transaction rolls back whole (as PostgreSQL ends a transaction
                // whose statement failed).
                let inside = try await #require(throws: DocStoreError.self) {
                    try await store.transaction { transaction in
                        let racers = transaction.collection(Racer.self, named: "racers")
                        try await racers.insert(Racer(id: -1, name: "before", number: 0, tags: []))
                        try await racers.insert(contentsOf: more)
                    }
                }
                #expect(inside.description == duplicate.description)
                #expect(try await racers.count() == count)

                // String keys go in batches too.
                let names = store.collection(named: "names")
                let documents: [JSONValue] = (0..<1_500).map { ["id": .string("k\($0)"), "n": .integer(Int64($0))] }
                try await names.insert(contentsOf: documents)
                #expect(try await names.count() == 1_500)
                #expect(try await names.get("k1499")?["n"] == 1_499)
            }
        }

        @Test func aStringHoldingNULIsRefusedNamingCollectionKeyAndPath() async throws {
            try await PostgresTests.withStore { store in
                let notes = store.collection(named: "notes")
                let document: JSONValue = ["id": 7, "body": ["lines": ["fine", "bad\u{0}line"]]]
                do {
                    try await notes.insert(document)
                    Issue.record("a NUL was accepted")
                } catch let error as DocStoreError {
                    guard case let .encodingFailed(collection, key, codingPath, reason) = error else {
                        Issue.record("unexpected error \(error)")
                        return
                    }
                    #expect(collection == "notes" && key == .integer(7))
                    #expect(codingPath == FieldPath([.key("body"), .key("lines"), .index(1)]).description)
                    #expect(reason.contains("NUL"))
                }
                #expect(try await notes.count() == 0)
            }
        }

        @Test func invalidURLsAndNamesSayWhatIsWrong() async throws {
            await #expect(throws: PostgresStoreError.self) { try await PostgresDocumentStore(url: "mysql://x@y/z") }
            do {
                _ = try await PostgresDocumentStore(url: "postgres://docstore@/db?host=/tmp&sslmode=require")
                Issue.record("an unknown parameter was ignored")
            } catch {
                #expect(error.localizedDescription.contains("reads only the query parameter host (a socket directory), not sslmode"), "\(error)")
            }
            do {
                _ = try await PostgresDocumentStore(url: "postgres://@localhost/db")
            } catch {
                #expect(error.localizedDescription.contains("names no user"))
            }
            try await PostgresTests.withStore { store in
                let long = store.collection(named: String(repeating: "x", count: 64))
                await #expect(throws: DocStoreError.self) { try await long.insert(["id": 1]) }
            }
        }

        /// The pool retried such connections for about a minute, then failed
        /// with `connectionCreationCircuitBreakerTripped`, never the reason.
        @Test func aStoreThatCantConnectSaysWhyAtOnce() async throws {
            let server = try #require(PostgresTestServer.current)
            let cases = [
                ("postgres://docstore@/no_such_db?host=\(server.directory)", #"database "no_such_db" does not exist [SQLSTATE 3D000]"#),
                ("postgres://no_such_role@/postgres?host=\(server.directory)", #"role "no_such_role" does not exist"#),
                // In the system's words, not NIO's (helper-56).
                ("postgres://docstore@/postgres?host=\(server.directory)/missing", "Can't connect to PostgreSQL at the socket \(server.directory)/missing/.s.PGSQL.5432: No such file or directory."),
                ("postgres://docstore@127.0.0.1:1/postgres", "Can't connect to PostgreSQL at 127.0.0.1:1: Connection refused."),
            ]
            for (url, expected) in cases {
                do {
                    let store = try await PostgresDocumentStore(url: url)
                    await store.close()
                    Issue.record("\(url) opened")
                } catch {
                    #expect(error.localizedDescription.contains(expected), "\(url): \(error.localizedDescription)")
                }
            }
        }
    }
}
