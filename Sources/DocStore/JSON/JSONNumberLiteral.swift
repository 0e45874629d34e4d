import Foundation
/// The text of a JSON number that neither `Int64` nor `Double` holds exactly:
/// `18446744073709551615` (a `UInt64.max` a typed model stored),
/// `123456789012345678901234567890`, `3.14159265358979323846264338327950288`
/// (a `Decimal`). ``JSONValue/exactNumber(_:)`` keeps such a number digit for
/// digit, so that reading a document as a ``JSONValue`` and writing it back
/// (an export and an import, an untyped `save`) never rounds it.
///
/// The text is checked against JSON's number grammar, so a literal is always
/// valid JSON wherever it is written.
public struct JSONNumberLiteral: Sendable, CustomStringConvertible {
    /// The number as JSON text.
    public let text: String

    /// The number `text` denotes, or nil when `text` is not a JSON number, or
    /// is one past a `Double`'s range (beyond ±1.8e308, such as `1e400`):
    /// SQLite reads those as infinity and DocStore's reader refuses them, so a
    /// document holding one, once stored, could not be read back (its whole
    /// collection's reads failed on it).
    public init?(_ text: String) {
        guard Self.isJSONNumber(text.utf8), Double(text)?.isFinite == true else { return nil }
        self.text = text
    }

    /// `text` known to be a JSON number (the parser's token).
    init(validText text: String) {
        self.text = text
    }

    public var description: String { text }

    /// The nearest `Double` (infinite beyond its range): how SQL compares the
    /// number, since SQLite reads such numbers as reals.
    public var doubleValue: Double {
        Double(text) ?? 0
    }

    /// Whether the text is an integer (no fraction, no exponent), as SQLite's
    /// `json_type` tells `integer` from `real`.
    public var isIntegral: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// Whether ``doubleValue`` is this number exactly. An integer past Int64
    /// may be (2^63, or 1e20 written out) though ``value`` keeps its digits;
    /// a fraction or exponent kept as digits is taken as one a Double rounds.
    public var isExactDouble: Bool {
        guard isIntegral else { return false }
        let double = doubleValue
        guard double.isFinite else { return false }
        let signless = text.drop { $0 == "-" || $0 == "+" }
        let digits = signless.drop { $0 == "0" }
        // printf writes an integral Double's exact digits.
        return String(format: "%.0f", Swift.abs(double)) == (digits.isEmpty ? "0" : String(digits))
    }

    /// Whether SQLite reads this number as another: neither an Int64 nor a
    /// Double holds it exactly (`18446744073709551615`, `1e-400`), so it is
    /// compared as its nearest Double. `18446744073709551616` (2^64) and
    /// `9.223372036854775808e18` (2^63) are Doubles exactly, and read as themselves.
    public var isReadRounded: Bool {
        guard !isExactDouble, case .exactNumber = value else { return false }
        // Written with more digits than a Double's shortest text, or with an
        // exponent, it may still be one exactly: printf writes a Double's
        // exact decimal expansion.
        let double = doubleValue
        guard double.isFinite, let written = ExactDecimal(text.utf8),
              let held = ExactDecimal(String(format: "%.1074f", double).utf8) else { return true }
        return written != held
    }

    /// The value this number is: `.integer` when it fits `Int64`, `.double` when
    /// a `Double` holds it exactly, `.exactNumber` otherwise.
    public var value: JSONValue {
        var text = text
        return text.withUTF8 { Self.value(ofValidText: $0, literal: self) }
    }

    /// The value of a valid JSON number's UTF-8 text (see ``value``).
    static func value(ofValidText text: UnsafeBufferPointer<UInt8>, literal: JSONNumberLiteral? = nil) -> JSONValue {
        let exact = { literal ?? JSONNumberLiteral(validText: String(decoding: text, as: UTF8.self)) }
        let integral = !text.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        if integral {
            if let integer = JSONNumberText.integer(text), let value = JSONNumberText.exact(integer, as: Int64.self) {
                return .integer(value)
            }
            return .exactNumber(exact())
        }
        guard let double = JSONNumberText.double(text) else { return .exactNumber(exact()) }
        // Up to 15 significant digits every decimal within a Double's normal
        // range survives it; past that, and below that range (where `1e-400`
        // would read as 0 and `1.5e-323` as `1.48e-323`), only those that are
        // a Double's own shortest text do.
        let digits = significantDigits(text)
        if digits <= 15, digits == 0 || double.magnitude >= Double.leastNormalMagnitude { return .double(double) }
        if let decimal = ExactDecimal(text), ExactDecimal(double) == decimal { return .double(double) }
        return .exactNumber(exact())
    }

    /// The number of digits from the first non-zero one, trailing zeros included
    /// (an upper bound, cheap: no allocation on the hot path of reading reals).
    private static func significantDigits(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in text {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte &- 0x30 < 10 else { continue }
            if count > 0 || byte != UInt8(ascii: "0") { count += 1 }
        }
        return count
    }

    /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ text: String.UTF8View) -> Bool {
        var bytes = Array(text)[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 &- 0x30 < 10 }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}

/// A decimal number, normalized so that equal values are equal structures:
/// `0.d₁d₂…dₙ × 10^exponent` with no leading or trailing zero digit. Compares
/// numbers of any size exactly, for ``JSONNumberLiteral``'s equality and order.
struct ExactDecimal: Hashable, Comparable {
    var negative = false
    /// Significant digits (0...9); empty for zero.
    var digits: [UInt8] = []
    var exponent = 0

    /// Parses valid JSON number text (nil otherwise).
    init?(_ text: some Collection<UInt8>) {
        var index = text.startIndex
        if index < text.endIndex, text[index] == UInt8(ascii: "-") {
            negative = true
            index = text.index(after: index)
        }
        var point: Int?
        var all: [UInt8] = []
        while index < text.endIndex {
            let byte = text[index]
            if byte &- 0x30 < 10 {
                all.append(byte &- 0x30)
            } else if byte == UInt8(ascii: "."), point == nil {
                point = all.count
            } else {
                break
            }
            index = text.index(after: index)
        }
        guard !all.isEmpty else { return nil }
        var scale = 0
        if index < text.endIndex {
            guard text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") else { return nil }
            index = text.index(after: index)
            var exponentNegative = false
            if index < text.endIndex, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index = text.index(after: index)
            }
            var seen = false
            while index < text.endIndex, text[index] &- 0x30 < 10 {
                // Clamped: no JSON number this large means anything else.
                scale = min(scale * 10 + Int(text[index] &- 0x30), 1_000_000_000)
                seen = true
                index = text.index(after: index)
            }
            guard seen else { return nil }
            if exponentNegative { scale = -scale }
        }
        guard index == text.endIndex else { return nil }
        let leadingZeros = all.prefix { $0 == 0 }.count
        let trailingZeros = all.reversed().prefix { $0 == 0 }.count
        guard leadingZeros < all.count else {
            negative = false  // -0 == 0
            return
        }
        digits = Array(all[leadingZeros..<(all.count - trailingZeros)])
        exponent = (point ?? all.count) - leadingZeros + scale
    }

    /// The value of a finite Double's shortest text (nil for NaN and infinities).
    init?(_ double: Double) {
        guard double.isFinite else { return nil }
        self.init("\(double)".utf8)
    }

    init(_ integer: Int64) {
        // String(Int64) is always valid JSON number text.
        self = ExactDecimal(String(integer).utf8) ?? ExactDecimal()
    }

    private init() {}

    static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool {
        let (l, r) = (lhs.sign, rhs.sign)
        if l != r { return l < r }
        if l == 0 { return false }
        let magnitudeLess = lhs.exponent != rhs.exponent
            ? lhs.exponent < rhs.exponent
            : lhs.digits.lexicographicallyPrecedes(rhs.digits)
        let magnitudeEqual = lhs.exponent == rhs.exponent && lhs.digits == rhs.digits
        if magnitudeEqual { return false }
        return l > 0 ? magnitudeLess : !magnitudeLess
    }

    private var sign: Int { digits.isEmpty ? 0 : (negative ? -1 : 1) }
}
