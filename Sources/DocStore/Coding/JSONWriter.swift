/// Appends JSON text to a byte buffer: the primitives shared by the streaming
/// encoder and `serialize`. Writing bytes directly (no `String` building) is what
/// keeps encoding cheap.
enum JSONWriter {
    static let quote: UInt8 = 0x22
    static let backslash: UInt8 = 0x5C

    /// Writes `"…"`, escaping quotes, backslashes and control characters
    /// (everything else, including non-ASCII, is written as UTF-8).
    static func appendString(_ string: String, to out: inout ByteBuffer) {
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { appendString(utf8: $0, to: &out) }
        if done == nil {
            // Bridged or otherwise non-contiguous strings: make a native copy once.
            var copy = string
            copy.makeContiguousUTF8()
            copy.withUTF8 { appendString(utf8: $0, to: &out) }
        }
    }

    /// The offset of the first 8-byte word of `bytes` that holds a quote, a
    /// backslash or a control character (or of the tail shorter than a word):
    /// every byte before it can be copied as it is.
    ///
    /// The tests are the classic SWAR ones, exact for "some byte of the word":
    /// `(w - 0x0101…) & ~w & 0x8080…` is non-zero iff a byte of `w` is zero, and
    /// with 0x2020… iff a byte is below 0x20 (bytes ≥ 0x80, i.e. non-ASCII UTF-8,
    /// never match because `~w` clears their high bit).
    @inline(__always)
    static func firstWordNeedingEscape(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let control = (word &- ones &* 0x20) & ~word & highs
            let quotes = word ^ (ones &* UInt64(quote))
            let backslashes = word ^ (ones &* UInt64(backslash))
            let hasQuote = (quotes &- ones) & ~quotes & highs
            let hasBackslash = (backslashes &- ones) & ~backslashes & highs
            if control | hasQuote | hasBackslash != 0 { return index }
            index += 8
        }
        return index
    }

    static func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteBuffer) {
        let count = bytes.count
        // Fast path: no byte needs escaping (almost every key and value):
        // quote, one copy, quote. Eight bytes at a time first, then one by one
        // from the first word that may hold a byte to escape.
        var index = firstWordNeedingEscape(in: bytes)
        while index < count {
            let byte = bytes[index]
            if byte < 0x20 || byte == quote || byte == backslash { break }
            index += 1
        }
        out.reserve(count + 2)
        out.append(quote)
        out.append(UnsafeBufferPointer(rebasing: bytes[0..<index]))
        if index == count {
            out.append(quote)
            return
        }
        var runStart = index
        while index < count {
            let byte = bytes[index]
            if byte < 0x20 || byte == quote || byte == backslash {
                if runStart < index {
                    out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                }
                appendEscape(byte, to: &out)
                runStart = index + 1
            }
            index += 1
        }
        if runStart < count {
            out.append(UnsafeBufferPointer(rebasing: bytes[runStart..<count]))
        }
        out.append(quote)
    }

    private static func appendEscape(_ byte: UInt8, to out: inout ByteBuffer) {
        out.append(backslash)
        switch byte {
        case quote: out.append(quote)
        case backslash: out.append(backslash)
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            out.append(UInt8(ascii: "u"), 0x30)
            out.append(0x30, hexDigit(byte >> 4))
            out.append(hexDigit(byte & 0xF))
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10
    }

    /// Writes an integer in plain decimal, exact for every fixed-width type.
    static func appendInteger<T: FixedWidthInteger>(_ value: T, to out: inout ByteBuffer) {
        if T.isSigned && value < 0 {
            out.append(UInt8(ascii: "-"))
            // `magnitude` is exact even for `.min`.
            appendUnsigned(UInt64(value.magnitude), to: &out)
        } else {
            appendUnsigned(UInt64(value), to: &out)
        }
    }

    static func appendUnsigned(_ value: UInt64, to out: inout ByteBuffer) {
        if value < 10 {
            out.append(UInt8(truncatingIfNeeded: value) &+ 0x30)
            return
        }
        var digits = 1
        var probe = value
        while probe >= 10 { probe /= 10; digits += 1 }
        out.write(reserving: digits) { target in
            var remaining = value
            var position = digits - 1
            while position >= 0 {
                target[position] = UInt8(truncatingIfNeeded: remaining % 10) &+ 0x30
                remaining /= 10
                position -= 1
            }
            return digits
        }
    }

    /// Writes the shortest text that reads back as the same value.
    ///
    /// Swift's `description` is already shortest-round-trip, keeps `3.0` for
    /// integral values (so the JSON type stays real, as SQLite's `json_type`
    /// reports it) and writes exponents as `1e-05` / `1e+16`, both valid JSON.
    /// Callers must have rejected NaN and infinities: they have no JSON text.
    static func appendFinite<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F, to out: inout ByteBuffer) {
        out.append(utf8: value.description)
    }
}
