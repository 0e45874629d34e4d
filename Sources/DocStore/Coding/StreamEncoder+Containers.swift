/// An object being written: each call writes `,"key":value` at once.
struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: StreamEncoder
    let frame: StreamEncoder.FrameRef
    let codingPath: [any CodingKey]

    private func begin(_ key: Key) throws {
        guard encoder.beginElement(frame, key: key.stringValue) else {
            throw encoder.staleContainer(at: codingPath)
        }
    }

    /// Writes `null`. Only explicit calls get here: `encodeIfPresent` (what
    /// synthesized Codable uses for optionals) leaves nil members out.
    mutating func encodeNil(forKey key: Key) throws { try begin(key); encoder.writeNull() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try begin(key); encoder.writeBool(value) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try begin(key)
        JSONWriter.appendString(value, to: &encoder.bytes)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try begin(key)
        try encoder.writeFloatingPoint(value, path: codingPath, key: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try begin(key)
        try encoder.writeFloatingPoint(value, path: codingPath, key: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try begin(key); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try begin(key); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try begin(key); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try begin(key); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try begin(key); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try begin(key); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try begin(key); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try begin(key); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try begin(key); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try begin(key); JSONWriter.appendInteger(value, to: &encoder.bytes) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try begin(key)
        try encoder.writeValue(value, path: codingPath, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [key]
        guard encoder.beginElement(frame, key: key.stringValue) else {
            // Recorded as misuse; writes into this container fail too.
            encoder.staleContainer(at: codingPath)
            return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(encoder: encoder, frame: .init(depth: .max, id: 0), codingPath: path))
        }
        let nested = encoder.openFrame(isObject: true)
        return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(encoder: encoder, frame: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let path = codingPath + [key]
        guard encoder.beginElement(frame, key: key.stringValue) else {
            encoder.staleContainer(at: codingPath)
            return StreamUnkeyedContainer(encoder: encoder, frame: .init(depth: .max, id: 0), codingPath: path)
        }
        return StreamUnkeyedContainer(encoder: encoder, frame: encoder.openFrame(isObject: false), codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let key = StringCodingKey("super")
        return encoder.makeSuperEncoder(in: frame, key: key.stringValue, codingPath: codingPath + [key])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.makeSuperEncoder(in: frame, key: key.stringValue, codingPath: codingPath + [key])
    }
}

/// An array being written, element by element.
struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
    // Three words: fits an existential's inline buffer, so returning it as
    // `any UnkeyedEncodingContainer` does not allocate.
    let encoder: StreamEncoder
    let frame: StreamEncoder.FrameRef
    let codingPath: [any CodingKey]

    var count: Int { encoder.elementCount(frame) }

    /// Starts an element and returns its index key (for error paths).
    private func begin() throws -> IndexCodingKey {
        guard encoder.beginElement(frame, key: nil) else {
            throw encoder.staleContainer(at: codingPath)
        }
        return IndexCodingKey(count - 1)
    }

    mutating func encodeNil() throws { _ = try begin(); encoder.writeNull() }
    mutating func encode(_ value: Bool) throws { _ = try begin(); encoder.writeBool(value) }
    mutating func encode(_ value: String) throws { _ = try begin(); JSONWriter.appendString(value, to: &encoder.bytes) }
    mutating func encode(_ value: Double) throws {
        let key = try begin()
        try encoder.writeFloatingPoint(value, path: codingPath, key: key)
    }
    mutating func encode(_ value: Float) throws {
        let key = try begin()
        try encoder.writeFloatingPoint(value, path: codingPath, key: key)
    }
    mutating func encode(_ value: Int) throws { _ = try begin(); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: Int8) throws { _ = try begin(); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: Int16) throws { _ = try begin(); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: Int32) throws { _ = try begin(); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: Int64) throws { _ = try begin(); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: UInt) throws { _ = try begin(); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: UInt8) throws { _ = try begin(); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: UInt16) throws { _ = try begin(); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: UInt32) throws { _ = try begin(); JSONWriter.appendInteger(value, to: &encoder.bytes) }
    mutating func encode(_ value: UInt64) throws { _ = try begin(); JSONWriter.appendInteger(value, to: &encoder.bytes) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = try begin()
        try encoder.writeValue(value, path: codingPath, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        guard encoder.beginElement(frame, key: nil) else {
            encoder.staleContainer(at: codingPath)
            return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(encoder: encoder, frame: .init(depth: .max, id: 0), codingPath: codingPath))
        }
        let path = codingPath + [IndexCodingKey(count - 1)]
        return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(encoder: encoder, frame: encoder.openFrame(isObject: true), codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        guard encoder.beginElement(frame, key: nil) else {
            encoder.staleContainer(at: codingPath)
            return StreamUnkeyedContainer(encoder: encoder, frame: .init(depth: .max, id: 0), codingPath: codingPath)
        }
        let path = codingPath + [IndexCodingKey(count - 1)]
        return StreamUnkeyedContainer(encoder: encoder, frame: encoder.openFrame(isObject: false), codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        encoder.makeSuperEncoder(in: frame, key: nil, codingPath: codingPath + [IndexCodingKey(count)])
    }
}
