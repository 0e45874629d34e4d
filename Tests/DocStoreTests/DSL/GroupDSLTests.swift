import Foundation
import Testing
@testable import DocStore

@Document
struct TestPerson: Codable, Identifiable, Equatable {
    var id: String
    var nameFirst: String
    var nameLast: String
    var birthCountry: String?
    /// Filled by a to-many join, never stored.
    var seasons: [TestBattingLine]? = nil
}

@Document
struct TestBattingLine: Codable, Equatable {
    var playerID: String
    var yearID: Int
    var lgID: String
    var HR: Int
    var H: Int
    var AB: Int
    var average: Double?
    /// Filled by a join, never stored.
    var player: TestPerson? = nil
}

/// TestCareer totals decoded from group rows.
struct TestCareer: Decodable, Equatable {
    var playerID: String
    var hr: Int
    var seasons: Int
}

extension DSLTests {
    /// group(by:), joins and computed values through the typed DSL: the same AST
    /// the REPL builds, run by the one pipeline.
    @Suite("Typed groups, joins and computed values")
    struct GroupDSLTests {
        let store: DocumentStore
        let batting: DocumentCollection<TestBattingLine>
        let people: DocumentCollection<TestPerson>

        init() throws {
            store = try DocumentStore.inMemory()
            batting = store.collection(TestBattingLine.self, named: "batting")
            people = store.collection(TestPerson.self, named: "people")
            try people.insert(contentsOf: [
                TestPerson(id: "aaronha01", nameFirst: "Hank", nameLast: "Aaron", birthCountry: "USA"),
                TestPerson(id: "ruthba01", nameFirst: "Babe", nameLast: "Ruth", birthCountry: "USA"),
                TestPerson(id: "ortizda01", nameFirst: "David", nameLast: "Ortiz", birthCountry: "D.R."),
            ])
            try batting.insert(contentsOf: [
                TestBattingLine(playerID: "aaronha01", yearID: 1957, lgID: "NL", HR: 44, H: 198, AB: 615, average: 0.322),
                TestBattingLine(playerID: "ruthba01", yearID: 1927, lgID: "AL", HR: 60, H: 192, AB: 540),
                TestBattingLine(playerID: "aaronha01", yearID: 1971, lgID: "NL", HR: 47, H: 162, AB: 495),
                TestBattingLine(playerID: "ortizda01", yearID: 2006, lgID: "AL", HR: 54, H: 160, AB: 558),
                TestBattingLine(playerID: "ruthba01", yearID: 1921, lgID: "AL", HR: 59, H: 204, AB: 540),
                TestBattingLine(playerID: "nobody", yearID: 2006, lgID: "AL", HR: 54, H: 1, AB: 3),
            ])
        }

        @Test func groupRowsAreTypedByLabelAndKey() throws {
            let leaders = try batting.query
                .group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }
                .sorted { $0.hr.descending }
                .limit(3)
                .fetch()
            #expect(leaders.map(\.playerID) == ["ruthba01", "aaronha01", "nobody"])
            let hr: [Int] = leaders.map(\.hr)
            #expect(hr == [119, 91, 54])
            #expect(leaders.map(\.seasons) == [2, 2, 1])
            // Ties (nobody and ortizda01, 54) come in key order.
            let all = try batting.query.group(by: \.playerID) { $0.sum(\.HR) }.sorted { $0.value }.fetch()
            #expect(all.map(\.playerID) == ["nobody", "ortizda01", "aaronha01", "ruthba01"])
        }

        @Test func groupRowsDecodeIntoAStruct() throws {
            let careers = try batting.filter { $0.yearID >= 1921 }
                .group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }
                .filter { $0.seasons >= 2 }
                .fetch(as: TestCareer.self)
            #expect(careers == [TestCareer(playerID: "aaronha01", hr: 91, seasons: 2), TestCareer(playerID: "ruthba01", hr: 119, seasons: 2)])
        }

        @Test func twoKeysHavingAndSortByKey() throws {
            let rows = try batting.query
                .group(by: \.yearID, \.lgID) { (n: $0.count(), best: $0.max(\.HR), mean: $0.average(\.average)) }
                .filter { $0.n >= 1 }
                .sorted { $0.yearID.descending; $0.lgID }
                .limit(2)
                .fetch()
            #expect(rows.map(\.yearID) == [2006, 1971])
            let best: [Int?] = rows.map(\.best)
            #expect(best == [54, 47])
            #expect(rows.map(\.n) == [2, 1])
            #expect(rows.map(\.mean) == [nil, nil])
            #expect(try batting.query.group(by: \.yearID, \.lgID) { $0.count() }.count() == 5)
        }

        @Test func computedValuesAfterAGroup() throws {
            let careers = batting.query
                .group(by: \.playerID) { (h: $0.sum(\.H), ab: $0.sum(\.AB)) }
                .filter { $0.ab >= 500 }
            let query = careers
                .select { ($0.playerID, avg: $0.h.asDouble / $0.ab.asDouble, outs: $0.ab - $0.h) }
                .sorted { $0.avg.descending }
                .limit(2)
            let rows = try query.fetch()
            #expect(rows.map(\.playerID) == ["ruthba01", "aaronha01"])
            let averages: [Double] = rows.map(\.avg)
            #expect(averages == [396.0 / 1080.0, 360.0 / 1110.0])
            let outs: [Int] = rows.map(\.outs)
            #expect(outs == [684, 750])
            // The REPL's line builds the same AST.
            let pipeline = try query.queryPipeline()
            guard case .select(let items) = pipeline.stages[2] else { Issue.record("no select stage"); return }
            #expect(items[1] == NamedExpression("avg", .arithmetic(.divide, .double(.field(FieldPath("h"))), .double(.field(FieldPath("ab"))))))
        }

        @Test func joinsFillTheModelsPropertyAndServeSelect() throws {
            let leaders = try batting.filter { $0.yearID >= 2000 }
                .sorted { $0.HR.descending }
                .join(people, on: \.playerID, equals: \.id, as: \.player)
                .fetch()
            #expect(leaders.map(\.player?.nameLast) == ["Ortiz", nil])
            let names = try batting.query.sorted { $0.yearID }.limit(3)
                .join(people, on: \.playerID, equals: \.id, as: \.player)
                .select { ($0.player.nameLast, $0.HR) }
            #expect(names.map(\.0) == ["Ruth", "Ruth", "Aaron"])
            #expect(names.map(\.1) == [59, 60, 44])
            let labels = try batting.query.limit(1).select { ($0.playerID + "/" + $0.lgID, $0.HR * 2 + 1) }
            #expect(labels.map(\.0) == ["aaronha01/NL"])
            #expect(labels.map(\.1) == [89])
            let byCountry = try batting.query
                .join(people, on: \.playerID, equals: \.id, as: \.player)
                .filter { $0.player.birthCountry == "USA" }
                .count()
            #expect(byCountry == 4)
        }

        @Test func joinsAfterAGroup() throws {
            let leaders = batting.query.group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }
                .sorted { $0.hr.descending }
                .limit(3)
                .join(people, on: \.playerID, equals: \.id, as: \.player)
            let rows = try leaders.fetch()
            #expect(rows.map(\.player?.nameLast) == ["Ruth", "Aaron", nil])
            #expect(rows.map(\.hr) == [119, 91, 54])
            let names = try leaders.select { ($0.player.nameLast, $0.hr) }.fetch()
            #expect(names.map(\.json) == [["player.nameLast": "Ruth", "hr": 119], ["player.nameLast": "Aaron", "hr": 91],
                                           ["player.nameLast": nil, "hr": 54]])
        }

        @Test func toManyJoinsFillAnArrayInKeyOrder() throws {
            let people = try self.people.query.sorted { $0.id }
                .joinAll(batting, on: \.id, equals: \.playerID, as: \.seasons)
                .fetch()
            #expect(people.map(\.id) == ["aaronha01", "ortizda01", "ruthba01"])
            #expect(people.map { $0.seasons?.map(\.yearID) ?? [] } == [[1957, 1971], [2006], [1927, 1921]])
        }

        @Test func aGroupedQueryRunsInAnotherTask() async throws {
            let query = batting.query.group(by: \.lgID) { (n: $0.count(), hr: $0.sum(\.HR)) }.sorted { $0.lgID }
            let counts = try await Task.detached { try query.fetch().map(\.n) }.value
            #expect(counts == [4, 2])
        }

        @Test func wrongNamesAreErrorsNamingTheColumns() throws {
            let query = batting.query.group(by: \.playerID) { (hr: $0.sum(\.HR), n: $0.count()) }.sorted { $0.yearID }
            #expect(throws: DocStoreError.self) { try query.fetch() }
            do {
                _ = try query.fetch()
            } catch {
                #expect("\(error)".contains("playerID, hr"), "\(error)")
            }
        }

        @Test func integerSumOverflowIsAnErrorNamingTheField() throws {
            try batting.insert(TestBattingLine(playerID: "big", yearID: 1, lgID: "X", HR: Int.max, H: 0, AB: 0))
            try batting.insert(TestBattingLine(playerID: "big", yearID: 2, lgID: "X", HR: 1, H: 0, AB: 0))
            let query = batting.query.group(by: \.playerID) { $0.sum(\.HR) }
            #expect(throws: DocStoreError.self) { try query.fetch() }
            do {
                _ = try query.fetch()
            } catch {
                #expect("\(error)".contains("HR") && "\(error)".contains("batting"), "\(error)")
            }
            let product = batting.query.filter { $0.playerID == "big" }.limit(1)
            #expect(throws: DocStoreError.self) { _ = try product.select { ($0.HR * 2) } }
        }
    }
}
