import DocStore

/// The numbers of a JSON text, in document order, as values taken from their
/// own digits: jansson keeps only an `Int64` or a `Double`, which would round
/// `18446744073709551615` or a `Decimal`'s 30 digits.
///
/// jansson has already checked the text, and it visits arrays in order and
/// objects in document order (with duplicate names refused), so the n-th number
/// it converts is the n-th number token of the text.
struct NumberTexts {
    private let bytes: UnsafeRawBufferPointer
    private var tokens: [Range<Int>] = []
    private var index = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                // Skip the string, escapes included.
                position += 1
                while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                    position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
                }
                position += 1
            } else if byte == UInt8(ascii: "-") || byte &- 0x30 < 10 {
                let start = position
                while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
                tokens.append(start..<position)
            } else {
                position += 1
            }
        }
    }

    /// The next number's value, or nil if the texts ran out (never for text
    /// jansson accepted; the caller then keeps jansson's own value).
    mutating func next() -> JSONValue? {
        guard index < tokens.count else { return nil }
        let token = UnsafeRawBufferPointer(rebasing: bytes[tokens[index]])
        index += 1
        if let integer = Self.smallInteger(token) { return .integer(integer) }
        return JSONNumberLiteral(String(decoding: token, as: UTF8.self))?.value
    }

    /// Up to 18 digits: an Int64 without building a String (most numbers).
    private static func smallInteger(_ token: UnsafeRawBufferPointer) -> Int64? {
        let negative = token.first == UInt8(ascii: "-")
        let digits = token.dropFirst(negative ? 1 : 0)
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte &- 0x30 < 10 else { return nil }
            value = value * 10 + Int64(byte &- 0x30)
        }
        return negative ? -value : value
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        byte &- 0x30 < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }
}
