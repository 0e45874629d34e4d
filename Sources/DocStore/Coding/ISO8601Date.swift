import Foundation

/// Dates as fixed-width ISO 8601 UTC text with nanoseconds:
/// `2026-11-21T03:31:13.123456789Z`.
///
/// Fixed width makes text order equal time order, so SQL can compare and sort
/// dates as strings. Conversion uses integer calendar arithmetic (Howard
/// Hinnant's days-from-civil), not `DateFormatter`: it is exact and cheap.
///
/// Exactness: a `Date` is a `Double` of seconds since 2001-01-01. Nine
/// fractional digits identify that `Double` uniquely whenever its spacing
/// exceeds 1 ns, i.e. for every date more than about 97 days (2^23 s) from
/// 2001-01-01. Closer to that instant a `Double` can have sub-nanosecond
/// precision; only when nine digits would lose it, the fraction gets the extra
/// digits of the shortest decimal that reads back as the same `Double`
/// (`2001-01-01T00:00:00.000000000001Z`). Such text is longer, so its string
/// order can disagree with time order only against another date less than 1 ns
/// away. `-0.0` seconds is written like `0.0` (they are equal `Date`s).
enum ISO8601Date {
    /// Seconds from 1970-01-01 to 2001-01-01 (Foundation's reference date).
    private static let referenceOffset: Int64 = 978_307_200
    /// 0001-01-01T00:00:00Z, in seconds since the reference date.
    static let minimumSeconds = daysFromCivil(year: 1, month: 1, day: 1) * 86_400 - referenceOffset
    /// 10000-01-01T00:00:00Z, the first instant out of range.
    static let endSeconds = daysFromCivil(year: 10_000, month: 1, day: 1) * 86_400 - referenceOffset

    // MARK: Encoding

    /// Appends the quoted date, or returns false if it is outside 0001...9999
    /// (or not finite), leaving `out` untouched.
    static func append(_ date: Date, to out: inout ByteBuffer) -> Bool {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.isFinite, interval >= Double(minimumSeconds), interval < Double(endSeconds) else { return false }
        var (seconds, nanoseconds) = split(interval)
        var fraction = digits(nanoseconds, width: 9)
        // Below 2^24 s the spacing of doubles can be under 2 ns: check that nine
        // digits read back, and use more when they do not.
        if abs(interval) < 16_777_216 {
            if timeInterval(seconds: seconds, fraction: fraction) != interval {
                guard let longer = exactFraction(interval) else { return false }
                (seconds, fraction) = longer
            }
        }
        guard seconds >= minimumSeconds, seconds < endSeconds else { return false }
        appendCivil(seconds: seconds, fraction: fraction, to: &out)
        return true
    }

    /// Whole seconds (floor) and nanoseconds rounded to nearest, computed exactly
    /// from the Double's bits (multiplying by 1e9 in floating point would round).
    private static func split(_ interval: Double) -> (Int64, Int64) {
        let magnitude = abs(interval)
        let whole = magnitude.rounded(.down)  // exact
        let fraction = magnitude - whole       // exact: Sterbenz for >= 1, identity below
        var nanoseconds = Int64(roundedNanoseconds(fraction))
        var seconds = Int64(whole)
        if nanoseconds == 1_000_000_000 {
            seconds += 1
            nanoseconds = 0
        }
        if interval < 0 {
            // -(s + ns) = -(s + 1) + (1e9 - ns)
            if nanoseconds == 0 { return (-seconds, 0) }
            return (-seconds - 1, 1_000_000_000 - nanoseconds)
        }
        return (seconds, nanoseconds)
    }

    /// round(fraction * 10^9) for 0 <= fraction < 1, exactly (half up).
    private static func roundedNanoseconds(_ fraction: Double) -> UInt64 {
        guard fraction > 0 else { return 0 }
        let significand: UInt64
        let exponent: Int
        if fraction.isNormal {
            significand = fraction.significandBitPattern | (1 << 52)
            exponent = Int(fraction.exponentBitPattern) - 1075
        } else {
            significand = fraction.significandBitPattern
            exponent = -1074
        }
        // fraction = significand * 2^exponent, exponent <= -53 since fraction < 1.
        let shift = -exponent
        // significand * 1e9 < 2^83: below 2^(shift-1) when shift > 84, rounds to 0.
        guard shift <= 84 else { return 0 }
        let (high, low) = significand.multipliedFullWidth(by: 1_000_000_000)
        func bits(from k: Int) -> UInt64 {  // (high:low) >> k, for 1 <= k < 128
            k >= 64 ? high >> UInt64(k - 64) : (low >> UInt64(k)) | (high << UInt64(64 - k))
        }
        let roundBit = bits(from: shift - 1) & 1
        return bits(from: shift) + roundBit
    }

    /// The shortest decimal that reads back as `interval`, as floor seconds and
    /// fraction digits (at least nine). Used only for sub-nanosecond dates.
    private static func exactFraction(_ interval: Double) -> (Int64, [UInt8])? {
        guard let (integerDigits, fractionDigits) = decimalExpansion(abs(interval)),
              let whole = Int64(String(decoding: integerDigits, as: UTF8.self)) else { return nil }
        var seconds = whole
        var fraction = fractionDigits
        if interval < 0, fraction.contains(where: { $0 != 0x30 }) {
            // -(w + 0.f) = -(w + 1) + (1 - 0.f): complement the digits.
            seconds = -whole - 1
            fraction = complement(fraction)
        } else if interval < 0 {
            seconds = -whole
        }
        while fraction.count < 9 { fraction.append(0x30) }
        guard timeInterval(seconds: seconds, fraction: fraction) == interval else { return nil }
        return (seconds, fraction)
    }

    /// The digits of a non-negative finite Double's shortest representation,
    /// split at the decimal point (from `description`, which is shortest-round-trip).
    private static func decimalExpansion(_ value: Double) -> ([UInt8], [UInt8])? {
        let text = Array(value.description.utf8)
        var mantissa: [UInt8] = []
        var pointPosition: Int?
        var index = 0
        while index < text.count, text[index] != UInt8(ascii: "e") {
            if text[index] == UInt8(ascii: ".") { pointPosition = mantissa.count } else { mantissa.append(text[index]) }
            index += 1
        }
        var exponent = 0
        if index < text.count {
            guard let parsed = Int(String(decoding: text[(index + 1)...], as: UTF8.self)) else { return nil }
            exponent = parsed
        }
        var point = (pointPosition ?? mantissa.count) + exponent
        if point <= 0 {
            mantissa.insert(contentsOf: repeatElement(0x30, count: -point + 1), at: 0)
            point = 1
        }
        if point > mantissa.count {
            mantissa.append(contentsOf: repeatElement(0x30, count: point - mantissa.count))
        }
        var fraction = Array(mantissa[point...])
        while fraction.last == 0x30 { fraction.removeLast() }
        return (Array(mantissa[..<point]), fraction)
    }

    /// 10^n - f for an n-digit f > 0, as n digits: the fraction that, counted
    /// forward from the previous whole second, gives a negative time.
    static func complement(_ digits: [UInt8]) -> [UInt8] {
        var result = digits
        var borrow: UInt8 = 0
        for index in result.indices.reversed() {
            let digit = digits[index] - 0x30 + borrow
            if digit == 0 {
                result[index] = 0x30
                borrow = 0
            } else {
                result[index] = 0x30 + (10 - digit)
                borrow = 1
            }
        }
        return result
    }

    private static func digits(_ value: Int64, width: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0x30, count: width)
        var remaining = value
        var index = width - 1
        while remaining > 0, index >= 0 {
            result[index] = UInt8(remaining % 10) + 0x30
            remaining /= 10
            index -= 1
        }
        return result
    }

    private static func appendCivil(seconds: Int64, fraction: [UInt8], to out: inout ByteBuffer) {
        let unixSeconds = seconds + referenceOffset
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let secondOfDay = unixSeconds - days * 86_400
        let (year, month, day) = civilFromDays(days)
        out.append(JSONWriter.quote)
        out.append(digits(year, width: 4))
        out.append(UInt8(ascii: "-"))
        out.append(digits(month, width: 2))
        out.append(UInt8(ascii: "-"))
        out.append(digits(day, width: 2))
        out.append(UInt8(ascii: "T"))
        out.append(digits(secondOfDay / 3600, width: 2))
        out.append(UInt8(ascii: ":"))
        out.append(digits(secondOfDay / 60 % 60, width: 2))
        out.append(UInt8(ascii: ":"))
        out.append(digits(secondOfDay % 60, width: 2))
        out.append(UInt8(ascii: "."))
        out.append(fraction)
        out.append(UInt8(ascii: "Z"))
        out.append(JSONWriter.quote)
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, http://howardhinnant.github.io/date_algorithms.html)

    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
