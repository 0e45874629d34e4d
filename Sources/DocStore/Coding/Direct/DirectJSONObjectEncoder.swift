/// Writes the members of one JSON object, for the code `@Document` generates
/// (see ``DirectJSONEncodable``): one call a stored property, in the order the
/// synthesized `encode(to:)` would encode them.
///
/// Every `encode` takes the member's name (for error paths) and its JSON text
/// with the colon, `"name":`, escaped at compile time by the macro, so nothing
/// is escaped or looked up at run time. The overload the compiler picks for a
/// property's type does what the matching `KeyedEncodingContainer` call of
/// synthesized `Codable` does: an optional property is left out when nil
/// (`encodeIfPresent`), the common scalars are written directly, a nested
/// `@Document` model through its own generated code, arrays element by
/// element, and any other value through its `encode(to:)`, exactly as the
/// store's `Encoder` runs it. Not meant to be called by hand.
public struct DirectJSONObjectEncoder {
    let encoder: StreamEncoder
    let frame: StreamEncoder.FrameRef

    /// The separator and the member's key.
    @inline(__always)
    private func begin(_ key: StaticString) throws(DocumentCodingError) {
        try encoder.beginMember(frame, json: key)
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ value: T, _ key: StaticString) throws(DocumentCodingError) {
        try begin(key)
        JSONWriter.appendInteger(value, to: &encoder.bytes)
    }

    private func floatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: F, _ name: String, _ key: StaticString
    ) throws(DocumentCodingError) {
        try begin(key)
        guard value.isFinite else {
            return try encoder.writeFloatingPoint(value, path: encoder.codingPath, key: StringCodingKey(name))
        }
        JSONWriter.appendFinite(value, to: &encoder.bytes)
    }

    // MARK: Scalars

    /// Writes the member.
    public func encode(_ value: String, forKey name: String, json key: StaticString) throws {
        try begin(key)
        JSONWriter.appendString(value, to: &encoder.bytes)
    }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: String?, forKey name: String, json key: StaticString) throws {
        if let value { try encode(value, forKey: name, json: key) }
    }
    /// Writes the member.
    public func encode(_ value: Bool, forKey name: String, json key: StaticString) throws {
        try begin(key)
        encoder.writeBool(value)
    }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: Bool?, forKey name: String, json key: StaticString) throws {
        if let value { try encode(value, forKey: name, json: key) }
    }
    /// Writes the member.
    public func encode(_ value: Double, forKey name: String, json key: StaticString) throws { try floatingPoint(value, name, key) }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: Double?, forKey name: String, json key: StaticString) throws {
        if let value { try floatingPoint(value, name, key) }
    }
    /// Writes the member.
    public func encode(_ value: Float, forKey name: String, json key: StaticString) throws { try floatingPoint(value, name, key) }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: Float?, forKey name: String, json key: StaticString) throws {
        if let value { try floatingPoint(value, name, key) }
    }
    /// Writes the member.
    public func encode(_ value: Int, forKey name: String, json key: StaticString) throws { try integer(value, key) }
    /// Writes the member.
    public func encode(_ value: Int8, forKey name: String, json key: StaticString) throws { try integer(value, key) }
    /// Writes the member.
    public func encode(_ value: Int16, forKey name: String, json key: StaticString) throws { try integer(value, key) }
    /// Writes the member.
    public func encode(_ value: Int32, forKey name: String, json key: StaticString) throws { try integer(value, key) }
    /// Writes the member.
    public func encode(_ value: Int64, forKey name: String, json key: StaticString) throws { try integer(value, key) }
    /// Writes the member.
    public func encode(_ value: UInt, forKey name: String, json key: StaticString) throws { try integer(value, key) }
    /// Writes the member.
    public func encode(_ value: UInt8, forKey name: String, json key: StaticString) throws { try integer(value, key) }
    /// Writes the member.
    public func encode(_ value: UInt16, forKey name: String, json key: StaticString) throws { try integer(value, key) }
    /// Writes the member.
    public func encode(_ value: UInt32, forKey name: String, json key: StaticString) throws { try integer(value, key) }
    /// Writes the member.
    public func encode(_ value: UInt64, forKey name: String, json key: StaticString) throws { try integer(value, key) }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: Int?, forKey name: String, json key: StaticString) throws { if let value { try integer(value, key) } }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: Int8?, forKey name: String, json key: StaticString) throws { if let value { try integer(value, key) } }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: Int16?, forKey name: String, json key: StaticString) throws { if let value { try integer(value, key) } }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: Int32?, forKey name: String, json key: StaticString) throws { if let value { try integer(value, key) } }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: Int64?, forKey name: String, json key: StaticString) throws { if let value { try integer(value, key) } }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: UInt?, forKey name: String, json key: StaticString) throws { if let value { try integer(value, key) } }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: UInt8?, forKey name: String, json key: StaticString) throws { if let value { try integer(value, key) } }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: UInt16?, forKey name: String, json key: StaticString) throws { if let value { try integer(value, key) } }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: UInt32?, forKey name: String, json key: StaticString) throws { if let value { try integer(value, key) } }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: UInt64?, forKey name: String, json key: StaticString) throws { if let value { try integer(value, key) } }

    // MARK: Nested values

    /// Any other value, through its `encode(to:)` (Date, UUID, Decimal, enums,
    /// dictionaries, types without `@Document`…).
    public func encode<T: Encodable>(_ value: T, forKey name: String, json key: StaticString) throws {
        try begin(key)
        try encoder.writeValue(value, path: encoder.codingPath, key: StringCodingKey(name))
    }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode<T: Encodable>(_ value: T?, forKey name: String, json key: StaticString) throws {
        if let value { try encode(value, forKey: name, json: key) }
    }
    /// A nested `@Document` model, through its generated code.
    public func encode<T: DirectJSONEncodable>(_ value: T, forKey name: String, json key: StaticString) throws {
        try begin(key)
        try encoder.writeDirect(value, key: StringCodingKey(name))
    }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode<T: DirectJSONEncodable>(_ value: T?, forKey name: String, json key: StaticString) throws {
        if let value { try encode(value, forKey: name, json: key) }
    }
    /// An array, element by element (as `Array.encode(to:)` does).
    public func encode<T: Encodable>(_ value: [T], forKey name: String, json key: StaticString) throws {
        try begin(key)
        try encoder.writeArray(value, key: StringCodingKey(name))
    }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode<T: Encodable>(_ value: [T]?, forKey name: String, json key: StaticString) throws {
        if let value { try encode(value, forKey: name, json: key) }
    }
    /// Writes the member (an array of strings, without generic iteration).
    public func encode(_ value: [String], forKey name: String, json key: StaticString) throws {
        try begin(key)
        try encoder.writeStringArray(value, key: StringCodingKey(name))
    }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode(_ value: [String]?, forKey name: String, json key: StaticString) throws {
        if let value { try encode(value, forKey: name, json: key) }
    }
    /// An array of `@Document` models, each through its generated code.
    public func encode<T: DirectJSONEncodable>(_ value: [T], forKey name: String, json key: StaticString) throws {
        try begin(key)
        try encoder.writeDirectArray(value, key: StringCodingKey(name))
    }
    /// Writes the member when `value` isn't nil (nil members are left out).
    public func encode<T: DirectJSONEncodable>(_ value: [T]?, forKey name: String, json key: StaticString) throws {
        if let value { try encode(value, forKey: name, json: key) }
    }
}
