import DocStorePostgres
import Foundation
import Testing
@testable import DocStore

extension PostgresTests {
    /// A sorted and limited stage of a pipeline numbers its rows with
    /// `row_number()`, which later stages order by. Numbered before the limit,
    /// the window hid the limit from the sort beneath it: every row was sorted
    /// (a `limit(3)` of 100 000 documents took 0.45 s on the server). The
    /// limit is now taken first, and only its rows are numbered.
    @Suite("PostgreSQL: a sorted limit's plan")
    struct SortedLimitPlanTests {
        @Test func theLimitIsTakenBeforeTheRowsAreNumbered() async throws {
            try await PostgresTests.withStore { store in
                let racers = store.collection(Racer.self, named: "racers")
                // Numbers 0…4, six racers each: ties, which keys break.
                try await racers.insert(contentsOf: (1...30).map { Racer(id: $0, name: "r\($0)", number: $0 % 5, tags: []) })
                let pipeline = QueryPipeline(stages: [
                    .refine(DocumentQuery(.always, sort: [SortKey(FieldPath("number"), descending: true)], limit: 4, offset: 1)),
                    .select([NamedExpression("id", .field(FieldPath("id"))), NamedExpression("n", .field(FieldPath("number")))]),
                ])
                // Number 4: racers 4, 9, 14, 19, 24, 29; the first skipped.
                let rows = try await store.rows(of: "racers", pipeline)
                #expect(rows.map { $0["id"] } == [9, 14, 19, 24].map { JSONValue.integer($0) }, "\(rows)")
                #expect(rows.allSatisfy { $0["n"] == .integer(4) }, "\(rows)")

                // The plan's Limit is beneath its WindowAgg: the sort under
                // the limit may keep only the first rows.
                let plan = try await store.explain(of: "racers", pipeline).plan
                let window = plan.firstIndex { $0.contains("WindowAgg") }
                let limit = plan.firstIndex { $0.contains("Limit") }
                #expect(window != nil && limit != nil && window! < limit!, "\(plan.joined(separator: "\n"))")
            }
        }
    }
}
