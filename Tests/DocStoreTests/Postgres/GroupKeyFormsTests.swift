import DocStorePostgres
import Foundation
import Testing
@_spi(Backends) @testable import DocStore

extension PostgresTests {
    /// Groups whose keys are equal in different forms (`2`, `2.0`, `2.00`;
    /// `[2]` and `[2.0]`; null and missing) and whose numbers tie in different
    /// forms or lie beyond Int64, three ways: SQLite, PostgreSQL and the
    /// evaluator reading values as each database does. PostgreSQL picks a
    /// key's form from the least decimals seen in the group and tells an
    /// integer sum from a real one by the exact sum's decimals and its terms'
    /// range; the random differential tests avoid integral reals (so that ties
    /// are never ambiguous), so these forms are pinned here.
    @Suite("Groups: keys and extremes equal in different forms")
    struct GroupKeyFormsTests {
        static let aggregates: [NamedAggregate] = [
            NamedAggregate("n", .count), NamedAggregate("total", .sum(FieldPath("v"))),
            NamedAggregate("mean", .average(FieldPath("v"))), NamedAggregate("least", .min(FieldPath("v"))),
            NamedAggregate("most", .max(FieldPath("v"))), NamedAggregate("kinds", .countDistinct(FieldPath("v"))),
        ]
        static let huge = JSONValue.exactNumber(JSONNumberLiteral("18446744073709551615")!)

        static let documents: [JSONValue] = [
            // 2, 2.0 and 2.00: one group, read as the integer; its numbers tie at 7 and 7.0.
            ["g": 2.0, "v": 7.0], ["g": 2, "v": 7], ["g": .exactNumber(JSONNumberLiteral("2.00")!), "v": 1],
            // Reals only: one group, a real key; the sum of 0.5 and 1.5 is the real 2.0.
            ["g": 2.5, "v": 0.5], ["g": .exactNumber(JSONNumberLiteral("2.50")!), "v": 1.5],
            // A number beyond Int64 makes the sum a real, though the exact total fits.
            ["g": 3, "v": huge], ["g": 3, "v": .exactNumber(JSONNumberLiteral("-18446744073709551615")!)], ["g": 3, "v": 5],
            // Integers (and the real -9.0, last): strings and booleans are not summed.
            ["g": "a", "v": 4], ["g": "a", "v": -9], ["g": "a", "v": "x"], ["g": "a", "v": true],
            // Arrays and objects as keys, equal on PostgreSQL when their numbers are.
            ["g": [2], "v": 1], ["g": [2.0], "v": 2], ["g": ["a": 1], "v": 3], ["g": ["a": 1.0], "v": 4],
            // Null and missing: one group.
            ["g": .null, "v": 2.25], ["v": -0.5], ["g": .null],
            ["g": true, "v": [1, 2]], ["g": true, "v": ["x": 1]],
            // Ties seen after the integer too: the greatest of 2's group and the least of "a"'s stay integers.
            ["g": 2, "v": 7.0], ["g": "a", "v": -9.0],
        ]

        /// The PostgreSQL rows, once all three agree.
        @discardableResult
        func agreeThreeWays(_ pipeline: QueryPipeline) async throws -> [JSONValue] {
            let sqliteStore = try DocumentStore.inMemory()
            let sqlite = sqliteStore.collection(named: "main")
            let keys = try await sqlite.insert(contentsOf: Self.documents)
            let keyed = zip(keys, Self.documents).map { (key: $0.0, document: $0.1) }
            let expectedSQLite = try JSONOrder.$reading.withValue(.sqlite) { try pipeline.run(on: keyed, collection: "main") }
            let expected = try JSONOrder.$reading.withValue(.postgres) { try pipeline.run(on: keyed, collection: "main") }
            let store = try await PostgresTestServer.freshStore()
            do {
                let postgres = store.collection(named: "main")
                try await postgres.insert(contentsOf: Self.documents)
                let rows = try await postgres.rows(pipeline)
                // Compared as their cases (JSONValue's == says 2 == 2.0 and [2] == [2.0]).
                #expect(Self.exact(rows) == Self.exact(expected))
                let sqliteRows = try await sqlite.rows(pipeline)
                #expect(Self.exact(sqliteRows) == Self.exact(expectedSQLite))
                await store.close()
                return rows
            } catch {
                await store.close()
                throw error
            }
        }

        /// Rows as text that tells each value's case apart, objects' members
        /// sorted, and numbers as their text reads back (`2.00` as the Double 2.0).
        static func exact(_ rows: [JSONValue]) -> [String] {
            func read(_ value: JSONValue) -> JSONValue {
                switch value {
                case .exactNumber(let literal): literal.value
                case .array(let elements): .array(elements.map(read))
                case .object(let members): .object(members.mapValues(read))
                default: value
                }
            }
            return rows.map { String(reflecting: ThreeWayPipelineDifferentialTests.sortedMembers(read($0))) }
        }

        @Test func groupsByOneKey() async throws {
            let rows = try await agreeThreeWays(QueryPipeline(stages: [.group(Grouping(keys: [FieldPath("g")], aggregates: Self.aggregates))]))
            // The key forms, spelled out (the rows are PostgreSQL's).
            let groups = rows.compactMap { row -> JSONValue? in
                guard case .object(let members) = row else { return nil }
                return members["g"]
            }
            // (JSONValue's == says 2 == 2.0: the cases are matched.)
            let twos = groups.filter { $0 == .integer(2) }
            #expect(twos.count == 1 && twos.allSatisfy { if case .integer = $0 { true } else { false } },
                    "2, 2.0 and 2.00 group as the integer 2: \(groups)")
            let halves = groups.filter { $0 == .double(2.5) }
            #expect(halves.count == 1, "2.5 and 2.50 are one group: \(groups)")
        }

        @Test func groupsByAKeyAndTheValue() async throws {
            // The value as a second key: 7 and 7.0 are one group too.
            try await agreeThreeWays(QueryPipeline(stages: [.group(Grouping(keys: [FieldPath("g"), FieldPath("v")],
                                                                            aggregates: Array(Self.aggregates.prefix(2))))]))
        }
    }
}
