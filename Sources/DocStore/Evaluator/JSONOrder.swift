import Foundation

/// The place of a JSON type in DocStore's total order, shared by sorting, `min`/`max`,
/// `distinct` and every comparison, in SQL (``FieldSQL/rank``) and in the evaluator:
///
///     missing = null  <  false < true  <  numbers  <  strings  <  arrays  <  objects
///
/// Values of different ranks are never equal, and an ordering comparison between
/// them (`<`, `>=`…) is false; only sorting puts them in this order.
enum JSONRank: Int, Comparable {
    case null = 0, bool, number, string, array, object

    init(_ value: JSONValue?) {
        switch value {
        case nil, .null?: self = .null
        case .bool?: self = .bool
        case .integer?, .double?, .exactNumber?: self = .number
        case .string?: self = .string
        case .array?: self = .array
        case .object?: self = .object
        }
    }

    static func < (lhs: JSONRank, rhs: JSONRank) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// DocStore's total order on JSON values (missing is `nil`), as SQL's
/// `ORDER BY rank, value` sorts them.
enum JSONOrder {
    /// How the database being mirrored reads values, where SQLite and
    /// PostgreSQL differ; SQLite unless a test of the PostgreSQL backend sets it.
    @TaskLocal static var reading: QueryReading = .sqlite

    /// Compares two values: first by rank, then within the rank — `false < true`;
    /// numbers numerically (integers and reals alike); strings by their UTF-8 bytes
    /// (Unicode scalar order, as SQLite's BINARY collation); arrays and objects by
    /// their compact JSON text (deterministic, not meaningful).
    static func compare(_ lhs: JSONValue?, _ rhs: JSONValue?) -> ComparisonResult {
        let (l, r) = (JSONRank(lhs), JSONRank(rhs))
        if l != r { return l < r ? .orderedAscending : .orderedDescending }
        switch (lhs, rhs) {
        case let (.bool(a)?, .bool(b)?):
            return a == b ? .orderedSame : (a ? .orderedDescending : .orderedAscending)
        case let (.string(a)?, .string(b)?):
            return compareBytes(a.queryText.utf8, b.queryText.utf8)
        case (.integer?, _), (.double?, _), (.exactNumber?, _):
            // SQLite's JSON functions read a number that neither Int64 nor Double
            // holds exactly as its nearest double; queries here do the same, so the
            // evaluator and the SQL compiler agree on every document.
            if reading == .postgres { return JSONNumber.compareAsWritten(lhs!, rhs!) ?? .orderedSame }
            return JSONNumber.compare(lhs!.asQueried, rhs!.asQueried) ?? .orderedSame
        case (.array?, _), (.object?, _):
            if reading == .postgres { return .orderedSame }  // left to the key
            return compareBytes(DocumentCodec.serialize(lhs!), DocumentCodec.serialize(rhs!))
        default:
            return .orderedSame
        }
    }

    /// Equality as queries see it: same rank and same value (`2 == 2.0`; `"5" != 5`;
    /// missing == null).
    static func equal(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Bool {
        compare(lhs, rhs) == .orderedSame
    }

    /// Lexicographic byte order, as `memcmp` then length.
    static func compareBytes<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ a: A, _ b: B) -> ComparisonResult {
        var left = a.makeIterator()
        var right = b.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return .orderedSame
            case (nil, _): return .orderedAscending
            case (_, nil): return .orderedDescending
            case let (x?, y?):
                if x != y { return x < y ? .orderedAscending : .orderedDescending }
            }
        }
    }

    /// Document keys in the order SQLite sorts the `key` column: integers
    /// numerically, strings (and UUIDs, stored as their uppercase text) by bytes.
    static func compare(_ lhs: DocumentKey, _ rhs: DocumentKey) -> ComparisonResult {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)):
            return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
        case (.integer, _): return .orderedAscending
        case (_, .integer): return .orderedDescending
        default:
            return compareBytes(lhs.jsonValue.stringValue!.utf8, rhs.jsonValue.stringValue!.utf8)
        }
    }
}

extension JSONValue {
    /// The value as SQLite's JSON functions read it: an exact number beyond what
    /// Int64 and Double hold becomes its nearest double.
    var asQueried: JSONValue {
        if case .exactNumber(let number) = self, JSONOrder.reading == .sqlite { return .double(number.doubleValue) }
        return self
    }
}

extension String {
    /// The string as queries see it: up to its first NUL character. SQLite 3.40's
    /// JSON functions end a string at `\u0000`, so the compiler cuts bound strings
    /// there too and the evaluator does the same, keeping both sides in agreement.
    var queryText: Substring {
        guard let nul = utf8.firstIndex(of: 0) else { return self[...] }
        return self[..<nul]
    }
}
