import Foundation
import Testing
@testable import DocStore

/// Issue 9, item 10: increments and generated keys never wrap, round or break a
/// document; they throw and change nothing.
@Suite("Fault: numeric overflow")
struct NumericOverflowTests {
    struct Counter: Codable, Identifiable, Equatable {
        var id: Int
        var count: Int64?
        var huge: UInt64?
        var real: Double?
    }

    func counters(_ values: [Counter]) throws -> DocumentCollection<Counter> {
        let counters = try DocumentStore.inMemory().collection(Counter.self)
        try counters.insert(contentsOf: values)
        return counters
    }

    func incrementAll(_ counters: DocumentCollection<Counter>, _ field: String, by amount: JSONValue) throws -> Int {
        try counters.update(DocumentQuery(), [.increment(FieldPath(field), amount)])
    }

    @Test func incrementingToInt64MaxWorksAndPastItThrowsChangingNothing() throws {
        let counters = try counters([Counter(id: 1, count: Int64.max - 1), Counter(id: 2, count: 0)])
        #expect(try incrementAll(counters, "count", by: 1) == 2)
        #expect(try counters.get(1)?.count == Int64.max)

        let error = try #require(throws: DocStoreError.self) { try incrementAll(counters, "count", by: 1) }
        guard case .numericOverflow(let collection, let field, let key, let reason) = error else {
            Issue.record("expected numericOverflow, got \(error)"); return
        }
        #expect(reason.hasPrefix("adding 1 would go past the largest number"), "\(reason)")
        #expect(collection == "counters")
        #expect(field == "count")
        #expect(key == .integer(1))
        #expect(try counters.get(1)?.count == Int64.max, "still exact, still an integer")
        #expect(try counters.get(2)?.count == 1, "the other document was not changed either")
        #expect(try counters.damagedDocuments().isEmpty)
    }

    @Test func decrementingPastInt64MinThrows() throws {
        let counters = try counters([Counter(id: 1, count: Int64.min + 5)])
        let error = try #require(throws: DocStoreError.self) { try incrementAll(counters, "count", by: -6) }
        // Which way it went, and the amount as written (it said "adding
        // integer(-6) would go past the largest number").
        #expect(error.localizedDescription.contains("adding -6 would go below the smallest number DocStore stores exactly"), "\(error)")
        #expect(try counters.get(1)?.count == Int64.min + 5)
        #expect(try incrementAll(counters, "count", by: -5) == 1)
        #expect(try counters.get(1)?.count == Int64.min)
    }

    @Test func anIntegerBeyondInt64CannotBeIncrementedExactly() throws {
        let counters = try counters([Counter(id: 1, huge: UInt64.max)])
        let error = try #require(throws: DocStoreError.self) { try incrementAll(counters, "huge", by: 1) }
        #expect("\(error)".contains("huge"))
        #expect(try counters.get(1)?.huge == UInt64.max, "the stored value is still exact")
    }

    @Test func aRealPastDoubleRangeThrowsInsteadOfWritingInfinity() throws {
        let counters = try counters([Counter(id: 1, real: 1.5e308)])
        #expect(throws: DocStoreError.self) { try incrementAll(counters, "real", by: .double(1.5e308)) }
        #expect(try counters.get(1)?.real == 1.5e308)
        #expect(try counters.damagedDocuments().isEmpty, "no 'malformed JSON' left behind")
        #expect(try incrementAll(counters, "real", by: .double(-0.5e308)) == 1)
        #expect(try counters.get(1)?.real == 1.0e308)
    }

    @Test func untypedGeneratedKeysStopAtInt64Max() throws {
        let store = try DocumentStore.inMemory()
        let notes = store.collection(named: "notes")
        try notes.insert(["id": .integer(Int64.max - 1), "text": "almost"])
        #expect(try notes.insert(["text": "last"]) == .integer(Int64.max))
        let error = try #require(throws: DocStoreError.self) { try notes.insert(["text": "one too many"]) }
        guard case .numericOverflow = error else { Issue.record("expected numericOverflow, got \(error)"); return }
        #expect(try notes.count() == 2)
        #expect(try notes.keys(DocumentQuery()) == [.integer(Int64.max - 1), .integer(Int64.max)], "no key wrapped to a negative one")
    }

    @Test func typedGeneratedKeysStopAtInt64MaxAndABatchIsAllOrNothing() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(named: "notes").insert(["id": .integer(Int64.max - 1), "text": "almost"])
        let notes = store.collection(Note.self)
        #expect(throws: DocStoreError.self) {
            try notes.insert(contentsOf: [Note(text: "fits"), Note(text: "does not")])
        }
        #expect(try notes.count() == 1, "the batch left nothing behind")
        #expect(try notes.insert(Note(text: "fits")) == .integer(Int64.max))
        #expect(throws: DocStoreError.self) { try notes.insert(Note(text: "past the end")) }
        #expect(try store.collection(named: "notes").keys(DocumentQuery()) == [.integer(Int64.max - 1), .integer(Int64.max)],
                "SQLite did not pick a random free key")
    }

    @Test func generatedKeysInABatchStepOverKeysGivenInTheSameBatch() throws {
        let notes = try DocumentStore.inMemory().collection(named: "notes")
        let keys = try notes.insert(contentsOf: [["text": "a"], ["id": 2, "text": "b"], ["text": "c"]])
        #expect(keys == [.integer(1), .integer(2), .integer(3)])
    }

    /// A number past a Double's range made as an exact literal (`1e400`) was
    /// stored, then every read of its collection failed on it as a damaged
    /// document (helper-43): no such literal can be made now. One just inside
    /// the range, and a tiny one, still keep their digits.
    @Test func aNumberPastADoublesRangeCannotBeMadeSoNeverStored() throws {
        for text in ["1e400", "-1e309", "1.7976931348623159e308", String(repeating: "9", count: 400)] {
            #expect(JSONNumberLiteral(text) == nil, "\(text.prefix(30))")
        }
        let notes = try DocumentStore.inMemory().collection(named: "notes")
        let kept = try ["1.7976931348623157e308", "1e-400", "123456789012345678901234567890"].map { try #require(JSONNumberLiteral($0)) }
        try notes.insert(contentsOf: kept.enumerated().map { ["id": .integer(Int64($0.offset)), "n": .exactNumber($0.element)] })
        #expect(try notes.fetch(DocumentQuery()).map { $0["n"] } == kept.map { $0.value })
    }
}
