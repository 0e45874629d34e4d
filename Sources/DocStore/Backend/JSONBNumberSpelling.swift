import Foundation

/// JSON text respelled so that PostgreSQL's jsonb keeps every real a real.
///
/// jsonb stores numbers as `numeric`, which keeps no exponent: `1e16` becomes
/// the integer `10000000000000000` and `-1e300` a 301-digit integer, so a real
/// came back from PostgreSQL as an integer (and a computed value or a sum then
/// treated it as one, and a copy back to a file stored it as one). Written out
/// with a fraction (`10000000000000000.0`), `numeric` keeps the scale, prints
/// it back so, and DocStore's reader takes it for the same `Double` again.
/// Values PostgreSQL computes are written the same way (`RowScope.postgresReal`).
@_spi(Backends)
public enum JSONBNumberSpelling {
    /// Exponents beyond these are left as written: `numeric` refuses more than
    /// 16 383 digits after the point (and DocStore refuses reals past ±1.8e308
    /// on input), and writing out `1e-999999999` would take a gigabyte.
    static let exponentRange = -16_383...400

    /// `json` with every number written with an exponent written out in
    /// positional form (`1e+16` → `10000000000000000.0`, `1.5E-7` →
    /// `0.00000015`); nil when it has none, found without parsing in the usual
    /// case: only an `e` or `E` between digits sends it through the tokenizer.
    public static func respelled(_ json: UnsafeRawBufferPointer) -> [UInt8]? {
        guard mayHoldExponent(json) else { return nil }
        return json.withMemoryRebound(to: UInt8.self) { respelledNumbers($0) }
    }

    /// ``respelled(_:)`` of an array's text.
    public static func respelled(_ json: [UInt8]) -> [UInt8]? {
        json.withUnsafeBytes { respelled($0) }
    }

    /// `json` itself, or its respelling when it has a number with an exponent.
    public static func storable(_ json: [UInt8]) -> [UInt8] {
        respelled(json) ?? json
    }

    /// Whether a digit, `e` or `E`, then a digit or sign appear anywhere (in a
    /// string too: then the tokenizer finds nothing to change).
    private static func mayHoldExponent(_ json: UnsafeRawBufferPointer) -> Bool {
        json.withMemoryRebound(to: UInt8.self) { buffer in
            guard let start = buffer.baseAddress else { return false }
            let end = start + buffer.count
            for letter in [UInt8(ascii: "e"), UInt8(ascii: "E")] {
                var next = start
                while next < end, let found = memchr(next, Int32(letter), end - next) {
                    let e = UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
                    if e > start, e + 1 < end, isDigit(e[-1]), isDigit(e[1]) || e[1] == UInt8(ascii: "+") || e[1] == UInt8(ascii: "-") {
                        return true
                    }
                    next = e + 1
                }
            }
            return false
        }
    }

    /// Copies strings byte for byte and numbers as they are unless they have
    /// an exponent; nil when no number changed.
    private static func respelledNumbers(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        var changed = false
        var copiedUpTo = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "\"") {
                index = endOfString(text, from: index)
            } else if isDigit(byte) || byte == UInt8(ascii: "-") {
                var end = index + 1
                var hasExponent = false
                while end < text.count, isNumberByte(text[end]) {
                    if text[end] == UInt8(ascii: "e") || text[end] == UInt8(ascii: "E") { hasExponent = true }
                    end += 1
                }
                if hasExponent, let positional = positional(UnsafeBufferPointer(rebasing: text[index..<end])) {
                    if !changed { output.reserveCapacity(text.count + 32) }
                    output.append(contentsOf: text[copiedUpTo..<index])
                    output.append(contentsOf: positional)
                    copiedUpTo = end
                    changed = true
                }
                index = end
            } else {
                index += 1
            }
        }
        guard changed else { return nil }
        output.append(contentsOf: text[copiedUpTo...])
        return output
    }

    /// The index just past the string opening at `start` (its closing quote
    /// included), escapes skipped.
    private static func endOfString(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start + 1
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return index
    }

    /// A JSON number with an exponent in positional form with at least one
    /// digit after the point; nil when its exponent is outside ``exponentRange``
    /// or the text is not a number (left for the server to refuse).
    static func positional(_ number: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var digits: [UInt8] = []
        var negative = false
        var pointAfter: Int?  // the count of digits before the point
        var index = 0
        if index < number.count, number[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        while index < number.count, number[index] != UInt8(ascii: "e"), number[index] != UInt8(ascii: "E") {
            let byte = number[index]
            if byte == UInt8(ascii: ".") {
                pointAfter = digits.count
            } else {
                guard isDigit(byte) else { return nil }
                digits.append(byte)
            }
            index += 1
        }
        guard !digits.isEmpty, index < number.count,
              let exponent = Int(String(decoding: UnsafeBufferPointer(rebasing: number[(index + 1)...]), as: UTF8.self)),
              exponentRange.contains(exponent) else { return nil }
        // The point moves `exponent` places right of where it was written.
        var point = (pointAfter ?? digits.count) + exponent
        while digits.count > 1, digits.first == UInt8(ascii: "0"), point > 1 { digits.removeFirst(); point -= 1 }
        var whole: [UInt8]
        var fraction: [UInt8]
        if point <= 0 {
            whole = [UInt8(ascii: "0")]
            fraction = Array(repeating: UInt8(ascii: "0"), count: -point) + digits
        } else if point >= digits.count {
            whole = digits + Array(repeating: UInt8(ascii: "0"), count: point - digits.count)
            fraction = []
        } else {
            whole = Array(digits[..<point])
            fraction = Array(digits[point...])
        }
        while whole.count > 1, whole.first == UInt8(ascii: "0") { whole.removeFirst() }
        while fraction.count > 1, fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        if fraction.isEmpty { fraction = [UInt8(ascii: "0")] }
        return (negative ? [UInt8(ascii: "-")] : []) + whole + [UInt8(ascii: ".")] + fraction
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }
}
