import Foundation
import Testing
@testable import DocStore

/// A field sample reads `size` documents spread evenly over a large collection's
/// keys (so fields only later documents have are seen), and every document of a
/// small one.
@Suite("Field samples")
struct FieldSampleTests {
    @Test func aLargeCollectionIsSampledEvenlyOverItsKeys() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        var documents: [JSONValue] = []
        for n in Int64(1)...5_000 {
            let late: JSONValue = ["id": .integer(n), "late": true]
            let early: JSONValue = ["id": .integer(n), "n": .integer(n)]
            documents.append(n > 4_900 ? late : early)
        }
        try docs.insert(contentsOf: documents)
        let sample = try docs.sampleFields(size: 200)
        #expect(!sample.sampledEveryDocument)
        #expect(sample.fields[FieldPath("id")]?.documents == 200, "exactly the sample's size")
        #expect(sample.fields[FieldPath("late")]?.documents == 4, "one in 25 of the last 100 documents")
        #expect(sample.fields[FieldPath("n")] != nil)

        let small = try docs.sampleFields(size: 10_000)
        #expect(small.sampledEveryDocument)
        #expect(small.fields[FieldPath("id")]?.documents == 5_000)
        #expect(small.fields[FieldPath("late")]?.documents == 100)
    }
}
