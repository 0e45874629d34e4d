import Foundation
import Testing
@testable import DocStore

@Suite("Untyped JSON collections")
struct UntypedCollectionTests {
    @Test func typedAndUntypedShareTheSameDocuments() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(Team.self).insert(contentsOf: sampleTeams)
        let raw = store.collection(named: "teams")
        let bos = try #require(try raw.get(1))
        #expect(bos["city"] == "Boston")
        #expect(bos["id"] == 1)
        try raw.insert(["id": 5, "city": "New York", "nickName": "Yankees", "abbreviation": "NYY"])
        #expect(try store.collection(Team.self).get(5)?.nickName == "Yankees")
    }

    @Test func documentsWithoutAnIDGetAGeneratedOneWrittenIn() throws {
        let store = try DocumentStore.inMemory()
        let events = store.collection(named: "events")
        let first = try events.insert(["kind": "start"])
        let second = try events.insert(["kind": "stop"])
        #expect(first == .integer(1))
        #expect(second == .integer(2))
        let stored = try #require(try events.get(2))
        #expect(stored == ["id": 2, "kind": "stop"])
        guard case .object(let members) = stored else { Issue.record("not an object"); return }
        #expect(members.keys.first == "id", "the generated id comes first")
    }

    @Test func unusableIDsAreRejectedClearly() throws {
        let store = try DocumentStore.inMemory()
        let events = store.collection(named: "events")
        let error = try #require(throws: DocStoreError.self) { try events.insert(["id": true]) }
        #expect("\(error)".contains("its \"id\" is true, not an integer or a string"))
        #expect(throws: DocStoreError.self) { try events.insert([1, 2]) }
        #expect(try events.count() == 0)
    }

    @Test func stringIDsInAUUIDCollectionAreUUIDs() throws {
        let store = try DocumentStore.inMemory()
        let id = UUID()
        try store.collection(Account.self).insert(Account(id: id, owner: "me"))
        let raw = store.collection(named: "accounts")
        let other = UUID()
        try raw.insert(["id": .string(other.uuidString.lowercased()), "owner": "you"])
        #expect(try store.collection(Account.self).get(other)?.owner == "you")
    }
}

@Suite("JSONValue inside typed models")
struct NestedJSONValueTests {
    struct Event: Codable, Identifiable, Equatable {
        var id: Int
        var payload: JSONValue
    }

    @Test func realsStayRealsAndMembersKeepTheirOrder() throws {
        let store = try DocumentStore.inMemory()
        let events = store.collection(Event.self)
        let payload: JSONValue = ["z": 3.0, "a": 1, "m": [2.5, "x", nil, true]]
        try events.insert(Event(id: 1, payload: payload))
        let loaded = try #require(try events.get(1))
        guard case .object(let members) = loaded.payload, case .double(3.0)? = members["z"] else {
            Issue.record("3.0 came back as \(String(describing: loaded.payload["z"]))"); return
        }
        #expect(Array(members.keys) == ["z", "a", "m"])
        #expect(loaded == Event(id: 1, payload: payload))
    }
}
