/// An object on the tape.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    let object: Int
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        let tape = decoder.tape
        var keys: [Key] = []
        var index = object + 1
        while index < Int(tape.entries[object].end) {
            if let key = Key(stringValue: tape.string(tape.entries[index])) { keys.append(key) }
            index = tape.next(after: index + 1)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool {
        decoder.find(key, in: object) != nil
    }

    /// The value's tape index; a missing key is `keyNotFound` at the key's path.
    private func value(for key: Key) throws(DocumentCodingError) -> Int {
        guard let index = decoder.find(key, in: object) else {
            throw DocumentCodingError(.keyNotFound, at: codingPath + [key], "no value for key \"\(key.stringValue)\"")
        }
        return index
    }

    /// The value's tape index, or nil when the key is missing or null: both mean nil.
    private func presentValue(for key: Key) -> Int? {
        guard let index = decoder.find(key, in: object), decoder.tape.entries[index].kind != .null else { return nil }
        return index
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.tape.entries[try value(for: key)].kind == .null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.decodeBool(at: value(for: key), path: codingPath, key: key)
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.decodeString(at: value(for: key), path: codingPath, key: key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.decodeDouble(at: value(for: key), path: codingPath, key: key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.decodeFloat(at: value(for: key), path: codingPath, key: key)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    private func integer<T: FixedWidthInteger>(_ key: Key) throws(DocumentCodingError) -> T {
        try decoder.decodeInteger(T.self, at: value(for: key), path: codingPath, key: key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decodeValue(T.self, at: value(for: key), path: codingPath, key: key)
    }

    // One look-up instead of the default's contains + decodeNil + decode.
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = presentValue(for: key) else { return nil }
        return try decoder.decodeString(at: index, path: codingPath, key: key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let index = presentValue(for: key) else { return nil }
        return try decoder.decodeInteger(Int.self, at: index, path: codingPath, key: key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let index = presentValue(for: key) else { return nil }
        return try decoder.decodeDouble(at: index, path: codingPath, key: key)
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let index = presentValue(for: key) else { return nil }
        return try decoder.decodeBool(at: index, path: codingPath, key: key)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = presentValue(for: key) else { return nil }
        return try decoder.decodeValue(T.self, at: index, path: codingPath, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.keyedContainer(at: value(for: key), path: codingPath + [key])
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.unkeyedContainer(at: value(for: key), path: codingPath + [key])
    }

    /// The decoder of the "super" member; a missing member reads as null,
    /// as with JSONDecoder.
    func superDecoder() throws -> any Decoder {
        let key = StringCodingKey("super")
        return decoder.subDecoder(at: decoder.find(key, in: object) ?? decoder.tape.absentIndex, path: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.subDecoder(at: decoder.find(key, in: object) ?? decoder.tape.absentIndex, path: codingPath + [key])
    }
}

/// An array on the tape, read front to back.
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let codingPath: [any CodingKey]
    private let elementCount: UInt32
    private var index: UInt32 = 0
    /// The tape index of the next element.
    private var position: Int

    init(decoder: TapeDecoder, array: Int, count: Int, codingPath: [any CodingKey]) {
        self.decoder = decoder
        self.codingPath = codingPath
        self.elementCount = UInt32(count)
        self.position = array + 1
    }

    var count: Int? { Int(elementCount) }
    var currentIndex: Int { Int(index) }
    var isAtEnd: Bool { index >= elementCount }

    /// Takes the next element: its tape index and its key for paths.
    private mutating func next(_ expected: String) throws(DocumentCodingError) -> (Int, IndexCodingKey) {
        guard !isAtEnd else {
            throw DocumentCodingError(.valueNotFound, at: codingPath + [IndexCodingKey(currentIndex)],
                                      "expected \(expected), but the array has only \(elementCount) elements")
        }
        let element = position
        let key = IndexCodingKey(currentIndex)
        position = decoder.tape.next(after: element)
        index += 1
        return (element, key)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, decoder.tape.entries[position].kind == .null else { return false }
        _ = try next("null")
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let (element, key) = try next("Bool")
        return try decoder.decodeBool(at: element, path: codingPath, key: key)
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let (element, key) = try next("String")
        return try decoder.decodeString(at: element, path: codingPath, key: key)
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let (element, key) = try next("Double")
        return try decoder.decodeDouble(at: element, path: codingPath, key: key)
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let (element, key) = try next("Float")
        return try decoder.decodeFloat(at: element, path: codingPath, key: key)
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

    private mutating func integer<T: FixedWidthInteger>() throws(DocumentCodingError) -> T {
        let (element, key) = try next("\(T.self)")
        return try decoder.decodeInteger(T.self, at: element, path: codingPath, key: key)
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (element, key) = try next("\(T.self)")
        return try decoder.decodeValue(T.self, at: element, path: codingPath, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (element, key) = try next("object")
        return try decoder.keyedContainer(at: element, path: codingPath + [key])
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (element, key) = try next("array")
        return try decoder.unkeyedContainer(at: element, path: codingPath + [key])
    }

    mutating func superDecoder() throws -> any Decoder {
        let (element, key) = try next("value")
        return decoder.subDecoder(at: element, path: codingPath + [key])
    }
}

/// The decoder is its own single-value container (no allocation).
extension TapeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { tape.entries[current].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decodeBool(at: current, path: codingPath, key: nil) }
    func decode(_ type: String.Type) throws -> String { try decodeString(at: current, path: codingPath, key: nil) }
    func decode(_ type: Double.Type) throws -> Double { try decodeDouble(at: current, path: codingPath, key: nil) }
    func decode(_ type: Float.Type) throws -> Float { try decodeFloat(at: current, path: codingPath, key: nil) }
    func decode(_ type: Int.Type) throws -> Int { try decodeInteger(Int.self, at: current, path: codingPath, key: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(Int8.self, at: current, path: codingPath, key: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(Int16.self, at: current, path: codingPath, key: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(Int32.self, at: current, path: codingPath, key: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(Int64.self, at: current, path: codingPath, key: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(UInt.self, at: current, path: codingPath, key: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(UInt8.self, at: current, path: codingPath, key: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(UInt16.self, at: current, path: codingPath, key: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(UInt32.self, at: current, path: codingPath, key: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(UInt64.self, at: current, path: codingPath, key: nil) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self, at: current, path: codingPath, key: nil) }
}
