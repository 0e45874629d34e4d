import Foundation

/// Converts between `Codable` models, JSON text and `JSONValue`: the one codec
/// of the library (internal, so it can be replaced).
///
/// Value conventions (the stored JSON format):
/// - **Optionals**: a nil property is left out of its object (what synthesized
///   `Codable`'s `encodeIfPresent` asks for); `null` is written only by an
///   explicit `encodeNil`. A missing key and `null` both decode to nil. Nil
///   elements of arrays are `null`.
/// - **Integers**: every fixed-width type is exact, including `Int64.min`,
///   `Int64.max` and `UInt64.max`, written as plain JSON integers. An integer
///   property also accepts a real with an integral value (`3.0`, `1e3`); a
///   fraction or an out-of-range value is a `typeMismatch` naming the path.
/// - **Double / Float**: the shortest text that reads back as the same value
///   (`0.1`, `1e-05`, `5e-324`); integral values keep `.0` (`3.0`) so their
///   JSON type stays real; `-0.0` round-trips. NaN and infinities throw
///   `unsupportedValue` naming the path: invalid JSON is never written.
///   Decoding accepts JSON integers and rounds correctly.
/// - **Decimal**: a JSON number with the exact decimal digits, decoded from
///   the number's text (never through `Double`).
/// - **Date**: fixed-width ISO 8601 UTC text with nine fractional digits,
///   `"2026-11-21T03:31:13.123456789Z"`: text order is time order and the round
///   trip is exact for years 0001...9999 (see `ISO8601Date` for the
///   sub-nanosecond dates near 2001-01-01, which get more digits). Other dates
///   throw `unsupportedValue`. Decoding also accepts no or fewer fractional
///   digits, lowercase `t`/`z`, a space for `T`, and `+hh:mm` offsets.
/// - **Data**: base64 (standard alphabet, padded). **URL**: `absoluteString`.
///   **UUID**: `uuidString` (uppercase); decoding accepts either case.
/// - **Dictionaries**: `[String: V]` and `[Int: V]` are objects (integer keys
///   as strings); other key types are arrays of alternating keys and values
///   (as with JSONEncoder). Object key order follows the `Encodable`
///   implementation (declaration order for synthesized `Codable`; a
///   dictionary's own iteration order, which varies between processes).
/// - **Strings**: any Unicode text, NUL included; `"`, `\` and control
///   characters are escaped, everything else is written as UTF-8.
/// - Unknown keys in a document are ignored when decoding.
enum DocumentCodec {
    /// Encodes a model to compact JSON text (UTF-8 bytes), keys in the order
    /// the `Encodable` implementation emits them.
    ///
    /// - Throws: `unsupportedValue` for NaN, infinities and out-of-range dates,
    ///   naming the coding path; errors thrown by the model's own `encode(to:)`.
    static func encode<T: Encodable>(_ value: T) throws(DocumentCodingError) -> [UInt8] {
        let encoder = StreamEncoder()
        try encode(value, with: encoder)
        return encoder.bytes.array
    }

    /// Encodes into `encoder`'s buffer (reset first, so one encoder serves a whole
    /// batch without allocating per document); read the text from `encoder.bytes`.
    /// A model with generated coding (`@Document`) is written by it; the bytes
    /// are the same as `encode(to:)`'s.
    static func encode<T: Encodable>(_ value: T, with encoder: StreamEncoder, as encoding: DocumentEncoding<T> = .init()) throws(DocumentCodingError) {
        try encoding.encode(value, with: encoder)
    }

    /// Encodes through the value's `encode(to:)`, even when `@Document`
    /// generated direct coding for it (the reference the generated code is
    /// tested against).
    static func encodeThroughCodable<T: Encodable>(_ value: T, with encoder: StreamEncoder) throws(DocumentCodingError) {
        encoder.reset()
        do {
            try encoder.writeValue(value, path: [], key: nil)
        } catch {
            throw DocumentCodingError.wrap(error, at: encoder.codingPath)
        }
        encoder.closeFrames(downTo: 0)
        if let misuse = encoder.misuse { throw misuse }
    }

    /// Decodes a model from JSON text (as read from SQLite; not NUL-terminated).
    /// A model with generated coding (`@Document`) is read by it; it accepts and
    /// rejects the same documents as `init(from:)`, with the same errors.
    ///
    /// - Throws: `invalidJSON` with line and column; `typeMismatch`,
    ///   `valueNotFound`, `keyNotFound` or `invalidValue` naming the coding path.
    static func decode<T: Decodable>(
        _ type: T.Type, from bytes: UnsafeRawBufferPointer, as decoding: DocumentDecoding<T> = .init()
    ) throws(DocumentCodingError) -> T {
        try decoding.decode(from: parseTape(bytes.assumingMemoryBound(to: UInt8.self)))
    }

    /// Decodes through the type's `init(from:)`, even when `@Document`
    /// generated direct coding for it (the reference the generated code is
    /// tested against).
    static func decodeThroughCodable<T: Decodable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) throws(DocumentCodingError) -> T {
        try decodeThroughCodable(type, from: parseTape(bytes.assumingMemoryBound(to: UInt8.self)))
    }

    /// Decodes a parsed document through the type's `init(from:)`.
    static func decodeThroughCodable<T: Decodable>(_ type: T.Type, from tape: JSONTape) throws(DocumentCodingError) -> T {
        let decoder = TapeDecoder(tape: tape)
        do {
            return try decoder.decodeValue(T.self, at: 0, path: [], key: nil)
        } catch {
            throw DocumentCodingError.wrap(error, at: decoder.codingPath)
        }
    }

    /// Decodes a model from JSON text bytes.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(DocumentCodingError) -> T {
        try withBytes(bytes) { (raw) throws(DocumentCodingError) -> T in try decode(type, from: raw) }
    }

    /// Decodes a model from JSON text.
    static func decode<T: Decodable>(_ type: T.Type, from text: String) throws(DocumentCodingError) -> T {
        try decode(type, from: Array(text.utf8))
    }

    /// Encodes a model to a `JSONValue` (for query literals and projections).
    static func encodeValue<T: Encodable>(_ value: T) throws(DocumentCodingError) -> JSONValue {
        // Through the text: one code path for every convention (dates, numbers…),
        // and query literals are small.
        let bytes = try encode(value)
        return try withBytes(bytes) { (raw) throws(DocumentCodingError) -> JSONValue in try parse(raw) }
    }

    /// Decodes a model from a `JSONValue`.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(DocumentCodingError) -> T {
        try decode(type, from: value, as: ScalarType(T.self))
    }

    /// Decodes a value of a type whose ``ScalarType`` was found beforehand (a
    /// column read row after row finds it once). The common scalars and nil are
    /// decoded directly, as the full decoder would decode them; anything else
    /// goes through the full decoder.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, as scalar: ScalarType) throws(DocumentCodingError) -> T {
        // unsafeBitCast between a type and itself: `scalar` was made from T.
        switch (scalar, value) {
        case (.string, .string(let string)): return unsafeBitCast(string, to: T.self)
        case (.optionalString, .string(let string)): return unsafeBitCast(String?.some(string), to: T.self)
        case (.int, .integer(let integer)): return unsafeBitCast(Int(integer), to: T.self)
        case (.optionalInt, .integer(let integer)): return unsafeBitCast(Int?.some(Int(integer)), to: T.self)
        // Correctly rounded, as the decoder reads an integer as a Double.
        case (.double, .double(let double)): return unsafeBitCast(double, to: T.self)
        case (.double, .integer(let integer)): return unsafeBitCast(Double(integer), to: T.self)
        case (.optionalDouble, .double(let double)): return unsafeBitCast(Double?.some(double), to: T.self)
        case (.optionalDouble, .integer(let integer)): return unsafeBitCast(Double?.some(Double(integer)), to: T.self)
        case (.bool, .bool(let bool)): return unsafeBitCast(bool, to: T.self)
        case (.optionalBool, .bool(let bool)): return unsafeBitCast(Bool?.some(bool), to: T.self)
        // nil without asking T at run time whether it is an optional.
        case (.optionalString, .null): return unsafeBitCast(String?.none, to: T.self)
        case (.optionalInt, .null): return unsafeBitCast(Int?.none, to: T.self)
        case (.optionalDouble, .null): return unsafeBitCast(Double?.none, to: T.self)
        case (.optionalBool, .null): return unsafeBitCast(Bool?.none, to: T.self)
        default:
            return try decodeOther(type, from: value)
        }
    }

    /// The rest of ``decode(_:from:as:)``: nil as another optional type, other
    /// types, and a value of another kind (whose error the decoder words). Apart,
    /// because its `as? T` makes a function ask for `Optional<T>`'s metadata on
    /// entry, every call, whichever case it takes.
    @inline(never)
    private static func decodeOther<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(DocumentCodingError) -> T {
        if case .null = value, let optional = T.self as? any ExpressibleByNilLiteral.Type,
           let none = optional.init(nilLiteral: ()) as? T {
            return none
        }
        return try decode(type, from: serialize(value))
    }

    /// Which of the common scalar types `T` is, found once for a column: each
    /// metatype comparison at run time looks up generic metadata (`String?`…),
    /// which cost more than decoding the value itself.
    enum ScalarType: Sendable {
        case string, optionalString, int, optionalInt, double, optionalDouble, bool, optionalBool, other

        init<T>(_ type: T.Type) {
            self = if T.self == String.self { .string }
                else if T.self == String?.self { .optionalString }
                else if T.self == Int.self { .int }
                else if T.self == Int?.self { .optionalInt }
                else if T.self == Double.self { .double }
                else if T.self == Double?.self { .optionalDouble }
                else if T.self == Bool.self { .bool }
                else if T.self == Bool?.self { .optionalBool }
                else { .other }
        }
    }

    /// Parses any JSON text into a `JSONValue` (objects keep key order; with
    /// duplicate keys, the first wins, as in SQLite's JSON functions). Integers
    /// that fit `Int64` become `.integer`, numbers a `Double` holds exactly
    /// `.double`, and others `.exactNumber`, digit for digit.
    ///
    /// - Throws: `invalidJSON(line:column:)` (1-based; the column counts Unicode
    ///   scalars) for anything RFC 8259 rejects: trailing commas, comments,
    ///   leading zeros, invalid UTF-8, lone surrogate escapes, data after the
    ///   value, nesting deeper than 512 levels, numbers beyond `Double`'s range.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(DocumentCodingError) -> JSONValue {
        let tape = try parseTape(bytes.assumingMemoryBound(to: UInt8.self))
        return tape.value(at: 0)
    }

    /// Validates JSON text as a stored document, as every read would parse it
    /// (RFC 8259, UTF-8, nesting within ``DocumentStore/maximumNestingDepth``).
    /// Returns whether some object repeats a member name.
    ///
    /// - Throws: `invalidJSON(line:column:)` with the reason.
    static func validate(_ bytes: UnsafeRawBufferPointer) throws(DocumentCodingError) -> Bool {
        try parseTape(bytes.assumingMemoryBound(to: UInt8.self)).hasDuplicateKeys
    }

    /// Validates a stored document's text as ``validate(_:)`` does, and also
    /// tells whether some member name is written with escapes it doesn't need
    /// (`"caf\u00e9"`, as Python's `json.dumps` writes it), which SQLite's JSON
    /// paths don't match: queries miss that member while reads show it.
    static func inspect(_ bytes: UnsafeRawBufferPointer) throws(DocumentCodingError) -> (repeatsNames: Bool, escapesNames: Bool) {
        let tape = try parseTape(bytes.assumingMemoryBound(to: UInt8.self))
        return (tape.hasDuplicateKeys, tape.hasNeedlesslyEscapedNames)
    }

    /// Parses JSON text bytes into a `JSONValue`.
    static func parse(_ bytes: [UInt8]) throws(DocumentCodingError) -> JSONValue {
        try withBytes(bytes) { (raw) throws(DocumentCodingError) -> JSONValue in try parse(raw) }
    }

    /// Parses JSON text into a `JSONValue`.
    static func parse(_ text: String) throws(DocumentCodingError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Serializes a `JSONValue`: compact by default; `.sortedKeys` for stable text
    /// (snapshots, exports), `.pretty` for two-space indentation. A non-finite
    /// `.double` (which only code can build) is written as `null`.
    static func serialize(_ value: JSONValue, options: JSONWriteOptions = []) -> [UInt8] {
        var writer = JSONValueWriter(options: options)
        writer.write(value)
        return writer.out.array
    }

    /// Serializes a document compactly, or returns nil when it nests deeper than
    /// ``DocumentStore/maximumNestingDepth`` (checked while writing, so a value
    /// built in code, however deep, never recurses past the limit).
    static func serializeDocument(_ value: JSONValue) -> [UInt8]? {
        var writer = JSONValueWriter(options: [], depthLimit: DocumentStore.maximumNestingDepth)
        writer.write(value)
        return writer.exceededDepthLimit ? nil : writer.out.array
    }

    /// Whether `value` nests arrays and objects more than `levels` deep (a scalar
    /// nests 0 levels). Bounded: never descends past `levels`.
    static func nests(_ value: JSONValue, deeperThan levels: Int) -> Bool {
        // Below zero: the path to the value already nests past the limit.
        guard levels >= 0 else { return true }
        var writer = JSONValueWriter(options: [], depthLimit: max(0, levels))
        writer.write(value)
        return writer.exceededDepthLimit
    }

    /// `Array.withUnsafeBytes` is `rethrows` (untyped); this keeps the error type.
    private static func withBytes<R>(
        _ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(DocumentCodingError) -> R
    ) throws(DocumentCodingError) -> R {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(DocumentCodingError) -> R in try body(raw) }
        }
        return try result.get()
    }

    private static func parseTape(_ input: UnsafeBufferPointer<UInt8>) throws(DocumentCodingError) -> JSONTape {
        do {
            return try JSONParser.parse(input)
        } catch {
            let (line, column) = position(of: error.offset, in: input)
            throw DocumentCodingError(.invalidJSON(line: line, column: column), at: "", error.reason)
        }
    }

    /// 1-based line and column of a byte offset; columns count Unicode scalars
    /// (UTF-8 continuation bytes are skipped). Only computed for errors.
    static func position(of offset: Int, in input: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for index in 0..<min(offset, input.count) {
            let byte = input[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
