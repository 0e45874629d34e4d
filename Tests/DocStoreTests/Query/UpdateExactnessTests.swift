import Foundation
import GRDB
import Testing
@testable import DocStore

/// An increment that makes a real writes the real it computed, exactly: the
/// sum SQLite computes in Double arithmetic, as Swift computes it. SQLite 3.40's
/// `printf('%!.17g')` misprinted one random double in 400 (large and small
/// exponents; `Double.greatestFiniteMagnitude` became `1.7976931348623156e+308`),
/// so the stored text read back as a neighbour of the sum.
@Suite("Updates write exactly what they say: exact reals, no uncounted no-ops")
struct UpdateExactnessTests {
    @Test func randomRealsIncrementedReadBackAsTheSumSwiftComputes() throws {
        var random = SeededGenerator(seed: 0x1AC)
        var values: [Double] = [.greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e308, .leastNonzeroMagnitude, 0.1]
        while values.count < 2_000 {
            let value = Double(bitPattern: random.next())
            if value.isFinite { values.append(value) }
        }
        let store = try DocumentStore.inMemory()
        let reals = store.collection(named: "reals")
        try reals.insert(contentsOf: values.enumerated().map { JSONValue.object(["id": .integer(Int64($0.offset)), "v": .double($0.element)]) })
        for step in [0.0, 0.5] {
            let expected = values.map { $0 + step }
            guard expected.allSatisfy(\.isFinite) else { continue }
            try reals.update(DocumentQuery(), [.increment(FieldPath("v"), .double(step))])
            let stored = try reals.all().map { $0["v"]?.numberValue }
            let wrong = zip(expected, stored).enumerated().filter { $0.element.0 != $0.element.1 }
            #expect(wrong.isEmpty, "step \(step): \(wrong.count) reals changed, such as \(wrong.prefix(3).map { "\($0.element.0) stored as \(String(describing: $0.element.1))" })")
            values = expected
        }
    }

    /// A body another tool wrote that is not a JSON object takes no change
    /// (`json_set` leaves it as it is): an update names it instead of counting
    /// it as changed, and changes nothing.
    @Test func anUpdateNamesABodyThatIsNotAnObjectInsteadOfCountingIt() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(contentsOf: [["id": 1, "n": 1], ["id": 2, "n": 2]])
        try store.databaseWriter.write { db in try db.execute(sql: "UPDATE docs SET body = '[1, 2]' WHERE key = 2") }
        let error = try #require(throws: DocStoreError.self) { try docs.update(DocumentQuery(), [.set(FieldPath("x"), 1)]) }
        guard case .damagedDocuments("docs", [.integer(2)]) = error else { Issue.record("\(error)"); return }
        #expect(try docs.get(1) == ["id": 1, "n": 1], "nothing changed")
        #expect(try docs.update(DocumentQuery(.compare(FieldPath("id"), .equal, 1)), [.set(FieldPath("x"), 1)]) == 1, "the sound document alone: fine")
    }
}
