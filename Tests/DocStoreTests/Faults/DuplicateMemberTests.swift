import Foundation
import GRDB
import Testing
@testable import DocStore

@Suite("Fault: duplicate member names read the same member in queries and in decoding")
struct DuplicateMemberTests {
    /// Team 2 rewritten by another tool with each of `city` and `nickName` twice,
    /// interleaved so that a decoder resuming its search after the last member it
    /// found would meet the second `nickName` first.
    func storeWithDuplicatedMembers() throws -> DocumentStore {
        let store = try DocumentStore.inMemory()
        try store.collection(Team.self).insert(contentsOf: sampleTeams)
        try store.databaseWriter.write { db in
            try db.execute(sql: """
                UPDATE teams SET body = '{"id": 2, "nickName": "Orioles", "city": "Baltimore", "abbreviation": "BAL", "city": "Annapolis", "nickName": "Birds"}' WHERE key = 2
                """)
        }
        return store
    }

    @Test func typedDecodingReadsTheFirstMemberAsSQLDoes() throws {
        let store = try storeWithDuplicatedMembers()
        let teams = store.collection(Team.self)
        #expect(try teams.get(2) == sampleTeams[1])
        #expect(try teams.all()[1] == sampleTeams[1])
        // The query sees the same member as the decoder.
        #expect(try teams.keys(DocumentQuery(.compare(FieldPath("city"), .equal, "Baltimore"))) == [.integer(2)])
        #expect(try teams.keys(DocumentQuery(.compare(FieldPath("nickName"), .equal, "Birds"))).isEmpty)
        #expect(try teams.fetch(DocumentQuery(.compare(FieldPath("nickName"), .equal, "Orioles"))) == [sampleTeams[1]])
    }

    @Test func untypedDocumentsKeepTheFirstMember() throws {
        let store = try storeWithDuplicatedMembers()
        let document = try #require(try store.collection(named: "teams").get(2))
        #expect(document["city"] == "Baltimore")
        #expect(document["nickName"] == "Orioles")
        let selected = try store.collection(named: "teams").select(DocumentQuery(.compare(FieldPath("id"), .equal, 2)),
                                                                   fields: [FieldPath("city"), FieldPath("nickName")])
        #expect(selected == [["Baltimore", "Orioles"]])
    }

    @Test func theParserFlagsRepeatsAmongManyNamesAndNothingElse() throws {
        func flagged(_ text: String) throws -> Bool {
            let bytes = Array(text.utf8)
            return try bytes.withUnsafeBufferPointer { try JSONParser.parse($0).hasDuplicateKeys }
        }
        let names = (0..<200).map { "\"member\($0)\": \($0)" }
        #expect(try !flagged("{\(names.joined(separator: ", "))}"), "200 distinct names: no duplicate")
        #expect(try flagged("{\(names.joined(separator: ", ")), \"member7\": 0}"))
        #expect(try flagged(#"{"a": {"b": 1, "c": [{"b": 2}], "b": 3}}"#), "nested object, repeat after a nested member")
        #expect(try !flagged(#"{"a": {"b": 1}, "b": {"a": 2}, "c": [{"a": 1}, {"a": 2}]}"#), "same names in different objects")
        #expect(try flagged(#"{"a": 1, "\u0061": 2}"#), "the same name written with an escape")
        #expect(try flagged(#"{"\u0061": 1, "b": 0, "a": 2}"#))
        #expect(try !flagged(#"{"": 1, "ab": 2, "ba": 3, "a": 4}"#))
    }

    /// Large objects keep their names in a set once the parser's filter fills
    /// (it compared each name with every earlier one: 10 000 members read in
    /// 12 s). Random objects of up to 400 members, names from a small alphabet
    /// (so repeats happen), some written with escapes, nested ones too: flagged
    /// exactly when a decoded name repeats within one object.
    @Test func largeObjectsFlagRepeatsExactlyAsASetOfTheirNamesDoes() throws {
        var random = SeededGenerator(seed: 0xD0B)
        func escaped(_ name: String) -> String {
            name.unicodeScalars.map { scalar in
                Bool.random(using: &random) ? String(format: "\\u%04x", scalar.value) : String(scalar)
            }.joined()
        }
        for round in 0..<300 {
            let count = Int.random(in: 20...400, using: &random)
            let names = (0..<count).map { _ in String((0..<Int.random(in: 1...3, using: &random)).map { _ in "abcdefghij".randomElement(using: &random)! }) }
            let repeats = Set(names).count != names.count
            let members = names.enumerated().map { index, name in
                let value = index % 50 == 0 ? #"{"x": 1, "x2": [1]}"# : String(index)
                return "\"\(round % 2 == 0 ? escaped(name) : name)\": \(value)"
            }
            let text = "{" + members.joined(separator: ", ") + "}"
            let bytes = Array(text.utf8)
            let flagged = try bytes.withUnsafeBufferPointer { try JSONParser.parse($0).hasDuplicateKeys }
            #expect(flagged == repeats, "round \(round): \(count) members")
        }
        let wide = (0..<10_000).map { "\"c\($0)\": \($0)" }.joined(separator: ", ")
        #expect(try Array("{\(wide)}".utf8).withUnsafeBufferPointer { try !JSONParser.parse($0).hasDuplicateKeys })
        #expect(try Array("{\(wide), \"c9999\": 0}".utf8).withUnsafeBufferPointer { try JSONParser.parse($0).hasDuplicateKeys })
    }
}
