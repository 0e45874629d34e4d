import Foundation
import Testing
@testable import DocStore
import DocStorePostgres

@Document
struct FileDigest: Codable, Identifiable, Equatable {
    var id: Int
    var digest: UInt64
    var label: String
}

/// A delete or update by query on a file store never takes a document its
/// condition doesn't mean: SQLite reads a number a Double can't hold as that
/// Double and a string only up to a NUL, so such a write is refused, through
/// the Swift API as in the REPL, and nothing changes.
@Suite("Fault: writes comparing values SQLite reads inexactly, through the Swift API")
struct InexactComparisonWriteTests {
    static let big: UInt64 = 18_446_744_073_709_551_615   // UInt64.max: the Double 2^64
    static let neighbour: UInt64 = 18_446_744_073_709_551_614

    func digests() throws -> DocumentCollection<FileDigest> {
        let digests = try DocumentStore.inMemory().collection(FileDigest.self, named: "digests")
        try digests.insert(contentsOf: [
            FileDigest(id: 1, digest: Self.big, label: "a"),
            FileDigest(id: 2, digest: Self.neighbour, label: "b"),
            FileDigest(id: 3, digest: 7, label: "c"),
        ])
        return digests
    }

    /// Reads the reason of an `invalidQuery`, or records what else was thrown.
    func reason(_ body: () throws -> Int) -> String {
        do {
            let count = try body()
            Issue.record("the write ran and changed \(count) documents")
        } catch DocStoreError.invalidQuery(_, _, let reason) {
            return reason
        } catch {
            Issue.record("expected invalidQuery, got \(error)")
        }
        return ""
    }

    @Test func aComparisonWithANumberADoubleRoundsIsRefused() throws {
        let digests = try digests()
        // As a read it matches both (documented); as a delete it would take both.
        #expect(try digests.filter { $0.digest == Self.neighbour }.count() == 2)
        let refused = reason { try digests.delete { $0.digest == Self.neighbour } }
        #expect(refused.contains("18446744073709551614 is past what a Double holds exactly"), "\(refused)")
        #expect(try digests.count() == 3)
        let update = reason { try digests.filter { $0.digest.in([Self.neighbour]) }.update { $0.label.set(to: "x") } }
        #expect(update.contains("so this update is refused"), "\(update)")
        #expect(try digests.get(1)?.label == "a")
    }

    @Test func aStoredNumberADoubleRoundsStopsTheWriteNamingItsDocument() throws {
        let digests = try digests()
        // 18 * 10^18 is a Double exactly, so the condition is fine; documents 1
        // and 2 hold numbers that read as 2^64.
        let threshold: UInt64 = 18_000_000_000_000_000_000
        let refused = reason { try digests.delete { $0.digest >= threshold } }
        #expect(refused.contains(#"document 1 of "digests" holds 18446744073709551615 in digest, a number a Double can't hold: a file store compares it as 1.8446744073709552e+19"#),
                "\(refused)")
        #expect(try digests.count() == 3)
        // A write that selects neither runs.
        #expect(try digests.delete { $0.digest == 7 } == 1)
        #expect(try digests.count() == 2)
    }

    @Test func aStringWithNULInTheConditionIsRefused() throws {
        let notes = try DocumentStore.inMemory().collection(named: "notes")
        try notes.insert(contentsOf: [["id": 1, "s": "a"], ["id": 2, "s": "abc"]])
        for condition: Condition in [.compare(FieldPath("s"), .equal, "a\u{0}b"), .string(FieldPath("s"), .hasPrefix, "a\u{0}x", caseInsensitive: false),
                                     .isIn(FieldPath("s"), ["z", "a\u{0}"])] {
            let refused = reason { try notes.delete(DocumentQuery(condition)) }
            #expect(refused.contains(#"holds NUL (\u0000), and queries compare a string only up to it, as "a""#), "\(refused)")
        }
        #expect(try notes.count() == 2)
    }

    @Test func aStoredStringWithNULStopsTheWrite() throws {
        let notes = try DocumentStore.inMemory().collection(named: "notes")
        try notes.insert(contentsOf: [["id": 1, "s": "a\u{0}b"], ["id": 2, "s": "a"], ["id": 3, "s": "b"]])
        // SQLite reads "a\u0000b" as "a": the delete would take documents 1 and 2.
        let refused = reason { try notes.delete(DocumentQuery(.compare(FieldPath("s"), .equal, "a"))) }
        #expect(refused.contains(#"document 1 of "notes" holds "a\u0000b" in s, a string with NUL (\u0000) in it: a file store compares it only up to the NUL, as "a""#),
                "\(refused)")
        #expect(try notes.count() == 3)
        // Not selected: a write elsewhere in the collection runs.
        #expect(try notes.delete(DocumentQuery(.compare(FieldPath("s"), .equal, "b"))) == 1)
    }

    @Test func insideATransactionTheRefusedWriteChangesNothingAndTheRestCommits() throws {
        let store = try DocumentStore.inMemory()
        let digests = store.collection(FileDigest.self, named: "digests")
        try digests.insert(contentsOf: [FileDigest(id: 1, digest: Self.big, label: "a"), FileDigest(id: 2, digest: 7, label: "b")])
        try store.write { transaction in
            let inside = transaction.collection(FileDigest.self, named: "digests")
            try inside.insert(FileDigest(id: 3, digest: 8, label: "c"))
            _ = reason { try inside.delete { $0.digest > 6 } }
        }
        #expect(try digests.count() == 3)
    }

    @Test func aSubqueryOverARoundedNumberIsRefused() throws {
        let store = try DocumentStore.inMemory()
        let docs = store.collection(named: "docs")
        try docs.insert(contentsOf: [["id": 1, "v": .double(18_446_744_073_709_551_616.0)], ["id": 2, "v": 7]])
        let seen = store.collection(named: "seen")
        try seen.insert(["id": 1, "v": .exactNumber(try #require(JSONNumberLiteral("18446744073709551615")))])
        // The subquery's 18446744073709551615 reads as 2^64, the Double document 1 holds.
        let query = DocumentQuery(.isInSubquery(FieldPath("v"), Subquery(collection: "seen", condition: .always, field: FieldPath("v"))))
        #expect(try docs.count(query) == 1, "as a read, SQLite matches them")
        let refused = reason { try docs.delete(query) }
        #expect(refused.contains(#"document 1 of "seen" (read by the subquery) holds 18446744073709551615 in v"#), "\(refused)")
        #expect(try docs.count() == 2)
    }

    static func exact(_ text: String) throws -> JSONValue {
        .exactNumber(try #require(JSONNumberLiteral(text)))
    }

    /// A sort and limit pick among every document the condition could match:
    /// a tie with a document read inexactly, selected or not, took the other
    /// (helper-51); so did one the condition missed only because it reads 1e-400 as 0.
    @Test func aLimitedWriteChecksEveryDocumentTheSortPicksAmong() throws {
        let store = try DocumentStore.inMemory()
        let tied = store.collection(named: "tied")
        try tied.insert(contentsOf: [["id": 1, "v": .double(18_446_744_073_709_551_616.0)], ["id": 2, "v": try Self.exact("18446744073709551615")],
                                     ["id": 3, "v": 5]])
        var query = DocumentQuery(.compare(FieldPath("v"), .greater, 10))
        query.sort = [SortKey(FieldPath("v"))]
        query.limit = 1
        let refused = reason { try tied.delete(query) }
        #expect(refused.contains(#"document 2 of "tied" holds 18446744073709551615 in v"#), "\(refused)")
        _ = reason { try tied.update(query, [.set(FieldPath("mark"), true)]) }
        #expect(try tied.count() == 3 && tied.count(DocumentQuery(.exists(FieldPath("mark")))) == 0)

        let missed = store.collection(named: "missed")
        try missed.insert(contentsOf: [["id": 1, "v": try Self.exact("1e-400")], ["id": 2, "v": 5]])
        var smallest = DocumentQuery(.compare(FieldPath("v"), .greater, 0))
        smallest.sort = [SortKey(FieldPath("v"))]
        smallest.limit = 1
        #expect(try missed.keys(smallest) == [.integer(2)], "SQLite reads 1e-400 as 0: not matched")
        let alsoRefused = reason { try missed.delete(smallest) }
        #expect(alsoRefused.contains("document 1 of \"missed\" holds 1e-400 in v"), "\(alsoRefused)")
        #expect(try missed.count() == 2)
    }

    /// The search index reads a text only up to its NUL: ordered by relevance
    /// and limited, a delete took the document with one "home" instead of the
    /// one holding it three times after a NUL (helper-52).
    @Test func aLimitedWriteByRelevanceChecksTheSearchedField() throws {
        let notes = try DocumentStore.inMemory().collection(named: "notes")
        try notes.insert(contentsOf: [["id": 1, "text": "run\u{0}home home home"], ["id": 2, "text": "home run derby tonight"]])
        try notes.createSearchIndex(on: FieldPath("text"))
        let query = DocumentQuery(limit: 1, relevance: SearchRelevance(field: FieldPath("text"), text: "home"))
        #expect(try notes.keys(query) == [.integer(2)], "the index ranks the cut text")
        let refused = reason { try notes.delete(query) }
        #expect(refused.contains(#"document 1 of "notes" holds "run\u0000home home home" in text"#), "\(refused)")
        #expect(try notes.count() == 2)
    }

    /// `!x.in(subquery)` takes the outer documents a subquery leaves out:
    /// one it misses only because it reads a value inexactly is checked too.
    @Test func aSubqueryIsCheckedOverEveryDocumentOfItsCollection() throws {
        let store = try DocumentStore.inMemory()
        let other = store.collection(named: "other")
        try other.insert(["id": 1, "w": try Self.exact("1e-400"), "v": 7])
        let docs = store.collection(named: "docs")
        try docs.insert(contentsOf: [["id": 1, "x": 7], ["id": 2, "x": 8]])
        let subquery = Subquery(collection: "other", condition: .compare(FieldPath("w"), .greater, 0), field: FieldPath("v"))
        let refused = reason { try docs.delete(DocumentQuery(.not(.isInSubquery(FieldPath("x"), subquery)))) }
        #expect(refused.contains(#"document 1 of "other" (read by the subquery) holds 1e-400 in w"#), "\(refused)")
        #expect(try docs.count() == 2)
    }

    /// An increment reads the number as a Double: `+= 0` rounded it.
    @Test func anIncrementOfANumberADoubleRoundsIsRefused() throws {
        let docs = try DocumentStore.inMemory().collection(named: "docs")
        try docs.insert(contentsOf: [["id": 1, "d": try Self.exact("0.30000000000000000001")], ["id": 2, "d": 1]])
        do {
            _ = try docs.update(DocumentQuery(), [.increment(FieldPath("d"), 0)])
            Issue.record("the increment ran")
        } catch DocStoreError.invalidUpdate(_, let field, let key, let reason) {
            #expect(field == "d" && key == .integer(1) && reason.contains("an increment adds to it as 0.3"), "\(reason)")
        }
        #expect(try docs.get(1)?["d"] == (try Self.exact("0.30000000000000000001")))
        #expect(try docs.get(2)?["d"] == 1)
    }

    /// 2^64 and 2^63 are Doubles exactly, however written: compared as
    /// themselves, they stop nothing (helper-51: both were refused).
    @Test func numbersADoubleHoldsExactlyAreNotRefused() throws {
        let docs = try DocumentStore.inMemory().collection(named: "docs")
        try docs.insert(contentsOf: [["id": 1, "v": try Self.exact("18446744073709551616")], ["id": 2, "v": 3],
                                     ["id": 3, "v": .double(9_223_372_036_854_775_808.0)]])
        #expect(try docs.delete(DocumentQuery(.compare(FieldPath("v"), .equal, try Self.exact("9.223372036854775808e18")))) == 1)
        #expect(try docs.delete(DocumentQuery(.compare(FieldPath("v"), .greater, 10))) == 1)
        #expect(try docs.keys() == [.integer(2)])
    }

    @Test(arguments: [("1e-400", true), ("18446744073709551615", true), ("0.30000000000000000001", true), ("-9223372036854775809", true),
                      ("18446744073709551616", false), ("9.223372036854775808e18", false), ("1e20", false), ("0.5", false),
                      ("0.1000000000000000055511151231257827021181583404541015625", false), ("9007199254740993", false)])
    func whichNumbersSQLiteReadsRounded(text: String, rounded: Bool) throws {
        #expect(try #require(JSONNumberLiteral(text)).isReadRounded == rounded)
    }

    /// Random documents holding rounded numbers, NUL strings and plain values,
    /// random comparisons: a delete either is refused and changes nothing, or
    /// takes only documents that its condition selects when compared exactly.
    @Test func randomDeletesNeverTakeADocumentTheirConditionDoesNotMean() throws {
        var rng = SeededGenerator(seed: 20261128)
        let numbers: [JSONValue] = [.integer(0), .integer(7), .double(0.5), .double(1e20), .integer(Int64.max)]
            + ["18446744073709551615", "18446744073709551614", "100000000000000000001", "1e-400", "0.30000000000000000001"]
                .compactMap { JSONNumberLiteral($0).map(JSONValue.exactNumber) }
        let strings: [JSONValue] = ["", "a", "a\u{0}b", "a\u{0}c", "b", "\u{0}"]
        let pool = numbers + strings
        var refusals = 0, deletes = 0
        for _ in 0..<300 {
            let store = try DocumentStore.inMemory()
            let docs = store.collection(named: "docs")
            let values = (1...8).map { _ in pool[Int.random(in: 0..<pool.count, using: &rng)] }
            try docs.insert(contentsOf: values.enumerated().map { ["id": .integer(Int64($0.offset)), "v": $0.element] })
            let literal = pool[Int.random(in: 0..<pool.count, using: &rng)]
            let op = ComparisonOperator.allCases[Int.random(in: 0..<ComparisonOperator.allCases.count, using: &rng)]
            let query = DocumentQuery(.compare(FieldPath("v"), op, literal))
            do {
                _ = try docs.delete(query)
                deletes += 1
            } catch DocStoreError.invalidQuery {
                refusals += 1
                #expect(try docs.count() == values.count, "a refused delete changed nothing")
                continue
            }
            let left = Set(try docs.keys().map { key -> Int in if case .integer(let id) = key { Int(id) } else { -1 } })
            for (id, value) in values.enumerated() where !left.contains(id) {
                #expect(Self.exactlySelects(op, value, literal), "deleted \(value) for v \(op.rawValue) \(literal)")
            }
        }
        // Both outcomes happen: the pools are small enough for matches and refusals.
        #expect(refusals > 20 && deletes > 20, "\(refusals) refused, \(deletes) ran")
    }

    /// `value <op> literal` compared exactly: numbers as written, strings by all
    /// their bytes, other kinds never (DocStore's rule: types never compare across kinds).
    static func exactlySelects(_ op: ComparisonOperator, _ value: JSONValue, _ literal: JSONValue) -> Bool {
        let order: ComparisonResult
        switch (value, literal) {
        case (.string(let a), .string(let b)):
            order = a.utf8.lexicographicallyPrecedes(b.utf8) ? .orderedAscending : (Array(a.utf8) == Array(b.utf8) ? .orderedSame : .orderedDescending)
        default:
            guard let compared = JSONNumber.compareAsWritten(value, literal) else { return op == .notEqual }
            order = compared
        }
        switch op {
        case .equal: return order == .orderedSame
        case .notEqual: return order != .orderedSame
        case .less: return order == .orderedAscending
        case .lessOrEqual: return order != .orderedDescending
        case .greater: return order == .orderedDescending
        case .greaterOrEqual: return order != .orderedAscending
        }
    }
}

/// PostgreSQL compares numbers exactly, but a string bound in a condition is
/// cut at NUL (jsonb holds none): `s == "a\u{0}b"` would take the documents
/// holding "a". Such a delete or update is refused there too.
@Suite("Fault: writes comparing with a string holding NUL, on PostgreSQL", .postgresServer)
struct PostgresCutStringWriteTests {
    @Test func aConditionWithNULIsRefusedAndNothingChanges() async throws {
        let store = try await PostgresTestServer.freshStore()
        let notes = store.collection(named: "notes")
        do {
            try await notes.insert(contentsOf: [["id": 1, "s": "a"], ["id": 2, "s": "abc"]])
            let condition = Condition.compare(FieldPath("s"), .equal, "a\u{0}b")
            #expect(try await notes.count(DocumentQuery(condition)) == 1, "as a read, it matches \"a\" (documented)")
            await #expect(throws: DocStoreError.self) { try await notes.delete(DocumentQuery(condition)) }
            await #expect(throws: DocStoreError.self) {
                try await notes.update(DocumentQuery(.string(FieldPath("s"), .hasPrefix, "a\u{0}", caseInsensitive: false)), [.set(FieldPath("s"), "z")])
            }
            #expect(try await notes.count(DocumentQuery()) == 2)
            #expect(try await notes.get(2)?["s"] == "abc")
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
