import Foundation
import Testing
@testable import DocStore

@Document
struct Ledger: Codable, Identifiable, Equatable {
    var id: Int
    var amount: Decimal
    var big: UInt64
}

/// A selected number SQLite reads as a Double (a real, an integer past Int64)
/// comes back with every digit its document holds: `select { $0.amount }` of a
/// long `Decimal` gave it rounded, and of `UInt64.max` failed to decode
/// (helper-43), while `get` gave both exactly. With field columns too: they
/// must never change an answer.
@Suite("Exact numbers in select")
struct ExactSelectTests {
    static let ledgers = [
        Ledger(id: 1, amount: Decimal(string: "12345678901234567890.123456789")!, big: UInt64.max),
        Ledger(id: 2, amount: Decimal(string: "0.1")!, big: (1 << 63) + 1),
        Ledger(id: 3, amount: 7, big: 3),
    ]

    @Test(arguments: [false, true])
    func selectedNumbersKeepEveryDigit(fieldColumns: Bool) throws {
        let store = try DocumentStore.inMemory()
        let ledgers = store.collection(Ledger.self)
        try ledgers.insert(contentsOf: Self.ledgers)
        if fieldColumns { _ = try ledgers.createFieldColumns(on: [FieldPath("amount"), FieldPath("big")]) }

        let rows = try ledgers.query.select { ($0.amount, $0.big) }
        #expect(rows.map(\.0) == Self.ledgers.map(\.amount))
        #expect(rows.map(\.1) == Self.ledgers.map(\.big))
        let untyped = try store.collection(named: ledgers.name).select(DocumentQuery(), fields: [FieldPath("amount"), FieldPath("big")])
        #expect(untyped.first == [.exactNumber(JSONNumberLiteral("12345678901234567890.123456789")!), .exactNumber(JSONNumberLiteral("18446744073709551615")!)])
        #expect(untyped.last == [7, 3])
    }

    /// SQLite's `json_extract` returns a string up to its first NUL, so a
    /// selected `"a\u0000b"` came back as `"a"`, silently, in every output mode
    /// and in `.export` (helper-46). An escaped backslash before `u0000` is no NUL.
    @Test(arguments: [false, true])
    func selectedStringsKeepTheirNULs(fieldColumns: Bool) throws {
        let store = try DocumentStore.inMemory()
        let notes = store.collection(named: "notes")
        let texts = ["a\u{0}b", "\u{0}", "a\\u0000b", "plain", "é\u{0}\u{0}z"]
        for (index, text) in texts.enumerated() {
            try notes.insert(["id": .integer(Int64(index + 1)), "v": .string(text), "list": .array([.string(text)])])
        }
        if fieldColumns { _ = try notes.createFieldColumns(on: [FieldPath("v")]) }
        let rows = try notes.select(DocumentQuery(), fields: [FieldPath("v"), FieldPath("list")])
        #expect(rows.map { $0.first } == texts.map { JSONValue.string($0) })
        #expect(rows.map { $0.last } == texts.map { JSONValue.array([.string($0)]) })
    }
}
