import Foundation
import Testing
@testable import DocStore

@Document
struct SelectProbe: Codable, Identifiable {
    var id: Int
    var name: String?
    var count: Int?
    var ratio: Double?
    var flag: Bool?
    var label: String
}

extension DSLTests {
    /// A typed `select` decodes each column by its type, found once per query: each
    /// optional scalar from a value, from null and from a missing field, and an
    /// integer read as a Double; a missing non-optional names its field.
    @Suite("Typed select decoding")
    struct SelectDecodingTests {
        @Test(arguments: Backend.allCases)
        func optionalScalarsDecodeFromValuesNullAndMissing(backend: Backend) async throws {
            try await BackendStore.with(backend) { store async throws in
                let probes = store.collection(SelectProbe.self, named: "probes")
                let raw = store.collection(named: probes.name)
                try await raw.insert(["id": 1, "name": "a", "count": 2, "ratio": 0.5, "flag": true, "label": "x"])
                try await raw.insert(["id": 2, "name": nil, "count": nil, "ratio": 3, "flag": nil, "label": "y"])
                try await raw.insert(["id": 3, "label": "z"])
                let rows = try await probes.query.select { ($0.name, $0.count, $0.ratio, $0.flag, $0.label) }
                #expect(rows.count == 3)
                #expect(rows[0] == ("a", 2, 0.5, true, "x"))
                #expect(rows[1] == (nil, nil, 3.0, nil, "y"), "an integer decodes as a Double")
                #expect(rows[2] == (nil, nil, nil, nil, "z"), "a missing field decodes as nil")
                // Computed columns take the other path (a pipeline), with the same decoding.
                let computed = try await probes.query.select { ($0.name, $0.label + "!") }
                #expect(computed.map { $0.0 } == ["a", nil, nil])
                #expect(computed.map { $0.1 } == ["x!", "y!", "z!"])
            }
        }

        @Test(arguments: Backend.allCases)
        func aMissingNonOptionalNamesItsField(backend: Backend) async throws {
            try await BackendStore.with(backend) { store async throws in
                let probes = store.collection(SelectProbe.self, named: "probes")
                try await store.collection(named: probes.name).insert(["id": 1, "name": "a"])
                let error = try await #require(throws: DocStoreError.self) { _ = try await probes.query.select { ($0.name, $0.label) } }
                guard case .decodingFailed(let collection, _, let path, _) = error else { Issue.record("\(error)"); return }
                #expect(collection == probes.name && path == "label")
            }
        }
    }
}
