/// Reads numbers from their JSON text, exactly.
///
/// Typed decoding converts a number only when the model asks for it, straight
/// from the digits: integers of every width are exact (including `UInt64.max`,
/// which no `Double` holds), and reals are correctly rounded.
enum JSONNumberText {
    /// The integer a JSON number denotes, if it is integral: `42`, `-7`, and also
    /// `3.0`, `1e3` or `-0.0`. Returns nil when the value has a fractional part or
    /// does not fit 64 bits of magnitude.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> (negative: Bool, magnitude: UInt64)? {
        guard !text.isEmpty else { return nil }
        let negative = text[0] == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        var magnitude: UInt64 = 0
        // Fast path: plain digits (what every integer the codec writes looks like).
        while index < text.count {
            let digit = text[index] &- 0x30
            guard digit < 10 else { break }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
            index += 1
        }
        if index == text.count { return (negative, magnitude) }
        return integralReal(text, negative: negative)
    }

    /// The slow path of `integer`: a real such as `3.0` or `2.5e2`, decided exactly
    /// on its decimal digits (never through `Double`).
    private static func integralReal(_ text: UnsafeBufferPointer<UInt8>, negative: Bool) -> (negative: Bool, magnitude: UInt64)? {
        var digits: [UInt8] = []
        var exponent = 0
        var index = negative ? 1 : 0
        var seenPoint = false
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte &- 0x30 < 10 {
                // Leading zeros carry no information; skipping them bounds `digits`.
                if !(digits.isEmpty && byte == 0x30) { digits.append(byte &- 0x30) }
                if seenPoint { exponent -= 1 }
            } else {
                break  // 'e' or 'E'
            }
            index += 1
        }
        if index < text.count {
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var value = 0
            while index < text.count, text[index] &- 0x30 < 10 {
                // Clamp: anything this large is out of range or zero anyway.
                value = min(value * 10 + Int(text[index] &- 0x30), 100_000)
                index += 1
            }
            exponent += exponentNegative ? -value : value
        }
        if digits.isEmpty { return (negative, 0) }
        while exponent < 0 {
            guard digits.last == 0 else { return nil }  // fractional
            digits.removeLast()
            exponent += 1
            if digits.isEmpty { return (negative, 0) }
        }
        guard digits.count + exponent <= 20 else { return nil }
        var magnitude: UInt64 = 0
        for digit in digits + repeatElement(0, count: exponent) {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
        }
        return (negative, magnitude)
    }

    /// Converts a sign and magnitude to `T` if it fits exactly.
    static func exact<T: FixedWidthInteger>(_ value: (negative: Bool, magnitude: UInt64), as type: T.Type) -> T? {
        if !value.negative || value.magnitude == 0 {
            return T(exactly: value.magnitude)
        }
        guard T.isSigned, value.magnitude <= UInt64(Int64.max) + 1 else { return nil }
        // -(2^63) is Int64.min; build it without overflowing.
        let signed = value.magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(value.magnitude)
        return T(exactly: signed)
    }

    /// Powers of ten exactly representable as Double.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The correctly rounded Double for a JSON number, or nil if it overflows.
    ///
    /// Fast path (Clinger): with at most 15 significant digits and a decimal
    /// exponent within ±22, both the digits and the power of ten are exact
    /// doubles, so one IEEE multiplication or division rounds correctly.
    /// Everything else goes to the C library's correctly rounded `strtod`.
    static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var seenPoint = false
        var simple = true
        while index < text.count {
            let byte = text[index]
            let digit = byte &- 0x30
            if digit < 10 {
                if mantissa != 0 || digit != 0 { significantDigits += 1 }
                if significantDigits > 15 { simple = false; break }
                mantissa = mantissa * 10 + UInt64(digit)
                if seenPoint { exponent -= 1 }
            } else if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                simple = false  // exponent part: leave it to strtod
                break
            }
            index += 1
        }
        if simple, exponent >= -22 {
            let magnitude = Double(mantissa) / powersOfTen[-exponent]
            return negative ? -magnitude : magnitude
        }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// The correctly rounded Float, or nil if it overflows.
    static func float(_ text: UnsafeBufferPointer<UInt8>) -> Float? {
        // Parsing as Double first and narrowing would round twice.
        guard let value = Float(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }
}
