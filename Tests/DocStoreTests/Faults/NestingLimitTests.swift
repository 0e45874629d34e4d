import Foundation
import GRDB
import Testing
@testable import DocStore

/// A value nesting `levels` arrays (0: a scalar), built without recursion.
func nestedArrays(_ levels: Int) -> JSONValue {
    var value: JSONValue = 1
    for _ in 0..<levels { value = .array([value]) }
    return value
}

@Suite("Fault: one nesting limit, DocumentStore.maximumNestingDepth, at every Swift entry")
struct NestingLimitTests {
    struct Deep: Codable, Identifiable, Equatable {
        var id: Int
        var value: JSONValue
    }

    /// A recursive model: its own `encode(to:)` would recurse as deep as the chain.
    final class Chain: Codable {
        let next: Chain?
        init(next: Chain?) { self.next = next }
        static func of(length: Int) -> Chain {
            var chain = Chain(next: nil)
            for _ in 1..<length { chain = Chain(next: chain) }
            return chain
        }
    }

    /// Encodes its value through `superEncoder(forKey:)`, whose text the encoder
    /// splices into the enclosing object afterwards.
    struct ThroughSuperEncoder: Codable, Identifiable, Equatable {
        var id: Int
        var value: JSONValue
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try value.encode(to: container.superEncoder(forKey: .value))
        }
    }

    let limit = DocumentStore.maximumNestingDepth

    func expectTooDeep(_ error: DocStoreError, collection: String, key: DocumentKey?,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .nestingTooDeep(collection, key, 512) = error else {
            Issue.record("expected nestingTooDeep, got \(error)", sourceLocation: sourceLocation)
            return
        }
        #expect("\(error)".contains("deeper than 512 levels"), sourceLocation: sourceLocation)
    }

    @Test func typedWritesAcceptTheLimitReadItBackAndRefuseOneMore() throws {
        #expect(limit == 512)
        let store = try DocumentStore.inMemory()
        let deeps = store.collection(Deep.self)
        // The document is an object: the value gets one level less.
        let atLimit = Deep(id: 1, value: nestedArrays(limit - 1))
        try deeps.insert(atLimit)
        #expect(try deeps.get(1) == atLimit)
        #expect(try deeps.fetch(DocumentQuery(.compare(FieldPath("id"), .equal, 1))) == [atLimit])
        #expect(try deeps.count(DocumentQuery(.not(.isNull(FieldPath("value"))))) == 1)

        let error = try #require(throws: DocStoreError.self) { try deeps.insert(Deep(id: 2, value: nestedArrays(limit))) }
        expectTooDeep(error, collection: "deeps", key: .integer(2))
        #expect(throws: DocStoreError.self) { try deeps.save(Deep(id: 1, value: nestedArrays(limit))) }
        #expect(throws: DocStoreError.self) { try deeps.insert(contentsOf: [Deep(id: 3, value: 1), Deep(id: 4, value: nestedArrays(limit))]) }
        #expect(try deeps.keys() == [.integer(1)], "nothing written")
        #expect(try deeps.get(1) == atLimit)
    }

    @Test func aSuperEncoderCountsTheContainersAroundIt() throws {
        let store = try DocumentStore.inMemory()
        let values = store.collection(ThroughSuperEncoder.self)
        let atLimit = ThroughSuperEncoder(id: 1, value: nestedArrays(limit - 1))
        try values.insert(atLimit)
        #expect(try values.get(1) == atLimit)
        let error = try #require(throws: DocStoreError.self) { try values.insert(ThroughSuperEncoder(id: 2, value: nestedArrays(limit))) }
        expectTooDeep(error, collection: "throughSuperEncoders", key: .integer(2))
        #expect(try values.keys() == [.integer(1)])
    }

    @Test func aRecursiveModelStopsAtTheLimit() throws {
        let store = try DocumentStore.inMemory()
        let chains = store.collection(Chain.self)
        try chains.insert(Chain.of(length: limit))
        let error = try #require(throws: DocStoreError.self) { try chains.insert(Chain.of(length: 5_000)) }
        expectTooDeep(error, collection: "chains", key: nil)
        #expect(try chains.count() == 1)
    }

    @Test func untypedWritesAcceptTheLimitAndRefuseOneMore() throws {
        let store = try DocumentStore.inMemory()
        let raw = store.collection(named: "raw")
        try raw.insert(["id": 1, "value": nestedArrays(limit - 1)])
        #expect(try raw.get(1)?["value"] == nestedArrays(limit - 1))
        #expect(try raw.keys(DocumentQuery(.compare(FieldPath("id"), .equal, 1))) == [.integer(1)])
        let error = try #require(throws: DocStoreError.self) { try raw.insert(["id": 2, "value": nestedArrays(limit)]) }
        expectTooDeep(error, collection: "raw", key: .integer(2))
        #expect(throws: DocStoreError.self) { try raw.save(["id": 1, "value": nestedArrays(1_000)]) }
        #expect(try raw.keys() == [.integer(1)])
        #expect(try raw.get(1)?["value"] == nestedArrays(limit - 1))
    }

    @Test func updateByQueryCountsThePathAndTheValue() throws {
        let store = try DocumentStore.inMemory()
        let raw = store.collection(named: "raw")
        try raw.insert(["id": 1])
        let all = DocumentQuery()
        // Root object + `a` + `b`: the value at a.b may nest limit - 2 levels.
        try raw.update(all, [.set(FieldPath("a", "b"), nestedArrays(limit - 2))])
        #expect(try raw.get(1)?["a"]?["b"] == nestedArrays(limit - 2))
        #expect(try raw.count(DocumentQuery(.compare(FieldPath("id"), .equal, 1))) == 1)
        let error = try #require(throws: DocStoreError.self) {
            try raw.update(all, [.set(FieldPath("a", "c"), nestedArrays(limit - 1))])
        }
        expectTooDeep(error, collection: "raw", key: nil)
        #expect(throws: DocStoreError.self) { try raw.update(all, [.set(FieldPath("x"), nestedArrays(limit))]) }
        #expect(try raw.get(1)?["a"]?["c"] == nil, "nothing changed")
        #expect(try raw.get(1)?["x"] == nil)
    }

    /// A path of as many parts as the limit allows writes a readable document;
    /// one part more (a scalar at the end) was written, and the document could
    /// then never be read back: every write that names a path now counts it.
    @Test func aPathItselfCountsAgainstTheLimit() throws {
        let store = try DocumentStore.inMemory()
        let raw = store.collection(named: "raw")
        try raw.insert(["id": 1, "a": 1])
        let longest = FieldPath((0..<limit).map { FieldPath.Component.key("f\($0)") })
        let tooLong = FieldPath((0...limit).map { FieldPath.Component.key("f\($0)") })
        try raw.update(DocumentQuery(), [.set(longest, 1)])
        #expect(try raw.get(1) != nil, "the document reads back")
        #expect(try store.check().isHealthy)
        let writes: [(String, () throws -> Void)] = [
            ("set", { _ = try raw.update(DocumentQuery(), [.set(tooLong, 1)]) }),
            ("increment", { _ = try raw.update(DocumentQuery(), [.increment(tooLong, 1)]) }),
            ("rename", { _ = try raw.renameField(FieldPath("a"), to: tooLong) }),
            ("copy", { _ = try raw.copyField(FieldPath("a"), to: tooLong) }),
            ("default", { _ = try raw.setDefault(tooLong, to: 1) }),
        ]
        for (name, write) in writes {
            let error = try #require(throws: DocStoreError.self, "\(name)") { try write() }
            #expect("\(error)".contains("the path nests deeper than \(limit) levels"), "\(name): \(error)")
        }
        #expect(try raw.get(1)?["a"] == 1, "nothing changed")
        #expect(try store.check().isHealthy)
    }
}
