import DocStore
import Testing
@testable import DocStoreREPL

@Suite("Sampling fields for .schema, warnings and completion")
struct SchemaSamplingTests {
    /// 1000 documents; only the last 300 have `late` (as a CSV whose column is
    /// empty in its first rows).
    func store() throws -> DocumentStore {
        let store = try DocumentStore.inMemory()
        try store.collection(named: "rows").insert(contentsOf: (1...1000).map { n -> JSONValue in
            n > 700 ? ["id": .integer(Int64(n)), "early": 1, "late": 2] : ["id": .integer(Int64(n)), "early": 1]
        })
        return store
    }

    @Test func largeCollectionsAreSampledAcrossTheirKeys() throws {
        let schema = StoreSchema(store: try store(), sampleSize: 50)
        let sample = try schema.sample("rows")
        #expect(sample.sampled == 50)
        #expect(sample.order == [FieldPath("id"), FieldPath("early"), FieldPath("late")])
        #expect(sample.fields[FieldPath("late")]?.documents == 15)
    }

    @Test func aFieldOnlyLaterDocumentsHaveRaisesNoWarning() throws {
        let harness = try SessionHarness(sample: false, store: try store())
        #expect(harness.feed("rows.count { $0.late == 2 }") == .done)
        #expect(harness.errors.text.isEmpty, "\(harness.errors.text)")
        #expect(harness.output.text.hasPrefix("300\n"))
    }

    @Test func smallCollectionsAreReadWhole() throws {
        let schema = StoreSchema(store: try store(), sampleSize: 5000)
        #expect(try schema.sample("rows").sampled == 1000)
        #expect(try schema.sample("missing").sampled == 0)
    }
}
