import DocStore

/// The top-level members of a stored document, read in place from its JSON
/// text: a table or CSV of documents needs each member's value as a cell, not
/// the whole document as a `JSONValue` (an ordered dictionary built per
/// document and looked up per column, most of the time those formats took).
///
/// The text must have been validated first
/// (``DocumentCollection/validateStoredDocument(_:collection:key:)``): the
/// scanner trusts its structure and only finds where tokens end.
enum StoredMembers {
    /// Calls `body` with each member's name (the bytes between its quotes, as
    /// stored: escapes not decoded) and value text; false when the document is
    /// not an object.
    static func forEach(_ text: UnsafeRawBufferPointer,
                        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) rethrows -> Bool {
        var index = skipSpace(text, 0)
        guard index < text.count, text[index] == UInt8(ascii: "{") else { return false }
        index = skipSpace(text, index + 1)
        while index < text.count, text[index] == UInt8(ascii: "\"") {
            let nameEnd = endOfString(text, index)
            let name = UnsafeRawBufferPointer(rebasing: text[(index + 1)..<(nameEnd - 1)])
            index = skipSpace(text, skipSpace(text, nameEnd) + 1)  // past the colon
            let valueEnd = endOfValue(text, index)
            try body(name, UnsafeRawBufferPointer(rebasing: text[index..<valueEnd]))
            index = skipSpace(text, valueEnd)
            guard index < text.count, text[index] == UInt8(ascii: ",") else { break }
            index = skipSpace(text, index + 1)
        }
        return true
    }

    /// A member name's text (escapes decoded when it has any).
    static func name(_ bytes: UnsafeRawBufferPointer, collection: String, key: DocumentKey) throws -> String {
        guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
        let quoted = [UInt8(ascii: "\"")] + Array(bytes) + [UInt8(ascii: "\"")]
        let value = try quoted.withUnsafeBytes { try DocumentCollection<JSONValue>.parseStoredDocument($0, collection: collection, key: key) }
        return value.stringValue ?? ""
    }

    /// A member's value from its text: strings without escapes, small integers
    /// and literals directly; anything else parsed as the store parses it.
    static func value(_ bytes: UnsafeRawBufferPointer, collection: String, key: DocumentKey) throws -> JSONValue {
        guard let first = bytes.first else { return .null }
        switch first {
        case UInt8(ascii: "\""):
            let inner = UnsafeRawBufferPointer(rebasing: bytes[1..<(bytes.count - 1)])
            if !inner.contains(UInt8(ascii: "\\")) { return .string(String(decoding: inner, as: UTF8.self)) }
        case UInt8(ascii: "t"): return .bool(true)
        case UInt8(ascii: "f"): return .bool(false)
        case UInt8(ascii: "n"): return .null
        default:
            if let integer = smallInteger(bytes) { return .integer(integer) }
        }
        return try DocumentCollection<JSONValue>.parseStoredDocument(bytes, collection: collection, key: key)
    }

    /// Up to 18 digits, optionally negative: an Int64 without parsing a document.
    private static func smallInteger(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = bytes.dropFirst(negative ? 1 : 0)
        guard !digits.isEmpty, digits.count <= 18, digits.count == 1 || digits.first != UInt8(ascii: "0") else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte &- 0x30 < 10 else { return nil }
            value = value * 10 + Int64(byte &- 0x30)
        }
        return negative ? -value : value
    }

    private static func skipSpace(_ text: UnsafeRawBufferPointer, _ start: Int) -> Int {
        var index = start
        while index < text.count, text[index] == 0x20 || text[index] == 0x0A || text[index] == 0x0D || text[index] == 0x09 {
            index += 1
        }
        return index
    }

    /// Just past the string starting at `start` (its opening quote).
    private static func endOfString(_ text: UnsafeRawBufferPointer, _ start: Int) -> Int {
        var index = start + 1
        while index < text.count, text[index] != UInt8(ascii: "\"") {
            index += text[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        return min(index + 1, text.count)
    }

    /// Just past the value starting at `start`.
    private static func endOfValue(_ text: UnsafeRawBufferPointer, _ start: Int) -> Int {
        guard start < text.count else { return start }
        switch text[start] {
        case UInt8(ascii: "\""):
            return endOfString(text, start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < text.count {
                switch text[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(text, index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
                index += 1
            }
            return index
        default:
            var index = start
            while index < text.count, !isDelimiter(text[index]) { index += 1 }
            return index
        }
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
            || byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
