import Foundation
import Testing
@testable import DocStore

/// `save(contentsOf:)`, the same on both databases: every document saved
/// (inserted or replacing), in one transaction, or none when one is refused.
@Suite("Batch saves", .postgresServer)
struct BatchSaveTests {
    @Test(arguments: Backend.allCases)
    func aBatchSavesAllOrNothingAndTheLastOfAKeyWins(backend: Backend) async throws {
        try await BackendStore.with(backend) { store async throws in
            let teams = store.collection(named: "teams")
            try await teams.insert(contentsOf: [["id": 1, "name": "Red"], ["id": 2, "name": "Blue"]])
            try await teams.save(contentsOf: [["id": 2, "name": "Navy"], ["id": 3, "name": "Green"], ["id": 3, "name": "Lime"]])
            #expect(try await teams.all() == [["id": 1, "name": "Red"], ["id": 2, "name": "Navy"], ["id": 3, "name": "Lime"]])

            _ = try await teams.createIndex(on: FieldPath("name"), unique: true)
            await #expect(throws: DocStoreError.self) {
                try await teams.save(contentsOf: [["id": 4, "name": "Gold"], ["id": 5, "name": "Red"]])   // Red is taken
            }
            #expect(try await teams.get(4) == nil, "nothing of the refused batch was kept")
            #expect(try await teams.count(DocumentQuery()) == 3)
        }
    }

    /// The async form on a file, off the caller's thread, as the other async writes.
    @Test func theAsyncFormOnAFileSavesTheBatch() async throws {
        let teams = try DocumentStore.inMemory().collection(named: "teams")
        try await teams.save(contentsOf: [["id": 1, "name": "Red"], ["id": 1, "name": "Navy"]])
        #expect(try await teams.all() == [["id": 1, "name": "Navy"]])
    }
}
