/// Reads the members of one JSON object, for the code `@Document` generates
/// (see ``DirectJSONDecodable``): one call a stored property, in the order the
/// synthesized `init(from:)` would decode them.
///
/// Members are found by name on the parsed document, remembering where the
/// last one was (documents written by DocStore have their members in that
/// order). The overload the compiler picks for a property's type does what the
/// matching `KeyedDecodingContainer` call of synthesized `Codable` does: an
/// optional property reads a missing member or `null` as nil
/// (`decodeIfPresent`), another a missing member as `keyNotFound`; errors name
/// the same coding path and reason. Not meant to be called by hand.
public struct DirectJSONObjectDecoder {
    let decoder: TapeDecoder
    let object: Int

    /// The tape index of the member's value; a missing member is `keyNotFound`.
    @inline(__always)
    private func value(_ name: String) throws(DocumentCodingError) -> Int {
        guard let index = decoder.find(name: name, in: object) else {
            throw DocumentCodingError(.keyNotFound, at: decoder.codingPath + [StringCodingKey(name)], "no value for key \"\(name)\"")
        }
        return index
    }

    /// The tape index of the member's value, or nil when it is missing or null.
    @inline(__always)
    private func presentValue(_ name: String) -> Int? {
        guard let index = decoder.find(name: name, in: object), decoder.tape.entries[index].kind != .null else { return nil }
        return index
    }

    private func integer<T: FixedWidthInteger>(_ name: String) throws(DocumentCodingError) -> T {
        try decoder.decodeInteger(T.self, at: value(name), path: decoder.codingPath, key: StringCodingKey(name))
    }

    private func optionalInteger<T: FixedWidthInteger>(_ name: String) throws(DocumentCodingError) -> T? {
        guard let index = presentValue(name) else { return nil }
        return try decoder.decodeInteger(T.self, at: index, path: decoder.codingPath, key: StringCodingKey(name))
    }

    // MARK: Scalars

    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: String.Type, forKey name: String) throws -> String {
        try decoder.decodeString(at: value(name), path: decoder.codingPath, key: StringCodingKey(name))
    }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: String?.Type, forKey name: String) throws -> String? {
        guard let index = presentValue(name) else { return nil }
        return try decoder.decodeString(at: index, path: decoder.codingPath, key: StringCodingKey(name))
    }
    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: Bool.Type, forKey name: String) throws -> Bool {
        try decoder.decodeBool(at: value(name), path: decoder.codingPath, key: StringCodingKey(name))
    }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: Bool?.Type, forKey name: String) throws -> Bool? {
        guard let index = presentValue(name) else { return nil }
        return try decoder.decodeBool(at: index, path: decoder.codingPath, key: StringCodingKey(name))
    }
    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: Double.Type, forKey name: String) throws -> Double {
        try decoder.decodeDouble(at: value(name), path: decoder.codingPath, key: StringCodingKey(name))
    }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: Double?.Type, forKey name: String) throws -> Double? {
        guard let index = presentValue(name) else { return nil }
        return try decoder.decodeDouble(at: index, path: decoder.codingPath, key: StringCodingKey(name))
    }
    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: Float.Type, forKey name: String) throws -> Float {
        try decoder.decodeFloat(at: value(name), path: decoder.codingPath, key: StringCodingKey(name))
    }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: Float?.Type, forKey name: String) throws -> Float? {
        guard let index = presentValue(name) else { return nil }
        return try decoder.decodeFloat(at: index, path: decoder.codingPath, key: StringCodingKey(name))
    }
    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: Int.Type, forKey name: String) throws -> Int { try integer(name) }
    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: Int8.Type, forKey name: String) throws -> Int8 { try integer(name) }
    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: Int16.Type, forKey name: String) throws -> Int16 { try integer(name) }
    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: Int32.Type, forKey name: String) throws -> Int32 { try integer(name) }
    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: Int64.Type, forKey name: String) throws -> Int64 { try integer(name) }
    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: UInt.Type, forKey name: String) throws -> UInt { try integer(name) }
    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: UInt8.Type, forKey name: String) throws -> UInt8 { try integer(name) }
    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: UInt16.Type, forKey name: String) throws -> UInt16 { try integer(name) }
    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: UInt32.Type, forKey name: String) throws -> UInt32 { try integer(name) }
    /// Reads the member; a missing key is `keyNotFound`.
    public func decode(_ type: UInt64.Type, forKey name: String) throws -> UInt64 { try integer(name) }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: Int?.Type, forKey name: String) throws -> Int? { try optionalInteger(name) }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: Int8?.Type, forKey name: String) throws -> Int8? { try optionalInteger(name) }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: Int16?.Type, forKey name: String) throws -> Int16? { try optionalInteger(name) }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: Int32?.Type, forKey name: String) throws -> Int32? { try optionalInteger(name) }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: Int64?.Type, forKey name: String) throws -> Int64? { try optionalInteger(name) }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: UInt?.Type, forKey name: String) throws -> UInt? { try optionalInteger(name) }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: UInt8?.Type, forKey name: String) throws -> UInt8? { try optionalInteger(name) }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: UInt16?.Type, forKey name: String) throws -> UInt16? { try optionalInteger(name) }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: UInt32?.Type, forKey name: String) throws -> UInt32? { try optionalInteger(name) }
    /// Reads the member; missing or null is nil.
    public func decode(_ type: UInt64?.Type, forKey name: String) throws -> UInt64? { try optionalInteger(name) }

    // MARK: Nested values

    /// Reads any other value through its `init(from:)` (Date, UUID, Decimal,
    /// enums, dictionaries, types without `@Document`…).
    public func decode<T: Decodable>(_ type: T.Type, forKey name: String) throws -> T {
        try decoder.decodeValue(T.self, at: value(name), path: decoder.codingPath, key: StringCodingKey(name))
    }
    /// Reads any other value; missing or null is nil.
    public func decode<T: Decodable>(_ type: T?.Type, forKey name: String) throws -> T? {
        guard let index = presentValue(name) else { return nil }
        return try decoder.decodeValue(T.self, at: index, path: decoder.codingPath, key: StringCodingKey(name))
    }
    /// Reads a nested `@Document` model through its generated code.
    public func decode<T: DirectJSONDecodable>(_ type: T.Type, forKey name: String) throws -> T {
        try decoder.decodeDirect(T.self, at: value(name), key: StringCodingKey(name))
    }
    /// Reads a nested `@Document` model; missing or null is nil.
    public func decode<T: DirectJSONDecodable>(_ type: T?.Type, forKey name: String) throws -> T? {
        guard let index = presentValue(name) else { return nil }
        return try decoder.decodeDirect(T.self, at: index, key: StringCodingKey(name))
    }
    /// Reads an array element by element (as `Array.init(from:)` does).
    public func decode<T: Decodable>(_ type: [T].Type, forKey name: String) throws -> [T] {
        try decoder.decodeArray(T.self, at: value(name), key: StringCodingKey(name))
    }
    /// Reads an array; missing or null is nil.
    public func decode<T: Decodable>(_ type: [T]?.Type, forKey name: String) throws -> [T]? {
        guard let index = presentValue(name) else { return nil }
        return try decoder.decodeArray(T.self, at: index, key: StringCodingKey(name))
    }
    /// Reads an array of strings (without generic calls).
    public func decode(_ type: [String].Type, forKey name: String) throws -> [String] {
        try decoder.decodeStringArray(at: value(name), key: StringCodingKey(name))
    }
    /// Reads an array of strings; missing or null is nil.
    public func decode(_ type: [String]?.Type, forKey name: String) throws -> [String]? {
        guard let index = presentValue(name) else { return nil }
        return try decoder.decodeStringArray(at: index, key: StringCodingKey(name))
    }
    /// Reads an array of `@Document` models, each through its generated code.
    public func decode<T: DirectJSONDecodable>(_ type: [T].Type, forKey name: String) throws -> [T] {
        try decoder.decodeDirectArray(T.self, at: value(name), key: StringCodingKey(name))
    }
    /// Reads an array of `@Document` models; missing or null is nil.
    public func decode<T: DirectJSONDecodable>(_ type: [T]?.Type, forKey name: String) throws -> [T]? {
        guard let index = presentValue(name) else { return nil }
        return try decoder.decodeDirectArray(T.self, at: index, key: StringCodingKey(name))
    }
}
