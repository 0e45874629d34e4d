import CJansson
@_spi(Backends) import DocStore
import OrderedCollections

/// JSON text parsed by libjansson into ``JSONValue``s.
///
/// jansson reports errors with a line and a column (counted in Unicode
/// characters, 1-based), which the REPL turns into carets under typed input and
/// line numbers in imports. Objects come back with their members in document
/// order: jansson (since 2.8) keeps insertion order in its object iteration, so
/// `JSON_PRESERVE_ORDER` is no longer needed (it is a no-op for dumping).
enum JanssonJSON {
    /// A parse failure: where, and jansson's reason.
    struct ParseError: Error, Hashable, Sendable {
        var location: SourceLocation
        var reason: String
    }

    /// Decoding flags: any value at top level (not only arrays and objects);
    /// `\u0000` allowed inside strings (JSONValue strings hold NUL, and refusing
    /// them would refuse valid JSON); duplicate keys refused, since which of two
    /// values a document "has" would otherwise be silently decided; integers
    /// read as reals, since jansson refuses those beyond 64 bits, and every
    /// number's value is then taken from its own text (``NumberTexts``).
    static let flags = Int(JSON_DECODE_ANY | JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL)

    /// Parses `text` as one JSON value.
    static func parse(_ text: String) throws(ParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(ParseError) -> JSONValue in try parse(UnsafeRawBufferPointer(bytes)) }
        }
        return try result.get()
    }

    /// Parses UTF-8 bytes as one JSON value. Invalid UTF-8 is an error.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(ParseError) -> JSONValue {
        if let location = NestingDepthScan.firstTooDeep(in: bytes) {
            throw ParseError(location: location, reason: NestingDepthScan.reason)
        }
        var error = json_error_t()
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        // jansson wants a non-null pointer even for empty input.
        let empty: CChar = 0
        let root: UnsafeMutablePointer<json_t>? = withUnsafePointer(to: empty) { emptyPointer in
            json_loadb(base ?? emptyPointer, bytes.count, flags, &error)
        }
        guard let root else {
            throw ParseError(location: location(of: error), reason: explained(reason(of: error)))
        }
        defer { json_decref(root) }
        var numbers = NumberTexts(bytes)
        var repeated: (first: String, second: String)?
        let value = convert(root, depth: 0, numbers: &numbers, repeated: &repeated)
        if let (first, second) = repeated {
            throw ParseError(location: location(ofName: second, in: bytes), reason: canonicalRepeatReason(first, second))
        }
        return value
    }

    /// Two member names of one object that differ in bytes but not as Swift
    /// strings (canonically equivalent): a ``JSONValue`` object, keyed by
    /// `String`, would keep one of them, silently (helper-46).
    static func canonicalRepeatReason(_ first: String, _ second: String) -> String {
        "duplicate member name \"\(second)\": it is \"\(first)\" written another way (\(ExactText.scalarList(first)) and \(ExactText.scalarList(second))), which a document can't hold twice; rename one, or write both the same way"
    }

    /// Where `name` is first written as a member name in `bytes` (1-based line
    /// and column in characters), or the start when it is written with escapes.
    static func location(ofName name: String, in bytes: UnsafeRawBufferPointer) -> SourceLocation {
        let needle = Array(("\"" + name + "\"").utf8)
        guard needle.count <= bytes.count else { return SourceLocation(line: 1, column: 1) }
        var line = 1, lineStart = 0
        for offset in 0...(bytes.count - needle.count) {
            if bytes[offset] == UInt8(ascii: "\n") { line += 1; lineStart = offset + 1 }
            if bytes[offset] == needle[0], needle.indices.allSatisfy({ bytes[offset + $0] == needle[$0] }) {
                let before = UnsafeRawBufferPointer(rebasing: bytes[lineStart..<offset])
                return SourceLocation(line: line, column: String(decoding: before, as: UTF8.self).count + 1)
            }
        }
        return SourceLocation(line: 1, column: 1)
    }

    /// Where the offending token starts. jansson reports the column of the
    /// token's last character (it has read the token when it finds it wrong)
    /// and names the token in its message ("invalid token near 'tru'"), so the
    /// start is that column minus the token's length; an error at the end of
    /// the input points just past the last character.
    static func location(of error: json_error_t) -> SourceLocation {
        let line = max(1, Int(error.line))
        let column = max(0, Int(error.column))
        let text = reason(of: error)
        if text.hasSuffix("near end of file") { return SourceLocation(line: line, column: column + 1) }
        if let open = text.range(of: " near '"), text.hasSuffix("'") {
            let token = text[open.upperBound...].dropLast()
            return SourceLocation(line: line, column: max(1, column - token.count + 1))
        }
        return SourceLocation(line: line, column: max(1, column))
    }

    /// jansson's reason, with a hint for the habits JSON refuses: unquoted member
    /// names (`{id: 1}`, as mongosh and JavaScript allow) and single quotes.
    static func explained(_ reason: String) -> String {
        if reason.hasPrefix("string or '}' expected") {
            return reason + " (member names are quoted in JSON: {\"id\": 1})"
        }
        if reason.hasPrefix("invalid token near ''") {
            return reason + " (JSON strings take double quotes)"
        }
        return reason
    }

    static func reason(of error: json_error_t) -> String {
        var copy = error
        return withUnsafeBytes(of: &copy.text) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Converts a jansson value. jansson itself refuses nesting deeper than
    /// 2048 levels (JSON_PARSER_MAX_DEPTH), so the recursion is bounded.
    private static func convert(_ value: UnsafeMutablePointer<json_t>, depth: Int, numbers: inout NumberTexts,
                                repeated: inout (first: String, second: String)?) -> JSONValue {
        switch value.pointee.type {
        case JSON_NULL: return .null
        case JSON_TRUE: return .bool(true)
        case JSON_FALSE: return .bool(false)
        case JSON_INTEGER: return numbers.next() ?? .integer(Int64(json_integer_value(value)))
        case JSON_REAL: return numbers.next() ?? .double(json_real_value(value))
        case JSON_STRING: return .string(string(value))
        case JSON_ARRAY:
            let count = json_array_size(value)
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            for index in 0..<count {
                guard let element = json_array_get(value, index) else { continue }
                elements.append(convert(element, depth: depth + 1, numbers: &numbers, repeated: &repeated))
            }
            return .array(elements)
        case JSON_OBJECT:
            var members = OrderedDictionary<String, JSONValue>(minimumCapacity: json_object_size(value))
            var iterator = json_object_iter(value)
            while let current = iterator {
                if let keyPointer = json_object_iter_key(current), let member = json_object_iter_value(current) {
                    let length = json_object_iter_key_len(current)
                    let key = keyPointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                    }
                    // jansson refused names with the same bytes: one equal as
                    // a Swift string is the same text written another way.
                    if repeated == nil, let index = members.index(forKey: key) {
                        repeated = (members.keys[index], key)
                    }
                    members[key] = convert(member, depth: depth + 1, numbers: &numbers, repeated: &repeated)
                }
                iterator = json_object_iter_next(value, current)
            }
            return .object(members)
        default:
            return .null
        }
    }

    /// A string value, with any NUL characters it holds.
    private static func string(_ value: UnsafeMutablePointer<json_t>) -> String {
        guard let pointer = json_string_value(value) else { return "" }
        let length = json_string_length(value)
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}
