import Foundation
import Testing
@testable import DocStore

/// A group whose rows are filtered, sorted and limited is one `SELECT … GROUP BY
/// … HAVING … ORDER BY … LIMIT`; sorted by its keys, SQLite sorts the rows once
/// for both. The answers stay the evaluator's for keys of every JSON type.
@Suite("Groups sorted by their keys")
struct GroupSortPlanTests {
    /// Keys of every type, numbers as integers and reals that are equal (2, 2.0),
    /// strings that read like other types, and a missing key.
    static let keys: [JSONValue?] = [nil, .null, true, false, 2, 2.0, -1, 0.5, 10, "2", "true", "", "b", "B",
                                     [1], ["1"], ["a": 1], "[1]"]

    static func documents() -> [JSONValue] {
        (0..<90).map { index -> JSONValue in
            var members: [String: JSONValue] = ["n": .integer(Int64(index % 7)), "t": index % 3 == 0 ? "x" : "y"]
            if let key = keys[index % keys.count] { members["k"] = key }
            return .object(.init(uniqueKeysWithValues: members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        }
    }

    static func pipelines() -> [QueryPipeline] {
        let grouping = Grouping(keys: [FieldPath("k"), FieldPath("t")], aggregates: [
            NamedAggregate("total", .sum(FieldPath("n"))), NamedAggregate("rows", .count), NamedAggregate("most", .max(FieldPath("n"))),
        ])
        var pipelines: [QueryPipeline] = []
        for descending in [false, true] {
            for limit in [nil, 5] {
                let sort = [SortKey(FieldPath("k"), descending: descending), SortKey(FieldPath("t"), descending: !descending)]
                pipelines.append(QueryPipeline(DocumentQuery(), stages: [
                    .group(grouping),
                    .refine(DocumentQuery(.compare(FieldPath("rows"), .greaterOrEqual, 2), sort: sort, limit: limit, offset: limit.map { _ in 1 })),
                ]))
            }
        }
        // Sorted by an aggregate: merged, but the GROUP BY keeps its own order.
        pipelines.append(QueryPipeline(DocumentQuery(), stages: [
            .group(grouping), .refine(DocumentQuery(sort: [SortKey(FieldPath("total"), descending: true)], limit: 4)),
        ]))
        return pipelines
    }

    @Test("the evaluator's rows, on the documents' JSON and on field columns", arguments: [false, true])
    func answersAreTheEvaluators(fieldColumns: Bool) throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(contentsOf: Self.documents())
        if fieldColumns { _ = try docs.createFieldColumns(on: [FieldPath("k"), FieldPath("t"), FieldPath("n")]) }
        let stored = Array(zip(try docs.keys(DocumentQuery()), try docs.fetch(DocumentQuery()))).map { (key: $0.0, document: $0.1) }
        for pipeline in Self.pipelines() {
            let expected = try pipeline.run(on: stored, collection: docs.name)
            #expect(expected.count > 3, "the test's groups should be many")
            let sql = try docs.explain(pipeline).sql
            #expect(try docs.rows(pipeline) == expected, "\(sql)")
        }
    }

    @Test func sortedByItsKeysTheGroupSortsOnce() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(contentsOf: Self.documents())
        for pipeline in Self.pipelines().prefix(4) {
            let explanation = try docs.explain(pipeline)
            // One sort for the GROUP BY and the ORDER BY of the groups; the
            // statement's own final order of its few rows is the other.
            #expect(explanation.plan.filter { $0.contains("TEMP B-TREE FOR GROUP BY") }.count == 1, "\(explanation)")
            #expect(explanation.plan.filter { $0.contains("TEMP B-TREE FOR ORDER BY") }.count == 1, "\(explanation)")
            #expect(explanation.sql.contains(" HAVING "), "\(explanation.sql)")
        }
    }
}
