import Foundation
import Testing
@_spi(Backends) @testable import DocStore

/// An update or field change writing a name the document already spells
/// otherwise (a composed "é" against "e" with a combining accent, "K"
/// against the Kelvin sign) gave the document both spellings; reads keep the
/// first, so the written value vanished from `get`, exports and copies
/// (helper-48). It is refused, naming the document, and nothing changes.
@Suite("Writes of a name the document spells otherwise", .postgresServer)
struct RespelledNameWriteTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"
    static let kelvin = "\u{212A}"

    @Test(arguments: Backend.allCases)
    func writesThroughTheOtherSpellingAreRefused(backend: Backend) async throws {
        try await BackendStore.with(backend) { store in
            let docs = store.collection(named: "docs")
            let first: JSONValue = ["id": 1, .init(stringLiteral: Self.composed): "old", "n": [.init(stringLiteral: Self.kelvin): 1], "x": 2]
            let second: JSONValue = ["id": 2, "other": 1]
            let third: JSONValue = ["id": 3, "other": 1]
            _ = try await docs.insert(contentsOf: [first, second, third])
            let all = DocumentQuery()
            let writes: [(String, () async throws -> Void)] = [
                ("set", { _ = try await docs.update(all, [.set(FieldPath(Self.decomposed), "new")]) }),
                ("nested set", { _ = try await docs.update(all, [.set(FieldPath("n", "K"), 5)]) }),
                ("increment", { _ = try await docs.update(all, [.increment(FieldPath("n", "K"), 1)]) }),
                ("setDefault", { _ = try await docs.setDefault(FieldPath(Self.decomposed), to: "new") }),
                ("copyField", { _ = try await docs.copyField(FieldPath("x"), to: FieldPath(Self.decomposed)) }),
                ("renameField", { _ = try await docs.renameField(FieldPath("x"), to: FieldPath(Self.decomposed)) }),
            ]
            for (name, write) in writes {
                let error = try await #require(throws: DocStoreError.self, Comment(rawValue: name)) { try await write() }
                guard case .invalidUpdate(_, _, let key, let reason) = error else { Issue.record("\(name): \(error)"); continue }
                #expect(key == .integer(1), "\(name)")
                #expect(reason.contains("written with other Unicode characters (U+0063 U+0061 U+0066 U+00E9 there, U+0063 U+0061 U+0066 U+0065 U+0301 here)")
                        || reason.contains("(U+212A there, U+004B here)"), "\(name): \(reason)")
            }
            // Nothing was written: no member of the other spelling, anywhere.
            #expect(try await docs.count(DocumentQuery(.exists(FieldPath(Self.decomposed)))) == 0)
            #expect(try await docs.count(DocumentQuery(.exists(FieldPath("n", "K")))) == 0)
            #expect(try await docs.get(1) == first)
            #expect(try await docs.get(2) == second)
            // The document's own spelling, and documents without the name, are written.
            let notThird = DocumentQuery(.compare(FieldPath("id"), .notEqual, 3))
            #expect(try await docs.update(notThird, [.set(FieldPath(Self.composed), "new")]) == 2)
            #expect(try await docs.update(DocumentQuery(.compare(FieldPath("id"), .equal, 3)), [.set(FieldPath(Self.decomposed), 1)]) == 1)
            #expect(try await docs.get(1)?[Self.composed] == "new")
        }
    }
}
