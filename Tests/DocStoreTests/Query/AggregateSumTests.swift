import Testing
@testable import DocStore

/// Sums and averages as each database computes them: the in-memory evaluator
/// must give what the SQL gives (found by the differential tests with seeds
/// other than CI's).
@Suite("Aggregates: sums and averages")
struct AggregateSumTests {
    static let documents: [(key: DocumentKey, document: JSONValue)] = [
        (.integer(1), ["d": .integer(.max)]),
        (.integer(2), ["d": 1]),
    ]

    /// SQLite's `avg` carries on in doubles when the integer total overflows;
    /// only `sum` fails. The evaluator used to fail the average too.
    @Test func anAverageOfIntegersPastInt64IsItsDouble() throws {
        let store = try DocumentStore.inMemory()
        let collection = store.collection(named: "t")
        try collection.insert(contentsOf: Self.documents.map(\.document))
        let query = DocumentQuery()
        let expected = JSONValue.double((Double(Int64.max) + 1) / 2)
        #expect(try collection.aggregate(query, .average(FieldPath("d"))) == expected)
        #expect(try query.aggregate(.average(FieldPath("d")), on: Self.documents) == expected)
        #expect(throws: (any Error).self) { try collection.aggregate(query, .sum(FieldPath("d"))) }
        #expect(throws: AggregateOverflow.self) { try query.aggregate(.sum(FieldPath("d")), on: Self.documents) }
    }

    /// PostgreSQL adds the decimals exactly and rounds once; SQLite adds doubles.
    @Test func postgresReadingAddsDecimalsExactly() throws {
        let values: [JSONValue] = [0.1, 0.2]
        #expect(try MirroredSum.of(values, average: false) == .double(0.1 + 0.2))
        let postgres = try JSONOrder.$reading.withValue(.postgres) { try MirroredSum.of(values, average: false) }
        #expect(postgres == .double(0.3))
        let average = try JSONOrder.$reading.withValue(.postgres) { try MirroredSum.of([1, 0.1, 0.2], average: true) }
        #expect(average == .double(1.3 / 3))
    }

    /// Integers whose running total passes Int64 on the way: SQLite's `sum`
    /// fails; PostgreSQL's exact total fits, and is the answer (checked in the
    /// REPL on both); past Int64 in the end, both fail.
    @Test func integersPassingInt64OnTheWay() throws {
        let values: [JSONValue] = [.integer(.max), 1, -1]
        #expect(throws: AggregateOverflow.self) { try MirroredSum.of(values, average: false) }
        let postgres = try JSONOrder.$reading.withValue(.postgres) { try MirroredSum.of(values, average: false) }
        #expect(postgres == .integer(.max))
        #expect(throws: AggregateOverflow.self) {
            try JSONOrder.$reading.withValue(.postgres) { try MirroredSum.of([.integer(.max), 1], average: false) }
        }
    }

    @Test(arguments: [
        (["0.1", "0.2"], 0.3),
        (["1e300", "-1e300", "1e-300"], 1e-300),
        (["-5", "2.5"], -2.5),
        (["18446744073709551615", "1"], 18446744073709551616.0),
        (["5.421010862427522e-20", "-5.421010862427522e-20"], 0),
        (["12.5", "-0.25", "1E+2"], 112.25),
        ([], 0),
    ] as [([String], Double)])
    func exactDecimalSums(terms: [String], expected: Double) {
        var sum = ExactDecimalSum()
        for term in terms { sum.add(term) }
        #expect(sum.isExact)
        #expect(sum.doubleValue == expected)
    }

    /// A number written by hand with a huge exponent isn't spelled out in
    /// digits: the sum says it isn't exact, and the caller adds doubles.
    @Test func aHugeExponentIsNotSpelledOut() throws {
        var sum = ExactDecimalSum()
        sum.add("1")
        sum.add("1e999999999")
        #expect(!sum.isExact)
        // Past a Double's range no document can hold it (see
        // NumericOverflowTests), so no stored sum meets one.
        #expect(JSONNumberLiteral("1e999999999") == nil)
    }
}
