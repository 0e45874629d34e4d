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
struct TestBattingLine: Codable, Identifiable, Equatable {
    var id: Int
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
    /// group(by:), joins, computed values and aggregates through the typed DSL:
    /// the same AST the REPL builds, run by the one pipeline, with the same
    /// answers on SQLite and on PostgreSQL.
    @Suite("Typed groups, joins and computed values")
    struct GroupDSLTests {
        static let people = [
            TestPerson(id: "aaronha01", nameFirst: "Hank", nameLast: "Aaron", birthCountry: "USA"),
            TestPerson(id: "ruthba01", nameFirst: "Babe", nameLast: "Ruth", birthCountry: "USA"),
            TestPerson(id: "ortizda01", nameFirst: "David", nameLast: "Ortiz", birthCountry: "D.R."),
        ]
        static let seasons = [
            TestBattingLine(id: 1, playerID: "aaronha01", yearID: 1957, lgID: "NL", HR: 44, H: 198, AB: 615, average: 0.322),
            TestBattingLine(id: 2, playerID: "ruthba01", yearID: 1927, lgID: "AL", HR: 60, H: 192, AB: 540),
            TestBattingLine(id: 3, playerID: "aaronha01", yearID: 1971, lgID: "NL", HR: 47, H: 162, AB: 495),
            TestBattingLine(id: 4, playerID: "ortizda01", yearID: 2006, lgID: "AL", HR: 54, H: 160, AB: 558),
            TestBattingLine(id: 5, playerID: "ruthba01", yearID: 1921, lgID: "AL", HR: 59, H: 204, AB: 540),
            TestBattingLine(id: 6, playerID: "nobody", yearID: 2006, lgID: "AL", HR: 54, H: 1, AB: 3),
        ]

        /// The batting lines and people in a new store of `backend`, for `body`.
        func withBaseball(
            _ backend: Backend,
            _ body: (BackendCollection<TestBattingLine>, BackendCollection<TestPerson>, BackendStore) async throws -> Void
        ) async throws {
            try await BackendStore.with(backend) { store async throws in
                let batting = store.collection(TestBattingLine.self, named: "batting")
                let people = store.collection(TestPerson.self, named: "people")
                try await people.insert(contentsOf: Self.people)
                try await batting.insert(contentsOf: Self.seasons)
                try await body(batting, people, store)
            }
        }

        @Test(arguments: Backend.allCases)
        func groupRowsAreTypedByLabelAndKey(backend: Backend) async throws {
            try await withBaseball(backend) { batting, _, _ async throws in
                let leaders = try await batting.query
                    .group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }
                    .sorted { $0.hr.descending }
                    .limit(3)
                    .fetch()
                #expect(leaders.map(\.playerID) == ["ruthba01", "aaronha01", "nobody"])
                let hr: [Int] = leaders.map(\.hr)
                #expect(hr == [119, 91, 54])
                #expect(leaders.map(\.seasons) == [2, 2, 1])
                // Ties (nobody and ortizda01, 54) come in key order.
                let all = try await batting.query.group(by: \.playerID) { $0.sum(\.HR) }.sorted { $0.value }.fetch()
                #expect(all.map(\.playerID) == ["nobody", "ortizda01", "aaronha01", "ruthba01"])
                let mean = try await batting.query.group(by: \.lgID) { $0.average(\.average) }.sorted { $0.lgID.descending }.first()
                #expect(mean?.value == 0.322)
            }
        }

        @Test(arguments: Backend.allCases)
        func groupRowsDecodeIntoAStruct(backend: Backend) async throws {
            try await withBaseball(backend) { batting, _, _ async throws in
                let careers = try await batting.filter { $0.yearID >= 1921 }
                    .group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }
                    .filter { $0.seasons >= 2 }
                    .fetch(as: TestCareer.self)
                #expect(careers == [TestCareer(playerID: "aaronha01", hr: 91, seasons: 2), TestCareer(playerID: "ruthba01", hr: 119, seasons: 2)])
            }
        }

        @Test(arguments: Backend.allCases)
        func twoKeysHavingAndSortByKey(backend: Backend) async throws {
            try await withBaseball(backend) { batting, _, _ async throws in
                let rows = try await batting.query
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
                #expect(try await batting.query.group(by: \.yearID, \.lgID) { $0.count() }.count() == 5)
            }
        }

        @Test(arguments: Backend.allCases)
        func computedValuesAfterAGroup(backend: Backend) async throws {
            try await withBaseball(backend) { batting, _, _ async throws in
                let careers = batting.query
                    .group(by: \.playerID) { (h: $0.sum(\.H), ab: $0.sum(\.AB)) }
                    .filter { $0.ab >= 500 }
                let query = careers
                    .select { ($0.playerID, avg: $0.h.asDouble / $0.ab.asDouble, outs: $0.ab - $0.h) }
                    .sorted { $0.avg.descending }
                    .limit(2)
                let rows = try await query.fetch()
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
        }

        @Test(arguments: Backend.allCases)
        func joinsFillTheModelsPropertyAndServeSelect(backend: Backend) async throws {
            try await withBaseball(backend) { batting, people, _ async throws in
                let leaders = try await batting.filter { $0.yearID >= 2000 }
                    .sorted { $0.HR.descending }
                    .join(people, on: \.playerID, equals: \.id, as: \.player)
                    .fetch()
                #expect(leaders.map(\.player?.nameLast) == ["Ortiz", nil])
                let byKey = try await batting.query.sorted { $0.yearID }.limit(2).join(people, onKey: \.playerID, as: \.player).fetch()
                #expect(byKey.map(\.player?.nameLast) == ["Ruth", "Ruth"])
                let names = try await batting.query.sorted { $0.yearID }.limit(3)
                    .join(people, on: \.playerID, equals: \.id, as: \.player)
                    .select { ($0.player.nameLast, $0.HR) }
                #expect(names.map(\.0) == ["Ruth", "Ruth", "Aaron"])
                #expect(names.map(\.1) == [59, 60, 44])
                let labels = try await batting.query.limit(1).select { ($0.playerID + "/" + $0.lgID, $0.HR * 2 + 1, $0.HR / 5) }
                #expect(labels.map(\.0) == ["aaronha01/NL"])
                #expect(labels.map(\.1) == [89])
                #expect(labels.map(\.2) == [8], "integers divide as in Swift")
                let byCountry = try await batting.query
                    .join(people, on: \.playerID, equals: \.id, as: \.player)
                    .filter { $0.player.birthCountry == "USA" }
                    .count()
                #expect(byCountry == 4)
            }
        }

        @Test(arguments: Backend.allCases)
        func joinsAfterAGroup(backend: Backend) async throws {
            try await withBaseball(backend) { batting, people, _ async throws in
                let leaders = batting.query.group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }
                    .sorted { $0.hr.descending }
                    .limit(3)
                    .join(people, on: \.playerID, equals: \.id, as: \.player)
                let rows = try await leaders.fetch()
                #expect(rows.map(\.player?.nameLast) == ["Ruth", "Aaron", nil])
                #expect(rows.map(\.hr) == [119, 91, 54])
                let names = try await leaders.select { ($0.player.nameLast, $0.hr) }.fetch()
                #expect(names.map(\.json) == [["player.nameLast": "Ruth", "hr": 119], ["player.nameLast": "Aaron", "hr": 91],
                                               ["player.nameLast": nil, "hr": 54]])
            }
        }

        @Test(arguments: Backend.allCases)
        func toManyJoinsFillAnArrayInKeyOrder(backend: Backend) async throws {
            try await withBaseball(backend) { batting, people, _ async throws in
                let everyone = try await people.query.sorted { $0.id }
                    .joinAll(batting, on: \.id, equals: \.playerID, as: \.seasons)
                    .fetch()
                #expect(everyone.map(\.id) == ["aaronha01", "ortizda01", "ruthba01"])
                let years: [[Int]] = everyone.map { person in person.seasons?.map(\.yearID) ?? [] }
                #expect(years == [[1957, 1971], [2006], [1927, 1921]])
            }
        }

        @Test(arguments: Backend.allCases)
        func singleAggregates(backend: Backend) async throws {
            try await withBaseball(backend) { batting, _, _ async throws in
                let total: Int = try await batting.query.sum(\.HR)
                #expect(total == 318)
                let none: Int = try await batting.filter { $0.lgID == "XX" }.sum(\.HR)
                #expect(none == 0)
                let averages: Double = try await batting.query.sum(\.average)
                #expect(averages == 0.322)
                #expect(try await batting.filter { $0.lgID == "NL" }.average(\.HR) == 45.5)
                #expect(try await batting.filter { $0.lgID == "XX" }.average(\.HR) == nil)
                #expect(try await batting.query.distinctValues(of: \.lgID) == ["AL", "NL"])
                #expect(try await batting.query.count(groupedBy: \.yearID) == [1921: 1, 1927: 1, 1957: 1, 1971: 1, 2006: 2])
                #expect(try await batting.query.count(groupedBy: \.average) == [nil: 5, 0.322: 1])
                #expect(try await batting.query.max(\.HR) == 60)
                #expect(try await batting.query.max(\.average) == 0.322)
            }
        }

        @Test(arguments: Backend.allCases)
        func aGroupedQueryRunsInAnotherTask(backend: Backend) async throws {
            try await withBaseball(backend) { batting, _, _ async throws in
                let query = batting.query.group(by: \.lgID) { (n: $0.count(), hr: $0.sum(\.HR)) }.sorted { $0.lgID }
                let counts = try await Task.detached { try await query.fetch().map(\.n) }.value
                #expect(counts == [4, 2])
            }
        }

        @Test(arguments: Backend.allCases)
        func wrongNamesAreErrorsNamingTheColumns(backend: Backend) async throws {
            try await withBaseball(backend) { batting, _, _ async throws in
                let query = batting.query.group(by: \.playerID) { (hr: $0.sum(\.HR), n: $0.count()) }.sorted { $0.yearID }
                let error = try await #require(throws: DocStoreError.self) { try await query.fetch() }
                #expect("\(error)".contains("playerID, hr"), "\(error)")
            }
        }

        @Test(arguments: Backend.allCases)
        func integerSumOverflowIsAnErrorNamingTheField(backend: Backend) async throws {
            try await withBaseball(backend) { batting, _, _ async throws in
                try await batting.insert(TestBattingLine(id: 7, playerID: "big", yearID: 1, lgID: "X", HR: Int.max, H: 0, AB: 0))
                try await batting.insert(TestBattingLine(id: 8, playerID: "big", yearID: 2, lgID: "X", HR: 1, H: 0, AB: 0))
                let error = try await #require(throws: DocStoreError.self) {
                    try await batting.query.group(by: \.playerID) { $0.sum(\.HR) }.fetch()
                }
                #expect(error.description == DocStoreError.invalidQuery(collection: "batting", field: "HR",
                                                                         reason: "the sum of these integers in a group overflows 64 bits").description)
                await #expect(throws: DocStoreError.self) { try await batting.query.sum(\.HR) }
                let product = try await #require(throws: DocStoreError.self) {
                    try await batting.filter { $0.playerID == "big" }.limit(1).select { ($0.HR * 2) }
                }
                #expect("\(product)".contains("overflows 64 bits"), "\(product)")
            }
        }

        @Test(arguments: Backend.allCases)
        func updateByQueryAndExplain(backend: Backend) async throws {
            try await withBaseball(backend) { batting, _, store async throws in
                let untyped = store.collection(named: "batting")
                let changed = try await untyped.update(DocumentQuery(.compare(FieldPath("yearID"), .greater, 1960)), [
                    .set(FieldPath("lgID"), "XL"), .increment(FieldPath("HR"), 1), .increment(FieldPath("average"), 0.5),
                    .set(FieldPath("stats", "war"), 7.5), .remove(FieldPath("AB")),
                ])
                #expect(changed == 3)
                #expect(try await untyped.get(3) == ["id": 3, "playerID": "aaronha01", "yearID": 1971, "lgID": "XL", "HR": 48, "H": 162,
                                                     "average": 0.5, "stats": ["war": 7.5]])
                #expect(try await untyped.get(1)?["lgID"] == "NL", "other documents untouched")
                // The typed block; an increment that can't apply leaves everything as it was.
                try await batting.filter { $0.id == 1 }.update { $0.HR.increment(by: 10) }
                #expect(try await batting.get(1)?.HR == 54)
                await #expect(throws: DocStoreError.self) {
                    try await untyped.update(DocumentQuery(), [.increment(FieldPath("lgID"), 1)])
                }
                #expect(try await batting.get(1)?.HR == 54)
                let explanation = try await batting.query.group(by: \.playerID) { $0.count() }.explain()
                #expect(explanation.sql.contains("GROUP BY"))
                #expect(!explanation.plan.isEmpty)
            }
        }
    }
}
