import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

@Document
struct PGPerson: Codable, Identifiable, Equatable, Sendable {
    var id: String
    var nameLast: String
    var birthCountry: String?
    /// Filled by a to-many join, never stored.
    var seasons: [PGSeason]? = nil
}

@Document
struct PGSeason: Codable, Identifiable, Equatable, Sendable {
    var id: Int
    var playerID: String
    var yearID: Int
    var lgID: String
    var HR: Int
    var H: Int
    var AB: Int
    var average: Double?
    /// Filled by a join, never stored.
    var player: PGPerson? = nil
}

extension PostgresTests {
    /// Groups, joins, computed values, aggregates and update-by-query through
    /// the typed DSL on PostgreSQL: the same closures as on SQLite, the same
    /// answers (the SQLite side of each answer is in DSL/GroupDSLTests).
    @Suite("PostgreSQL: typed groups, joins, computed values and updates")
    struct PipelineTests {
        static let people = [
            PGPerson(id: "aaronha01", nameLast: "Aaron", birthCountry: "USA"),
            PGPerson(id: "ruthba01", nameLast: "Ruth", birthCountry: "USA"),
            PGPerson(id: "ortizda01", nameLast: "Ortiz", birthCountry: "D.R."),
        ]
        static let seasons = [
            PGSeason(id: 1, playerID: "aaronha01", yearID: 1957, lgID: "NL", HR: 44, H: 198, AB: 615, average: 0.322),
            PGSeason(id: 2, playerID: "ruthba01", yearID: 1927, lgID: "AL", HR: 60, H: 192, AB: 540),
            PGSeason(id: 3, playerID: "aaronha01", yearID: 1971, lgID: "NL", HR: 47, H: 162, AB: 495),
            PGSeason(id: 4, playerID: "ortizda01", yearID: 2006, lgID: "AL", HR: 54, H: 160, AB: 558),
            PGSeason(id: 5, playerID: "ruthba01", yearID: 1921, lgID: "AL", HR: 59, H: 204, AB: 540),
            PGSeason(id: 6, playerID: "nobody", yearID: 2006, lgID: "AL", HR: 54, H: 1, AB: 3),
        ]

        /// Runs `body` with the two collections filled, on a new database.
        static func withBaseball(
            _ body: (PostgresCollection<PGSeason>, PostgresCollection<PGPerson>, PostgresDocumentStore) async throws -> Void
        ) async throws {
            try await PostgresTests.withStore { store in
                let batting = store.collection(PGSeason.self, named: "batting")
                let people = store.collection(PGPerson.self, named: "people")
                try await people.insert(contentsOf: Self.people)
                try await batting.insert(contentsOf: Self.seasons)
                try await body(batting, people, store)
            }
        }

        @Test func groupRowsAreTypedByLabelAndKey() async throws {
            try await Self.withBaseball { batting, _, _ in
                let leaders = try await batting.query
                    .group(by: \.playerID) { (hr: $0.sum(\.HR), seasons: $0.count()) }
                    .sorted { $0.hr.descending }
                    .limit(3)
                    .fetch()
                #expect(leaders.map(\.playerID) == ["ruthba01", "aaronha01", "nobody"])
                let hr: [Int] = leaders.map(\.hr)
                #expect(hr == [119, 91, 54])
                #expect(leaders.map(\.seasons) == [2, 2, 1])
                let all = try await batting.query.group(by: \.playerID) { $0.sum(\.HR) }.sorted { $0.value }.fetch()
                #expect(all.map(\.playerID) == ["nobody", "ortizda01", "aaronha01", "ruthba01"])
                let rows = try await batting.query
                    .group(by: \.yearID, \.lgID) { (n: $0.count(), best: $0.max(\.HR), mean: $0.average(\.average)) }
                    .filter { $0.n >= 1 }
                    .sorted { $0.yearID.descending; $0.lgID }
                    .limit(2)
                    .fetch()
                #expect(rows.map(\.yearID) == [2006, 1971])
                #expect(rows.map(\.best) == [54, 47])
                #expect(rows.map(\.n) == [2, 1])
                #expect(rows.map(\.mean) == [nil, nil])
                #expect(try await batting.query.group(by: \.yearID, \.lgID) { $0.count() }.count() == 5)
                let mean = try await batting.query.group(by: \.lgID) { $0.average(\.average) }.sorted { $0.lgID.descending }.first()
                #expect(mean?.value == 0.322)
            }
        }

        @Test func computedValuesAfterAGroup() async throws {
            try await Self.withBaseball { batting, _, _ in
                let careers = batting.query
                    .group(by: \.playerID) { (h: $0.sum(\.H), ab: $0.sum(\.AB)) }
                    .filter { $0.ab >= 500 }
                let selected = careers.select { ($0.playerID, avg: $0.h.asDouble / $0.ab.asDouble, outs: $0.ab - $0.h) }
                let rows = try await selected.sorted { $0.avg.descending }.limit(2).fetch()
                #expect(rows.map(\.playerID) == ["ruthba01", "aaronha01"])
                let averages: [Double] = rows.map(\.avg)
                #expect(averages == [396.0 / 1080.0, 360.0 / 1110.0])
                let outs: [Int] = rows.map(\.outs)
                #expect(outs == [684, 750])
            }
        }

        @Test func joinsToOneToManyAndBySelect() async throws {
            try await Self.withBaseball { batting, people, _ in
                let recent = try await batting.filter { $0.yearID >= 2000 }
                    .sorted { $0.HR.descending }
                    .join(people, on: \.playerID, equals: \.id, as: \.player)
                    .fetch()
                #expect(recent.map(\.player?.nameLast) == ["Ortiz", nil])
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
                #expect(labels.map(\.2) == [8])
                let usa = try await batting.query.join(people, on: \.playerID, equals: \.id, as: \.player)
                    .filter { $0.player.birthCountry == "USA" }.count()
                #expect(usa == 4)
                let everyone = try await people.query.sorted { $0.id }
                    .joinAll(batting, on: \.id, equals: \.playerID, as: \.seasons)
                    .fetch()
                let years: [[Int]] = everyone.map { person in person.seasons?.map(\.yearID) ?? [] }
                #expect(years == [[1957, 1971], [2006], [1927, 1921]])
                let leaders = batting.query.group(by: \.playerID) { (hr: $0.sum(\.HR), n: $0.count()) }
                    .sorted { $0.hr.descending }.limit(3)
                let grouped = try await leaders.join(people, on: \.playerID, equals: \.id, as: \.player).fetch()
                #expect(grouped.map(\.player?.nameLast) == ["Ruth", "Aaron", nil])
            }
        }

        @Test func singleAggregates() async throws {
            try await Self.withBaseball { batting, _, _ in
                let total: Int = try await batting.query.sum(\.HR)
                #expect(total == 318)
                let none: Int = try await batting.filter { $0.lgID == "XX" }.sum(\.HR)
                #expect(none == 0)
                let averages: Double = try await batting.query.sum(\.average)
                #expect(averages == 0.322)
                let mean: Double? = try await batting.filter { $0.lgID == "NL" }.average(\.HR)
                #expect(mean == 45.5)
                let noMean: Double? = try await batting.filter { $0.lgID == "XX" }.average(\.HR)
                #expect(noMean == nil)
                let leagues: [String] = try await batting.query.distinctValues(of: \.lgID)
                #expect(leagues == ["AL", "NL"])
                let perYear: [Int: Int] = try await batting.query.count(groupedBy: \.yearID)
                #expect(perYear == [1921: 1, 1927: 1, 1957: 1, 1971: 1, 2006: 2])
                let perAverage: [Double?: Int] = try await batting.query.count(groupedBy: \.average)
                #expect(perAverage == [nil: 5, 0.322: 1])
                let most: Int? = try await batting.query.max(\.HR)
                #expect(most == 60)
            }
        }

        @Test func integerOverflowIsAnErrorNamingTheField() async throws {
            try await Self.withBaseball { batting, _, _ in
                try await batting.insert(PGSeason(id: 7, playerID: "big", yearID: 1, lgID: "X", HR: Int.max, H: 0, AB: 0))
                try await batting.insert(PGSeason(id: 8, playerID: "big", yearID: 2, lgID: "X", HR: 1, H: 0, AB: 0))
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

        @Test func updateByQueryMatchesSQLite() async throws {
            try await Self.withBaseball { batting, _, store in
                let sqliteStore = try DocumentStore.inMemory()
                let sqlite = sqliteStore.collection(named: "batting")
                let documents = try Self.seasons.map { try DocumentCodec.decode(JSONValue.self, from: DocumentCodec.encode($0)) }
                try await sqlite.insert(contentsOf: documents)
                let changes: [FieldUpdate] = [
                    .set(FieldPath("lgID"), "XL"), .increment(FieldPath("HR"), 1), .increment(FieldPath("average"), 0.5),
                    .set(FieldPath("stats", "war"), 7.5), .remove(FieldPath("AB")),
                ]
                let query = DocumentQuery(.compare(FieldPath("yearID"), .greater, 1960))
                let changedHere = try await batting.update(query, changes)
                let changedThere = try await sqlite.update(query, changes)
                #expect(changedHere == 3 && changedThere == 3)
                let untyped = store.collection(named: "batting")
                #expect(try await untyped.all().map(Self.sorted) == (try await sqlite.fetch(DocumentQuery())).map(Self.sorted))
                // The typed block, and an increment that can't apply leaves everything as it was.
                try await batting.filter { $0.id == 1 }.update { $0.HR.increment(by: 10) }
                #expect(try await batting.get(1)?.HR == 54)
                await #expect(throws: DocStoreError.self) {
                    try await untyped.update(DocumentQuery(), [.increment(FieldPath("lgID"), 1)])
                }
                #expect(try await batting.get(1)?.HR == 54)
            }
        }

        @Test func explainShowsTheSQLAndPlan() async throws {
            try await Self.withBaseball { batting, _, store in
                let explanation = try await batting.query.group(by: \.playerID) { $0.count() }.explain()
                #expect(explanation.sql.contains("GROUP BY"))
                #expect(!explanation.plan.isEmpty)
                let rows = try await store.rows(of: "batting", QueryPipeline(stages: [
                    .group(Grouping(keys: [FieldPath("lgID")], aggregates: [NamedAggregate("hr", .sum(FieldPath("HR")))])),
                ]))
                #expect(rows == [["lgID": "AL", "hr": 227], ["lgID": "NL", "hr": 91]])
            }
        }

        static func sorted(_ value: JSONValue) -> JSONValue {
            ThreeWayPipelineDifferentialTests.sortedMembers(value)
        }
    }
}
