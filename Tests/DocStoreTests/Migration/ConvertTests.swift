import Foundation
import Testing
@testable import DocStore

/// A player whose `birthYear` was stored as text and is now a number.
@Document
struct ConvertedPlayer: Codable, Identifiable, Equatable {
    var id: String
    var birthYear: Int?
    var position: Position?

    enum Position: String, Codable { case pitcher, catcher }
}

@Suite("Migrations: converting a field's type")
struct ConvertTests {
    struct NotAYear: Error, LocalizedError {
        var text: String
        var errorDescription: String? { "\(text) is not a year" }
    }

    private func players(_ documents: [JSONValue]) throws -> (DocumentStore, DocumentCollection<JSONValue>) {
        let store = try DocumentStore.inMemory()
        let players = store.collection(named: "players")
        try players.insert(contentsOf: documents)
        return (store, players)
    }

    @Test func everyPresentValueIsConvertedAcrossBatches() throws {
        // 2 500 documents: three batches, the last one partial.
        let count = 2 * DocumentCollection<JSONValue>.conversionBatchSize + 500
        let (_, players) = try players((0..<count).map { i -> JSONValue in
            let id = JSONValue.string(String(format: "p%05d", i))
            if i % 10 == 0 { return ["id": id] }
            return ["id": id, "birthYear": .string(String(1900 + i % 100))]
        })
        let summary = try players.convertField(FieldPath("birthYear")) { (text: String) -> Int in
            guard let year = Int(text) else { throw NotAYear(text: text) }
            return year
        }
        #expect(summary.documentsChanged == count - count / 10)
        let typed = try players.store.collection(ConvertedPlayer.self, named: "players").all()
        #expect(typed.count == count)
        for (i, player) in typed.enumerated() {
            #expect(player.birthYear == (i % 10 == 0 ? nil : 1900 + i % 100), "\(player.id)")
        }
    }

    @Test func aValueThatDoesNotDecodeNamesTheKeyAndPathAndChangesNothing() throws {
        let (_, players) = try players([
            ["id": "a", "birthYear": "1970"], ["id": "b", "birthYear": 1971], ["id": "c", "birthYear": "1972"],
        ])
        let before = try players.all()
        let error = try #require(throws: DocStoreError.self) {
            try players.convertField(FieldPath("birthYear")) { (text: String) in Int(text) ?? 0 }
        }
        guard case .invalidUpdate(let collection, let field, let key, let reason) = error else { Issue.record("\(error)"); return }
        #expect(collection == "players" && field == "birthYear" && key == .string("b"))
        #expect(reason.contains("1971") && reason.contains("String"), "\(reason)")
        #expect(try players.all() == before)
    }

    @Test func aThrowingConversionNamesTheKeyAndItsError() throws {
        let (_, players) = try players([["id": "a", "birthYear": "1970"], ["id": "b", "birthYear": "soon"]])
        let before = try players.all()
        let error = try #require(throws: DocStoreError.self) {
            try players.convertField(FieldPath("birthYear")) { (text: String) -> Int in
                guard let year = Int(text) else { throw NotAYear(text: text) }
                return year
            }
        }
        #expect("\(error)".contains("field birthYear of document") && "\(error)".contains("the conversion threw: soon is not a year"), "\(error)")
        guard case .invalidUpdate(_, _, .string("b"), _) = error else { Issue.record("\(error)"); return }
        #expect(try players.all() == before)
    }

    @Test func nestedValuesAndWholeObjectsConvert() throws {
        let (_, players) = try players([["id": "a", "stats": ["hr": 3, "h": 10]]])
        struct Old: Codable { var hr: Int; var h: Int }
        struct New: Codable { var homeRuns: Int; var hits: Int }
        try players.convertField(FieldPath("stats")) { (old: Old) in New(homeRuns: old.hr, hits: old.h) }
        try players.convertField(FieldPath("stats", "hits")) { (hits: Int) in Double(hits) / 2 }
        #expect(try players.get("a") == ["id": "a", "stats": ["homeRuns": 3, "hits": 5.0]])
    }

    @Test func typedFormsUseTheModelsKeyPaths() throws {
        let store = try DocumentStore.inMemory()
        try store.collection(named: "players").insert(contentsOf: [
            ["id": "a", "birthYear": "1970", "pos": "P"], ["id": "b", "birthYear": "1980", "pos": "C"], ["id": "c"],
        ])
        var migrator = DocumentMigrator()
        migrator.registerMigration("typed") { migration in
            let players = migration.collection(ConvertedPlayer.self, named: "players")
            try players.convert(\.birthYear) { (text: String) in Int(text) }
            try players.rename("pos", to: \.position)
            try players.convert(\.position) { (code: String) in code == "P" ? ConvertedPlayer.Position.pitcher : .catcher }
        }
        let result = try #require(try migrator.migrate(store).first)
        #expect(result.changes.map(\.documentsChanged) == [2, 2, 2])
        #expect(result.changes.map(\.change) == [
            "convert birthYear from String to Optional<Int>", "rename pos to position",
            "convert position from String to Optional<Position>",
        ])
        #expect(try store.collection(ConvertedPlayer.self, named: "players").all() == [
            ConvertedPlayer(id: "a", birthYear: 1970, position: .pitcher),
            ConvertedPlayer(id: "b", birthYear: 1980, position: .catcher),
            ConvertedPlayer(id: "c", birthYear: nil, position: nil),
        ])
    }

    @Test func aUniqueIndexRefusingAConvertedValueNamesTheDocument() throws {
        let (_, players) = try players([["id": "a", "code": "x1"], ["id": "b", "code": "X1"]])
        try players.createIndex(on: FieldPath("code"), unique: true)
        let error = try #require(throws: DocStoreError.self) {
            try players.convertField(FieldPath("code")) { (code: String) in code.lowercased() }
        }
        guard case .uniqueConstraint(_, ["code"], .string("b")) = error else { Issue.record("\(error)"); return }
        #expect(try players.get("b") == ["id": "b", "code": "X1"])
    }
}
