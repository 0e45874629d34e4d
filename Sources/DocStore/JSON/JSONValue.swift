import Foundation
import OrderedCollections

/// A JSON value: what a document, a field of a document, or a query literal is
/// when no Swift model type is involved (untyped collections, the REPL, the
/// in-memory evaluator).
///
/// Objects keep their keys in document order, so tables and exports show fields
/// the way they were written; equality of objects ignores that order, as JSON does.
/// Integers and reals are distinct cases but compare numerically:
/// `.integer(1) == .double(1.0)` is `true`, matching how queries compare numbers.
/// Numbers beyond both (``exactNumber(_:)``) keep their digits.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    /// A number that neither `Int64` nor `Double` holds exactly (a `UInt64.max`,
    /// a `Decimal`'s digits), kept as its JSON text so that it is never rounded
    /// on its way through untyped code. Equality and order are exact; SQL
    /// compares it as SQLite does, by its nearest `Double`.
    case exactNumber(JSONNumberLiteral)
    case string(String)
    case array([JSONValue])
    case object(OrderedDictionary<String, JSONValue>)
}

extension JSONValue {
    /// The JSON type name, as SQLite's `json_type` would say it for this value
    /// (`null`, `true`, `false`, `integer`, `real`, `text`, `array`, `object`).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .integer: "integer"
        case .double: "real"
        case .exactNumber(let number): number.isIntegral ? "integer" : "real"
        case .string: "text"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The value as a `Double` when it is a number.
    public var numberValue: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .double(let d): d
        case .exactNumber(let number): number.doubleValue
        default: nil
        }
    }

    /// The string, when the value is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// Whether the value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The member named `key` when the value is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}

extension JSONValue: Equatable {
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        // By bytes, as the databases compare them (see ExactText).
        case let (.string(a), .string(b)): return ExactText.same(a, b)
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let other = b[key], other == value else { return false }
            }
            return true
        case let (.integer(a), .integer(b)): return a == b
        case (.integer, .double), (.double, .integer), (.double, .double),
             (.exactNumber, .integer), (.exactNumber, .double), (.exactNumber, .exactNumber),
             (.integer, .exactNumber), (.double, .exactNumber):
            return JSONNumber.compare(lhs, rhs) == .orderedSame
        default: return false
        }
    }
}

extension JSONValue: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(1); hasher.combine(b)
        case .integer(let i):
            // Integers and reals that are equal must hash alike.
            hasher.combine(2)
            hasher.combine(Double(i))
        case .double(let d): hasher.combine(2); hasher.combine(d)
        // Equal numbers have equal nearest Doubles.
        case .exactNumber(let number): hasher.combine(2); hasher.combine(number.doubleValue)
        case .string(let s): hasher.combine(3); ExactText.combine(s, into: &hasher)
        case .array(let a): hasher.combine(4); hasher.combine(a)
        case .object(let o):
            hasher.combine(5)
            // Order-insensitive, like ==.
            var combined = 0
            for (key, value) in o {
                var h = Hasher()
                h.combine(key)
                h.combine(value)
                combined ^= h.finalize()
            }
            hasher.combine(combined)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(OrderedDictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// Numeric comparison shared by `JSONValue`'s equality, the evaluator and sorting,
/// so that every place agrees on how an integer compares with a real.
enum JSONNumber {
    /// Compares two numeric JSON values exactly (no rounding of large integers
    /// through `Double` when both are integers). Returns `nil` if either is not a number.
    static func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> ComparisonResult? {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)):
            return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        case let (.integer(a), .double(b)):
            return compare(integer: a, double: b)
        case let (.double(a), .integer(b)):
            return compare(integer: b, double: a).reversed
        case let (.double(a), .double(b)):
            return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        case (.exactNumber, _), (_, .exactNumber):
            // Exactly, on the decimal digits (never through Double).
            guard let a = exactDecimal(lhs), let b = exactDecimal(rhs) else {
                return lhs.numberValue == nil || rhs.numberValue == nil ? nil : .orderedDescending  // NaN: unordered
            }
            return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        default:
            return nil
        }
    }

    /// Compares two numbers as the decimal values their JSON text writes (a
    /// Double as its shortest text), as PostgreSQL's jsonb does. Nil if either
    /// is not a number.
    static func compareAsWritten(_ lhs: JSONValue, _ rhs: JSONValue) -> ComparisonResult? {
        guard let a = exactDecimal(lhs), let b = exactDecimal(rhs) else { return nil }
        return a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
    }

    private static func exactDecimal(_ value: JSONValue) -> ExactDecimal? {
        switch value {
        case .integer(let i): ExactDecimal(i)
        case .double(let d): ExactDecimal(d)
        case .exactNumber(let number): ExactDecimal(number.text.utf8)
        default: nil
        }
    }

    /// Exact comparison of an integer with a real, as SQLite does it.
    private static func compare(integer a: Int64, double b: Double) -> ComparisonResult {
        // NaN is unordered; answer something that is not "same" rather than trap below.
        if b.isNaN { return .orderedDescending }
        let da = Double(a)
        if da < b { return .orderedAscending }
        if da > b { return .orderedDescending }
        // Equal as doubles: decide exactly, as rounding `a` may have hidden a difference.
        if b >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if b < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let bi = Int64(b)
        if a < bi { return .orderedAscending }
        if a > bi { return .orderedDescending }
        return .orderedSame
    }
}

extension ComparisonResult {
    var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: .orderedDescending
        case .orderedSame: .orderedSame
        case .orderedDescending: .orderedAscending
        }
    }
}
