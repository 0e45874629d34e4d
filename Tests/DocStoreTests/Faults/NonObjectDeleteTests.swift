import DocStorePostgres
import Foundation
import GRDB
import Testing
@testable import DocStore

/// A body that is not an object (another tool wrote `[1, 2]`) has every field
/// missing, so a delete by `$0.y == nil` selected it and it was gone for good,
/// where `repair` would have kept it aside (helper-60). A delete by query now
/// refuses, naming it, and deletes nothing; `repair` deals with it.
@Suite("Fault: a delete by query meets a body that is not an object")
struct NonObjectDeleteTests {
    static let missingY = DocumentQuery(.compare(FieldPath("y"), .equal, .null))

    static func namesDocument2(_ error: any Error) -> Bool {
        guard case DocStoreError.damagedDocuments(let collection, let keys)? = error as? DocStoreError else { return false }
        return collection == "docs" && keys == [.integer(2)]
    }

    @Test func onAFileStoreNothingIsDeletedAndTheDocumentIsNamed() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(contentsOf: [["id": 1], ["id": 2], ["id": 3, "y": 1]])
        try store.databaseWriter.write { db in try db.execute(sql: "UPDATE docs SET body = '[1,2]' WHERE key = 2") }

        #expect { try docs.delete(Self.missingY) } throws: { Self.namesDocument2($0) }
        #expect(try docs.keys() == [.integer(1), .integer(2), .integer(3)], "nothing was deleted")
        // `get` refuses it too, as `check` calls it damaged (it showed `[1,2]`).
        #expect { try docs.get(2) } throws: { "\($0)".contains("document 2 in collection \"docs\" is damaged (its body is an array, not a JSON object") }
        // Once repair has moved it aside, the delete goes ahead.
        _ = try store.repair(collection: "docs")
        #expect(try docs.delete(Self.missingY) == 1)
        #expect(try store.collection(named: "docs_damaged").count() == 1)
    }
}

extension PostgresTests {
    @Suite("PostgreSQL: a delete by query meets a body that is not an object")
    struct NonObjectDeleteOnPostgresTests {
        @Test func nothingIsDeletedAndTheDocumentIsNamed() async throws {
            try await PostgresTests.withStoreAndURL { store, url in
                let docs = store.collection(named: "docs")
                try await docs.insert(contentsOf: [["id": 1], ["id": 2], ["id": 3, "y": 1]])
                try PostgresTestServer.psql("UPDATE docs SET body = '[1,2]' WHERE key = 2", databaseURL: url)
                await #expect { try await docs.delete(NonObjectDeleteTests.missingY) } throws: { NonObjectDeleteTests.namesDocument2($0) }
                #expect(try await docs.count(DocumentQuery(.always)) == 3, "nothing was deleted")
                #expect(try await docs.delete(DocumentQuery(.compare(FieldPath("y"), .equal, 1))) == 1, "a delete that doesn't meet it goes ahead")
                // `get` refuses it, and a document whose "id" is not its key
                // (a save of it would write over document 2), as on SQLite.
                await #expect { try await docs.get(2) } throws: { "\($0)".contains("its body is an array, not a JSON object") }
                try PostgresTestServer.psql(#"UPDATE docs SET body = '{"id": 2}' WHERE key = 1"#, databaseURL: url)
                await #expect { try await docs.get(1) } throws: {
                    "\($0)".contains(#"its "id" is 2, but it is stored under the key 1"#) && "\($0)".contains("would write over document 2")
                }
            }
        }
    }
}
