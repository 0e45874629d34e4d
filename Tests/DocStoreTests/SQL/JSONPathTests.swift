import Foundation
import GRDB
import Testing
@testable import DocStore

/// Member and collection names full of characters that mean something to SQL or
/// to JSON paths, against the real SQLite.
@Suite("JSON paths and hostile names")
struct JSONPathTests {
    static let hostileNames = [
        "plain", "a.b", "a[0]", "$", "$.x", "sp ace", "it's", "say \"hi\"", "back\\slash", "sl/ash", "😀 emoji", "",
        "tab\there", "nul\u{0}in name", "'; DROP TABLE docs; --", "[\"x\"]", "\u{2028}", String(repeating: "k", count: 10_000),
        // A quote followed by a combining mark is one Character, which Foundation's
        // replacingOccurrences(of: "'") did not match: the quote went undoubled.
        "it'\u{301}s", "\u{301}?",
    ]

    @Test func pathLiteralsQuoteEveryMemberAndRefuseWhatSQLiteCantName() {
        #expect(quoteJSONPath([.key("a.b"), .index(2), .key("it's")]) == "'$.\"a.b\"[2].\"it''s\"'")
        #expect(quoteJSONPath([FieldPath.Component]()) == "'$'")
        #expect(quoteJSONPath([.key("say \"hi\"")]) == nil)
        #expect(quoteJSONPath([.key("back\\slash")]) == nil)
        #expect(quoteJSONPath([.index(-1)]) == nil)
        // Quotes are doubled byte for byte, also when a combining mark follows.
        #expect(quoteJSONPath([.key("it'\u{301}s")]).map { Array($0.utf8) } == Array("'$.\"it''\u{301}s\"'".utf8))
        #expect(Array(quoteIdentifier("say \"\u{301}hi\"").utf8) == Array("\"say \"\"\u{301}hi\"\"\"".utf8))
    }

    @Test("every hostile member name can be queried, nested and inside arrays", arguments: hostileNames)
    func hostileMemberNames(name: String) throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(["id": 1, .init(stringLiteral: name): 5, "nested": [.init(stringLiteral: name): ["x": "found"]]] as JSONValue)
        try docs.insert(["id": 2, .init(stringLiteral: name): "5", "list": [[.init(stringLiteral: name): 1]]] as JSONValue)
        try docs.insert(["id": 3, "other": 5])
        let field = FieldPath(name)
        if name.utf8.contains(0) {
            // SQLite 3.40 cuts member names at NUL: refused with a clear error, not misread.
            let error = try #require(throws: DocStoreError.self) { try docs.keys(DocumentQuery(.compare(field, .equal, 5))) }
            #expect("\(error)".contains("NUL") && "\(error)".contains("\"docs\""))
            #expect(Condition.compare(field, .equal, 5).matches(["id": 1, .init(stringLiteral: name): 5]), "the evaluator can")
            return
        }
        #expect(try docs.keys(DocumentQuery(.compare(field, .equal, 5))) == [.integer(1)])
        #expect(try docs.keys(DocumentQuery(.compare(field, .notEqual, 5))) == [.integer(2), .integer(3)])
        #expect(try docs.keys(DocumentQuery(.exists(field))) == [.integer(1), .integer(2)])
        #expect(try docs.keys(DocumentQuery(.compare(FieldPath("nested", name, "x"), .equal, "found"))) == [.integer(1)])
        #expect(try docs.keys(DocumentQuery(.any(FieldPath("list"), .compare(FieldPath(name), .equal, 1)))) == [.integer(2)])
        #expect(try docs.keys(DocumentQuery(sort: [SortKey(field, descending: true)])) == [.integer(2), .integer(1), .integer(3)])
        #expect(try docs.select(DocumentQuery(), fields: [field]) == [[5], ["5"], [.null]] as [[JSONValue]])
        #expect(try docs.aggregate(DocumentQuery(), .sum(field)) == 5)
        // Updates and indexes need a path SQLite can write.
        if isExpressibleInJSONPath(name) {
            try docs.createIndex(on: [field], unique: true)
            #expect(try docs.explain(DocumentQuery(.compare(field, .equal, 5))).usesIndex)
            #expect(try docs.update(DocumentQuery(.compare(field, .equal, 5)), [.increment(field, 2)]) == 1)
            #expect(try docs.get(1)?[name] == 7)
            #expect(try docs.update(DocumentQuery(), [.remove(field)]) == 3)
            #expect(try docs.count(DocumentQuery(.exists(field))) == 0)
        } else {
            #expect(throws: DocStoreError.self) { try docs.createIndex(on: [field]) }
            #expect(throws: DocStoreError.self) { try docs.update(DocumentQuery(), [.remove(field)]) }
        }
    }

    @Test("hostile collection names work for queries, indexes and updates", arguments: [
        "it's", "say \"hi\"", "a.b [0] $", "😀", "'; DROP TABLE docstore_indexes; --", String(repeating: "c", count: 10_000),
        "say \"\u{301}hi\"", "it'\u{301}s",
    ])
    func hostileCollectionNames(name: String) throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: name)
        try docs.createIndex(on: [FieldPath("n")], unique: true)
        try docs.insert(contentsOf: [["id": 1, "n": 1], ["id": 2, "n": 2, "s": "nul\u{0}byte"], ["id": 3, "n": 3, "s": "'; DROP TABLE x; --"]])
        #expect(try docs.keys(DocumentQuery(.compare(FieldPath("n"), .greater, 1), sort: [SortKey(FieldPath("n"), descending: true)]))
                == [.integer(3), .integer(2)])
        #expect(try docs.keys(DocumentQuery(.compare(FieldPath("s"), .equal, "'; DROP TABLE x; --"))) == [.integer(3)])
        #expect(try docs.keys(DocumentQuery(.string(FieldPath("s"), .hasPrefix, "nul", caseInsensitive: false))) == [.integer(2)])
        #expect(try docs.update(DocumentQuery(.compare(FieldPath("n"), .equal, 1)), [.set(FieldPath("s"), "x'y\"z")]) == 1)
        #expect(try docs.get(1)?["s"] == "x'y\"z")
        let error = try #require(throws: DocStoreError.self) { try docs.insert(["id": 4, "n": 2]) }
        guard case let .uniqueConstraint(collection, fields, key) = error else { Issue.record("\(error)"); return }
        #expect(collection == name && fields == ["n"] && key == .integer(4))
        #expect(error.localizedDescription.hasSuffix("; the document with key 4 was not written"), "not the holder's key")
        #expect(try docs.delete(DocumentQuery(.compare(FieldPath("n"), .lessOrEqual, 2))) == 2)
        #expect(try docs.count(DocumentQuery()) == 1)
        #expect(try store.collections().map(\.name).contains(name))
    }

    @Test func valuesWithNULAreComparedUpToTheNUL() throws {
        // SQLite 3.40's JSON functions end a string at \u0000; queries see that
        // prefix on both sides, and the evaluator does the same.
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(["id": 1, "s": "nul\u{0}byte"])
        let condition = Condition.compare(FieldPath("s"), .equal, "nul\u{0}byte")
        #expect(try docs.keys(DocumentQuery(condition)) == [.integer(1)])
        #expect(condition.matches(["s": "nul\u{0}byte"]))
        #expect(try docs.get(1)?["s"] == "nul\u{0}byte", "the stored document keeps the whole string")
    }
}
