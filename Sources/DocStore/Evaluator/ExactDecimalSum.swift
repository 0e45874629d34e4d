/// An exact sum of numbers written in decimal, rounded to a double once at the
/// end: how PostgreSQL's `sum` over `numeric` adds them, where SQLite adds
/// doubles one after another (13.88, not 13.879999999999999). The evaluator
/// uses it to mirror PostgreSQL's sums and averages (see ``QueryReading``).
struct ExactDecimalSum {
    /// The magnitudes of the positive and of the negative terms, as decimal
    /// digits, least significant first, in units of 10^`exponent`.
    private var positive: [UInt8] = []
    private var negative: [UInt8] = []
    private var exponent: Int?
    /// False once a term couldn't be added exactly (not a number, or an
    /// exponent so far out that its digits would take megabytes): the caller
    /// then falls back to adding doubles.
    private(set) var isExact = true

    /// The furthest exponent added exactly: doubles reach 10^±324; this is
    /// for numbers written by hand.
    static let exponentLimit = 10_000

    /// Adds a number written as JSON writes it (`-12`, `13.88`, `5.4e-20`).
    mutating func add(_ text: String) {
        guard isExact, let (isNegative, digits, termExponent) = Self.parse(text),
              abs(termExponent) <= Self.exponentLimit else {
            isExact = false
            return
        }
        var term = digits
        if let exponent, termExponent > exponent {
            term.insert(contentsOf: repeatElement(0, count: termExponent - exponent), at: 0)
        } else if let exponent, termExponent < exponent {
            // Both totals move to the smaller unit.
            let shift = repeatElement(UInt8(0), count: exponent - termExponent)
            positive.insert(contentsOf: shift, at: 0)
            negative.insert(contentsOf: shift, at: 0)
            self.exponent = termExponent
        } else if exponent == nil {
            exponent = termExponent
        }
        if isNegative { Self.add(term, to: &negative) } else { Self.add(term, to: &positive) }
    }

    /// The sum, rounded to the nearest double (as PostgreSQL casts `numeric` to
    /// `double precision`: through its text, correctly rounded).
    var doubleValue: Double {
        guard let (sign, digits, exponent) = total else { return 0 }
        return Double(sign + digits + "e" + String(exponent)) ?? 0
    }

    /// The sum when it is a whole number within Int64 (integers added, as
    /// PostgreSQL adds a `bigint` column's values exactly and fails only on the
    /// total), else nil.
    var int64Value: Int64? {
        guard let (sign, digits, exponent) = total else { return 0 }
        guard exponent >= 0, exponent <= 19 else { return nil }
        return Int64(sign + digits + String(repeating: "0", count: exponent))
    }

    /// The sum's sign, digits and exponent; nil when it is zero.
    private var total: (sign: String, digits: String, exponent: Int)? {
        let isNegative = Self.isLess(positive, than: negative)
        var magnitude = isNegative ? negative : positive
        Self.subtract(isNegative ? positive : negative, from: &magnitude)
        while magnitude.last == 0 { magnitude.removeLast() }
        guard !magnitude.isEmpty, let exponent else { return nil }
        let digits = String(decoding: magnitude.reversed().map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        return (isNegative ? "-" : "", digits, exponent)
    }

    /// Sign, digits (least significant first) and exponent of a decimal number.
    private static func parse(_ text: String) -> (Bool, [UInt8], Int)? {
        var bytes = Substring(text).utf8[...]
        let isNegative = bytes.first == UInt8(ascii: "-")
        if isNegative || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        var digits: [UInt8] = []
        var exponent = 0
        var afterPoint = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") { afterPoint = true; continue }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            digits.append(byte - UInt8(ascii: "0"))
            if afterPoint { exponent -= 1 }
        }
        if !bytes.isEmpty {
            guard let written = Int(String(decoding: bytes.dropFirst(), as: UTF8.self)) else { return nil }
            exponent += written
        }
        guard !digits.isEmpty else { return nil }
        return (isNegative, digits.reversed(), exponent)
    }

    private static func add(_ term: [UInt8], to total: inout [UInt8]) {
        var carry: UInt8 = 0
        for index in 0..<max(term.count, total.count) {
            let sum = (index < term.count ? term[index] : 0) + (index < total.count ? total[index] : 0) + carry
            if index < total.count { total[index] = sum % 10 } else { total.append(sum % 10) }
            carry = sum / 10
        }
        if carry > 0 { total.append(carry) }
    }

    /// `total -= term`, where `term` is not larger.
    private static func subtract(_ term: [UInt8], from total: inout [UInt8]) {
        var borrow: UInt8 = 0
        for index in total.indices {
            let subtrahend = (index < term.count ? term[index] : 0) + borrow
            if total[index] >= subtrahend {
                total[index] -= subtrahend
                borrow = 0
            } else {
                total[index] = total[index] + 10 - subtrahend
                borrow = 1
            }
        }
    }

    private static func isLess(_ a: [UInt8], than b: [UInt8]) -> Bool {
        let a = a.reversed().drop(while: { $0 == 0 }), b = b.reversed().drop(while: { $0 == 0 })
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }
}
