import Foundation
import Testing
@testable import DocStore

// Two versions of one model, as an app migrating its types has.
enum NameV1 {
    struct Person: Codable, Identifiable, Equatable {
        var id: Int
        var name: String
    }
}

enum NameV2 {
    struct Person: Codable, Identifiable, Equatable {
        var id: Int
        var fullName: String
    }
}

enum NameV3 {
    /// No id: another `collection(_:)` overload, the same default name.
    struct Person: Codable, Equatable {
        var fullName: String
    }
}

struct Crate<Content: Codable>: Codable {
    var content: Content
}

@Suite("Default collection names that collide")
struct DefaultNameCollisionTests {
    @Test func twoTypesWithOneDefaultNameFailNamingBoth() throws {
        let store = try DocumentStore.inMemory()
        let v1 = store.collection(NameV1.Person.self)
        try v1.insert(NameV1.Person(id: 1, name: "Ann"))
        let v2 = store.collection(NameV2.Person.self)       // doesn't throw: its operations do
        #expect(v2.name == "persons")
        let error = try #require(throws: DocStoreError.self) { try v2.insert(NameV2.Person(id: 2, fullName: "Bob")) }
        guard case .collectionNameCollision(let name, let type, let otherType) = error else {
            Issue.record("expected collectionNameCollision, got \(error)"); return
        }
        #expect(name == "persons")
        #expect(type == String(reflecting: NameV2.Person.self))
        #expect(otherType == String(reflecting: NameV1.Person.self))
        #expect(type.hasSuffix("NameV2.Person") && otherType.hasSuffix("NameV1.Person"))
        let message = error.localizedDescription
        #expect(message.contains(type) && message.contains(otherType))
        #expect(message.contains("named:"))
        #expect(message.contains("\"persons\""))

        // Every operation fails, reads and queries too; nothing was written.
        #expect(throws: DocStoreError.self) { try v2.get(1) }
        #expect(throws: DocStoreError.self) { try v2.count() }
        #expect(throws: DocStoreError.self) { try v2.all() }
        #expect(throws: DocStoreError.self) { try v2.save(NameV2.Person(id: 1, fullName: "Bob")) }
        #expect(throws: DocStoreError.self) { try v2.deleteAll() }
        #expect(try v1.all() == [NameV1.Person(id: 1, name: "Ann")], "the first type keeps its collection")
    }

    @Test func theSameTypeAskingAgainIsNoCollision() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(NameV1.Person.self).insert(NameV1.Person(id: 1, name: "Ann"))
        #expect(try store.collection(NameV1.Person.self).count() == 1)
        #expect(try store.write { tx in try tx.collection(NameV1.Person.self).count() } == 1)
    }

    @Test func collisionsSpanOverloadsAndTransactions() throws {
        let store = try DocumentStore.inMemory()
        _ = store.collection(NameV1.Person.self)
        let withoutId = try #require(throws: DocStoreError.self) { try store.collection(NameV3.Person.self).insert(NameV3.Person(fullName: "Cy")) }
        #expect("\(withoutId)".contains(String(reflecting: NameV3.Person.self)))
        let error = try #require(throws: DocStoreError.self) {
            try store.write { tx in try tx.collection(NameV2.Person.self).insert(NameV2.Person(id: 1, fullName: "Bob")) }
        }
        guard case .collectionNameCollision = error else { Issue.record("expected collectionNameCollision, got \(error)"); return }
    }

    @Test func explicitNamesNeverCollide() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(NameV1.Person.self).insert(NameV1.Person(id: 1, name: "Ann"))
        let people = store.collection(NameV2.Person.self, named: "people")
        try people.insert(NameV2.Person(id: 1, fullName: "Bob"))
        #expect(try people.count() == 1)
        // Choosing another type's default name is deliberate: several types may read one collection.
        let sameDocuments = store.collection(NameV2.Person.self, named: "persons")
        #expect(try sameDocuments.keys() == [.integer(1)])
        // An explicit name doesn't claim the default name either.
        let other = try DocumentStore.inMemory()
        _ = other.collection(NameV1.Person.self, named: "persons")
        try other.collection(NameV2.Person.self).insert(NameV2.Person(id: 2, fullName: "Dee"))
        #expect(try other.collection(NameV2.Person.self).count() == 1)
    }

    @Test func eachStoreHasItsOwnNames() throws {
        let first = try DocumentStore.inMemory()
        let second = try DocumentStore.inMemory()
        try first.collection(NameV1.Person.self).insert(NameV1.Person(id: 1, name: "Ann"))
        try second.collection(NameV2.Person.self).insert(NameV2.Person(id: 1, fullName: "Bob"))
        #expect(try second.collection(NameV2.Person.self).count() == 1)
    }

    @Test func aGenericTypeNeedsAName() throws {
        let store = try DocumentStore.inMemory()
        let crates = store.collection(Crate<Int>.self)
        let error = try #require(throws: DocStoreError.self) { try crates.insert(Crate(content: 1)) }
        guard case .noDefaultCollectionName(let type, _) = error else {
            Issue.record("expected noDefaultCollectionName, got \(error)"); return
        }
        #expect(type == String(reflecting: Crate<Int>.self))
        #expect(error.localizedDescription.contains("generic"))
        #expect(error.localizedDescription.contains("named:"))
        #expect(throws: DocStoreError.self) { try crates.count() }

        let named = store.collection(Crate<Int>.self, named: "intCrates")
        #expect(try named.insert(Crate(content: 1)) == .integer(1))
        #expect(try named.get(1)?.content == 1)
        #expect(try store.collections().map(\.name) == ["intCrates"])
    }
}
