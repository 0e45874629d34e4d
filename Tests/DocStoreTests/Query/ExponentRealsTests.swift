import Foundation
import Testing
@_spi(Backends) @testable import DocStore
import DocStorePostgres

/// Reals whose shortest text has an exponent (`1e+16`, `-1e+300`) are reals
/// after every write, on both backends. jsonb's `numeric` keeps no exponent,
/// so PostgreSQL stored `1e16` as the integer 10000000000000000: it read back
/// as an integer, divided as one (`/ 3` truncated) and copied to a file as one
/// (helper-46, helper-48).
@Suite("Reals written with an exponent stay reals", .postgresServer)
struct ExponentRealsTests {
    static let reals: [Double] = [1e16, -1e300, .greatestFiniteMagnitude, 2.5e21, 1.5e-7, .leastNonzeroMagnitude]

    struct Measurement: Codable, Sendable, Identifiable, Equatable {
        var id: Int
        var value: Double
        var values: [Double]
    }

    /// Every write path: a batch insert, a save, a document without a key, a
    /// typed model, an update's `set`, `setDefault`.
    @Test(arguments: Backend.allCases)
    func everyWriteKeepsTheKind(backend: Backend) async throws {
        try await BackendStore.with(backend) { store in
            try await Self.writeAndReadBack(in: store)
            try await Self.typedModelsAndComputedValues(in: store)
            if let postgres = store.postgres {
                try await Self.postgresOnlyWrites(in: postgres)
            }
        }
    }

    // Separate functions, not one closure: a long multi-statement closure took
    // a cold CI build 1.6 s to type-check, past the test target's limit.
    static func writeAndReadBack(in store: BackendStore) async throws {
        let docs = store.collection(named: "docs")
        let documents = reals.enumerated().map { index, real -> JSONValue in
            ["id": .integer(Int64(index)), "v": .double(real), "nested": ["a": [.double(real)]]]
        }
        try await docs.insert(contentsOf: documents)
        try await docs.save(contentsOf: [["id": 100, "v": .double(1e20)]])
        _ = try await docs.update(DocumentQuery(.compare(FieldPath("id"), .equal, 0)), [.set(FieldPath("set"), .double(3e18))])
        _ = try await docs.setDefault(FieldPath("default"), to: .double(-7e17))

        for (index, real) in reals.enumerated() {
            let document = try #require(try await docs.get(index))
            #expect(document.value(at: FieldPath("v")) == .double(real), "\(document)")
            #expect(isReal(document.value(at: FieldPath("v"))), "\(document)")
            #expect(isReal(document.value(at: FieldPath([.key("nested"), .key("a"), .index(0)]))), "\(document)")
            #expect(isReal(document.value(at: FieldPath("default"))), "\(document)")
        }
        #expect(isReal(try await docs.get(100)?.value(at: FieldPath("v"))))
        #expect(isReal(try await docs.get(0)?.value(at: FieldPath("set"))))
    }

    static func typedModelsAndComputedValues(in store: BackendStore) async throws {
        // Computed values treat it as the real it is: 1e16 / 3 does not truncate.
        let docs = store.collection(named: "docs")
        let third = try await docs.rows(QueryPipeline(DocumentQuery(.compare(FieldPath("id"), .equal, 0)), stages: [
            .select([NamedExpression("third", .arithmetic(.divide, .field(FieldPath("v")), .literal(3)))]),
        ]))
        let oneThird: Double = 1e16 / 3
        let expected: [JSONValue] = [["third": .double(oneThird)]]
        #expect(third == expected, "\(third)")

        let typed = store.collection(Measurement.self, named: "typed")
        let measurement = Measurement(id: 1, value: 1e16, values: reals)
        try await typed.insert(contentsOf: [measurement])
        #expect(try await typed.get(1) == measurement)
        let raw = try #require(try await store.collection(named: "typed").get(1))
        #expect(isReal(raw.value(at: FieldPath("value"))), "\(raw)")
    }

    /// A generated key's insert and the key/value area.
    static func postgresOnlyWrites(in postgres: PostgresDocumentStore) async throws {
        let generated = postgres.collection(named: "generated")
        let key = try await generated.insert(["v": .double(1e16)])
        #expect(isReal(try await generated.get(key)?.value(at: FieldPath("v"))))
        let limits: [String: Double] = ["limit": 1e16]
        try await postgres.values.set(limits, forKey: "settings")
        let settings: JSONValue? = try await postgres.values.get("settings", as: JSONValue.self)
        let limit: JSONValue? = settings?.value(at: FieldPath("limit"))
        #expect(isReal(limit), "\(String(describing: settings))")
    }

    static func isReal(_ value: JSONValue?) -> Bool {
        switch value {
        case .double: true
        case .exactNumber(let literal): !literal.isIntegral
        default: false
        }
    }
}
