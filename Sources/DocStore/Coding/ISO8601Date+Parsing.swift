import Foundation

extension ISO8601Date {
    /// Reads a date written by `append`, and the common ISO 8601 variants found in
    /// imported data: `2026-11-21T03:31:13Z`, any number of fractional digits,
    /// lowercase `t`/`z`, a space instead of `T` (SQLite's `datetime()`), and a
    /// `+hh:mm` / `-hh:mm` offset. A zone (`Z` or an offset) is required: without
    /// one the instant is ambiguous. Returns nil for anything else, including
    /// invalid calendar values (month 13, February 30, second 60).
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        var reader = Reader(text: text)
        guard let year = reader.number(digits: 4), year >= 1, reader.skip("-"),
              let month = reader.number(digits: 2), (1...12).contains(month), reader.skip("-"),
              let day = reader.number(digits: 2), day >= 1, day <= daysInMonth(year: year, month: month),
              reader.skip("T") || reader.skip("t") || reader.skip(" "),
              let hour = reader.number(digits: 2), hour < 24, reader.skip(":"),
              let minute = reader.number(digits: 2), minute < 60, reader.skip(":"),
              let second = reader.number(digits: 2), second < 60 else { return nil }
        var fraction: [UInt8] = []
        if reader.skip(".") {
            while let digit = reader.digit() { fraction.append(digit) }
            guard !fraction.isEmpty else { return nil }
        }
        var offset: Int64 = 0
        if reader.skip("Z") || reader.skip("z") {
            offset = 0
        } else if let sign = reader.sign() {
            guard let offsetHours = reader.number(digits: 2), offsetHours < 24, reader.skip(":"),
                  let offsetMinutes = reader.number(digits: 2), offsetMinutes < 60 else { return nil }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard reader.isAtEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset - 978_307_200
        guard let interval = timeInterval(seconds: seconds, fraction: fraction) else { return nil }
        return Date(timeIntervalSinceReferenceDate: interval)
    }

    /// The Double nearest to `seconds + 0.fraction` (seconds may be negative; the
    /// fraction always counts forward), correctly rounded (ties to even).
    ///
    /// Up to 19 digits this is integer arithmetic: the result's spacing `u` is a
    /// power of two fixed by `seconds`, so rounding the fraction to a multiple of
    /// `u` is one exact division. Longer fractions (only sub-nanosecond dates near
    /// 2001 have them) go through the C library's correctly rounded `strtod`.
    static func timeInterval(seconds: Int64, fraction: [UInt8]) -> Double? {
        let significant = fraction.lastIndex(where: { $0 != 0x30 }).map { $0 + 1 } ?? 0
        if significant == 0 { return Double(seconds) }
        if significant <= 19 {
            var numerator: UInt64 = 0
            var denominator: UInt64 = 1
            for digit in fraction[..<significant] {
                numerator = numerator * 10 + UInt64(digit - 0x30)
                denominator *= 10
            }
            // Near zero the spacing varies inside the second: one exact
            // integer-to-double conversion and one division (Clinger) instead.
            if seconds == 0 || seconds == -1, significant <= 15 {
                let scaled = Double(seconds * Int64(denominator) + Int64(numerator))
                return scaled / Double(denominator)
            }
            if seconds != 0, seconds != -1 {
                return rounded(seconds: seconds, numerator: numerator, denominator: denominator)
            }
        }
        return viaStrtod(seconds: seconds, fraction: Array(fraction[..<significant]))
    }

    /// seconds + numerator/denominator for |result| >= 1, rounded exactly.
    private static func rounded(seconds: Int64, numerator: UInt64, denominator: UInt64) -> Double {
        // Every result lies in [s, s+1] for s >= 1, or in [|s|-1, |s|] for s <= -2;
        // the spacing of doubles there is the ulp of the lower end.
        let lowerMagnitude = seconds > 0 ? Double(seconds) : Double(-seconds - 1)
        let spacing = lowerMagnitude.ulp
        let shift = -Int(spacing.exponent)  // spacing = 2^-shift, shift in 1...52
        // k = round(numerator * 2^shift / denominator), ties to even k (the
        // result's last significand bit has k's parity, as s/spacing is even).
        let (high, low) = numerator.multipliedFullWidth(by: UInt64(1) << UInt64(shift))
        let division = denominator.dividingFullWidth((high, low))
        var quotient = division.quotient
        let twiceRemainder = division.remainder.multipliedFullWidth(by: 2)
        let half = (high: UInt64(0), low: denominator)
        if twiceRemainder.high > half.high || (twiceRemainder.high == half.high && twiceRemainder.low > half.low)
            || (twiceRemainder.high == 0 && twiceRemainder.low == denominator && quotient & 1 == 1) {
            quotient += 1
        }
        // Both terms and the sum are representable, so this addition is exact.
        return Double(seconds) + Double(quotient) * spacing
    }

    private static func viaStrtod(seconds: Int64, fraction: [UInt8]) -> Double? {
        var text: String
        if seconds >= 0 {
            text = "\(seconds)." + String(decoding: fraction, as: UTF8.self)
        } else {
            // s + 0.f = -((|s| - 1) + (1 - 0.f))
            text = "-\(-seconds - 1)." + String(decoding: complement(fraction), as: UTF8.self)
        }
        return Double(text)
    }

    private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// A cursor over the date text.
    private struct Reader {
        let text: UnsafeBufferPointer<UInt8>
        var index = 0

        var isAtEnd: Bool { index == text.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < text.count, text[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> UInt8? {
            guard index < text.count, text[index] &- 0x30 < 10 else { return nil }
            index += 1
            return text[index - 1]
        }

        mutating func number(digits count: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + Int64(digit - 0x30)
            }
            return value
        }

        mutating func sign() -> Int64? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}
