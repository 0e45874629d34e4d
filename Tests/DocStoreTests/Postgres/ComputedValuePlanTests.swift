import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

extension PostgresTests {
    /// A computed value nests each operation over a one-row subquery that
    /// computes its operands once. PostgreSQL pulls such a subquery up unless
    /// it is fenced, putting each operand back wherever the operation names
    /// it: the plan then grows exponentially with the nesting, and
    /// `100.0 / Double($0.id - 50000)` over 100 000 documents took 64 s.
    @Suite("PostgreSQL: computed values' plans")
    struct ComputedValuePlanTests {
        @Test func aNestedComputationIsPlannedOnceAnOperation() async throws {
            try await PostgresTests.withStore { store in
                let racers = store.collection(Racer.self, named: "racers")
                for id in 1...3 { try await racers.insert(Racer(id: id, name: "r\(id)", number: id * 10, tags: [])) }

                // Four operations deep. (Five, the most a value may nest, kept
                // an unfenced server planning for more than ten minutes.)
                let id = ValueExpression.field(FieldPath("id"))
                var value = ValueExpression.arithmetic(.subtract, id, .literal(.integer(2)))
                value = .arithmetic(.multiply, value, .field(FieldPath("number")))
                value = .double(value)
                value = .arithmetic(.divide, .literal(.double(100)), value)
                let pipeline = QueryPipeline(stages: [.select([NamedExpression("id", id), NamedExpression("v", value)])])

                // (id - 2) * (id * 10), as a real, divides 100; nil for 0.
                let rows = try await store.rows(of: "racers", pipeline)
                let expected: [JSONValue] = [.double(100.0 / -10), .null, .double(100.0 / 30)]
                #expect(rows.map { $0["v"] } == expected, "\(rows)")

                let plan = try await store.explain(of: "racers", pipeline).plan
                let subqueries = plan.filter { $0.contains("InitPlan") || $0.contains("SubPlan") }
                // One subquery an operation over a computed operand (four
                // here), each read once; pulled up, they were 111.
                #expect(subqueries.count <= 8, "\(plan.joined(separator: "\n"))")
            }
        }

        /// A select sorted by its computed value: the sort's three terms
        /// (rank, text, number) and the value's rank each wrote the whole
        /// computation again, so it took 7x–60x a file store's time
        /// (helper-59). The value is now a column of a fenced subquery.
        @Test func aSelectSortedByItsComputedValueComputesItOnce() async throws {
            try await PostgresTests.withStore { store in
                let racers = store.collection(Racer.self, named: "racers")
                for id in 1...4 { try await racers.insert(Racer(id: id, name: "r\(id)", number: id * 10, tags: [])) }
                // 100.0 / Double(number - 2 * id): 100/8, 100/16, 100/24, 100/32.
                let value = ValueExpression.arithmetic(.divide, .literal(.double(100)), .double(.arithmetic(
                    .subtract, .field(FieldPath("number")), .arithmetic(.multiply, .literal(.integer(2)), .field(FieldPath("id"))))))
                let pipeline = QueryPipeline(stages: [
                    .select([NamedExpression("id", .field(FieldPath("id"))), NamedExpression("v", value)]),
                    .refine(DocumentQuery(.always, sort: [SortKey(FieldPath("v"), descending: true)], limit: 2)),
                ])
                let rows = try await store.rows(of: "racers", pipeline)
                #expect(rows.map { $0["id"] } == [.integer(1), .integer(2)], "\(rows)")
                #expect(rows.map { $0["v"] } == [.double(12.5), .double(6.25)], "\(rows)")

                let plan = try await store.explain(of: "racers", pipeline).plan
                let subqueries = plan.filter { $0.contains("InitPlan") || $0.contains("SubPlan") }
                // The computation's two nested subqueries, once; sorted by
                // the pulled-up value, they were 35.
                #expect(subqueries.count <= 4, "\(plan.joined(separator: "\n"))")
            }
        }
    }
}
