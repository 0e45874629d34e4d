import Foundation
import GRDB
import Testing
@testable import DocStore

@Suite("Damaged and outdated documents")
struct DamagedDocumentTests {
    /// A store whose team 2 was overwritten with invalid JSON behind DocStore's back.
    func storeWithCorruptedTeam() throws -> DocumentStore {
        let store = try DocumentStore.inMemory()
        try store.collection(Team.self).insert(contentsOf: sampleTeams)
        try store.databaseWriter.write { db in
            try db.execute(sql: #"UPDATE teams SET body = '{"id": 2, "city": "Balti' WHERE key = 2"#)
        }
        return store
    }

    @Test func readingTheDamagedDocumentNamesCollectionAndKey() throws {
        let teams = try storeWithCorruptedTeam().collection(Team.self)
        let error = try #require(throws: DocStoreError.self) { try teams.get(2) }
        guard case .corruptDocument(let collection, let key, _) = error else {
            Issue.record("expected corruptDocument, got \(error)"); return
        }
        #expect(collection == "teams")
        #expect(key == .integer(2))
        #expect("\(error)".contains("document 2 in collection \"teams\" is damaged"))
    }

    @Test func everyOtherDocumentStaysReadable() throws {
        let teams = try storeWithCorruptedTeam().collection(Team.self)
        for id in [1, 3, 4] {
            #expect(try teams.get(id) == sampleTeams[id - 1])
        }
        #expect(try teams.get([1, 4]).count == 2)
        #expect(try teams.count() == 4, "count reports stored documents, damaged ones too")
    }

    @Test func iterationStopsWithTheDamagedKeyAndTheDamageCanBeListed() throws {
        let store = try storeWithCorruptedTeam()
        let teams = store.collection(Team.self)
        var seen: [Int] = []
        let error = try #require(throws: DocStoreError.self) { try teams.forEach { seen.append($0.id) } }
        #expect(seen == [1])
        #expect("\(error)".contains("document 2"))
        let damaged = try teams.damagedDocuments()
        #expect(damaged.count == 1)
        guard case .corruptDocument(_, .integer(2), _)? = damaged.first else {
            Issue.record("expected team 2 listed, got \(damaged)"); return
        }
        #expect(try store.collection(named: "teams").damagedDocuments().count == 1, "untyped reads see it too")
    }

    @Test func aDocumentThatNoLongerDecodesNamesTheCodingPath() throws {
        struct RenamedTeam: Codable, Identifiable {
            var id: Int
            var city: String
            var nickname: String  // was nickName
            var abbreviation: String
        }
        let store = try DocumentStore.inMemory()
        try store.collection(Team.self).insert(sampleTeams[0])
        let renamed = store.collection(RenamedTeam.self, named: "teams")
        let error = try #require(throws: DocStoreError.self) { try renamed.get(1) }
        guard case .decodingFailed(let collection, let key, let path, _) = error else {
            Issue.record("expected decodingFailed, got \(error)"); return
        }
        #expect(collection == "teams")
        #expect(key == .integer(1))
        #expect(path == "nickname")
    }

    @Test func aNestedTypeChangeNamesTheFullPath() throws {
        struct Stats: Codable { var games: Int; var average: Double }
        struct Player: Codable, Identifiable { var id: Int; var stats: Stats; var tags: [String] }
        let store = try DocumentStore.inMemory()
        let raw = store.collection(named: "players")
        try raw.insert(["id": 1, "stats": ["games": 10, "average": "high"], "tags": ["a"]])
        try raw.insert(["id": 2, "stats": ["games": 10, "average": 0.3], "tags": ["a", 7]])
        let players = store.collection(Player.self)
        let first = try #require(throws: DocStoreError.self) { try players.get(1) }
        guard case .decodingFailed(_, _, let firstPath, _) = first else { Issue.record("\(first)"); return }
        #expect(firstPath == "stats.average")
        let second = try #require(throws: DocStoreError.self) { try players.get(2) }
        guard case .decodingFailed(_, _, let secondPath, _) = second else { Issue.record("\(second)"); return }
        #expect(secondPath == "tags[1]")
    }

    @Test func encodingFailuresNameThePathAndStoreNothing() throws {
        struct Measurement: Codable, Identifiable { var id: Int; var value: Double }
        let store = try DocumentStore.inMemory()
        let measurements = store.collection(Measurement.self)
        let error = try #require(throws: DocStoreError.self) { try measurements.insert(Measurement(id: 1, value: .nan)) }
        guard case .encodingFailed("measurements", .integer(1), let path, _) = error else {
            Issue.record("expected encodingFailed, got \(error)"); return
        }
        #expect(path == "value")
        #expect(try measurements.count() == 0)
    }
}
