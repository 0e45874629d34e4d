import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

extension PostgresTests {
    /// `repair` while other connections write the same collection: it moves
    /// what is damaged when it runs, never a document another connection has
    /// just mended, and never deadlocks with an update by query.
    @Suite("PostgreSQL: repair beside other writers")
    struct RepairRaceTests {
        /// A fresh database whose collection "c" holds documents 1…`count`,
        /// every tenth one damaged behind DocStore's back (its `id` says another
        /// key). Written in descending key order: a whole-table update meets
        /// the rows in the order opposite to the repair's deletes.
        static func damagedCollection(count: Int) async throws -> String {
            try await PostgresConnections.freshDatabase(collection: "c", rows: """
                DELETE FROM c;
                INSERT INTO c SELECT g, jsonb_build_object('id', CASE WHEN g % 10 = 0 THEN g + 100000 ELSE g END, 'a', 0)
                FROM generate_series(\(count), 1, -1) AS g;
                """)
        }

        @Test(.timeLimit(.minutes(5))) func aDocumentMendedWhileRepairWaitsIsKept() async throws {
            let url = try await Self.damagedCollection(count: 20)
            let (saved, signal) = AsyncStream.makeStream(of: Void.self)
            try await PostgresConnections.run(url, count: 2) { store, number in
                if number == 0 {
                    // Mends document 10 and holds its transaction open a while.
                    try await store.transaction { transaction in
                        try await transaction.collection(named: "c").save(["id": 10, "a": 1, "mended": true])
                        signal.yield()
                        try await Task.sleep(for: .milliseconds(800))
                    }
                } else {
                    for await _ in saved { break }
                    let repaired = try await store.repair(collection: "c")
                    #expect(repaired.movedKeys == [.integer(20)], "document 10 was mended before the repair read it")
                }
            }
            let store = try await PostgresDocumentStore(url: url)
            let mended = try await store.collection(named: "c").get(10)
            let keys = try await store.collection(named: "c").keys(DocumentQuery())
            await store.close()
            #expect(mended?["mended"] == true, "the mended document was deleted: \(String(describing: mended))")
            #expect(keys.count == 19)
        }

        @Test(.timeLimit(.minutes(10))) func repairBesideUpdatesByQueryNeitherDeadlocksNorLosesAnUpdate() async throws {
            let url = try await Self.damagedCollection(count: 3000)
            let rounds = 6
            try await PostgresConnections.run(url, count: 2) { store, number in
                if number == 0 {
                    for _ in 0..<rounds {
                        try await store.collection(named: "c").update(DocumentQuery(), [.increment(FieldPath("a"), 1)])
                    }
                } else {
                    try await Task.sleep(for: .milliseconds(20))
                    let repaired = try await store.repair(collection: "c")
                    #expect(repaired.movedKeys.count == 300)
                }
            }
            let store = try await PostgresDocumentStore(url: url)
            let documents = try await store.collection(named: "c").all()
            let moved = try await store.collection(named: "c_damaged").count()
            await store.close()
            #expect(documents.count == 2700 && moved == 300)
            #expect(documents.allSatisfy { $0["a"] == .integer(Int64(rounds)) }, "\(Set(documents.map { "\($0["a"] ?? .null)" }))")
            #expect(try await PostgresConnections.deadlocks(url) == 0)
        }
    }
}
