import DocStore

/// Finds where JSON text nests arrays and objects deeper than
/// ``DocumentStore/maximumNestingDepth``, the one limit every entry to the store
/// enforces. libjansson alone would accept 2 048 levels: a document that the store
/// could then never read back.
///
/// A scan of the bytes (strings skipped), run before jansson parses, so the error
/// points at the bracket that goes one level too deep, with its line and column
/// as jansson counts them (1-based, columns in Unicode characters).
enum NestingDepthScan {
    /// The reason given when the limit is passed.
    static var reason: String {
        "nests arrays and objects deeper than \(DocumentStore.maximumNestingDepth) levels, DocStore's limit (DocumentStore.maximumNestingDepth)"
    }

    /// Where the first container deeper than the limit opens, or nil. A
    /// top-level array is a list of documents (an import file, `insert([…])`):
    /// each element is measured from itself.
    static func firstTooDeep(in bytes: UnsafeRawBufferPointer) -> SourceLocation? {
        var limit = DocumentStore.maximumNestingDepth
        var depth = 0
        var line = 1
        var column = 0
        var inString = false
        var escaped = false
        var seenValue = false
        for byte in bytes {
            if byte == 0x0A {
                line += 1
                column = 0
                continue
            }
            // Continuation bytes of a multi-byte character don't start a column.
            if byte & 0xC0 != 0x80 { column += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if !seenValue, byte == UInt8(ascii: "[") { limit += 1 }
                depth += 1
                if depth > limit { return SourceLocation(line: line, column: column) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
            if byte != 0x20, byte != 0x09, byte != 0x0D { seenValue = true }
        }
        return nil
    }
}
