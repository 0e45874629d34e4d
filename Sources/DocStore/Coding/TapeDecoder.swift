import Foundation

/// The `Decoder` behind `DocumentCodec.decode`: it reads a `JSONTape` in place.
///
/// One decoder object serves the whole document; decoding a nested value moves
/// `current` to it and back (no decoder per value). Keyed look-ups remember
/// where the last member was found, so models that decode their keys in
/// document order (synthesized `Codable` does) find each key at the first probe.
///
/// Like `StreamEncoder`, a decoder belongs to one call on one thread and its
/// accesses never overlap, so dynamic exclusivity checks are turned off for
/// its mutable state.
final class TapeDecoder: Decoder {
    let tape: JSONTape
    /// The tape index of the value the running `init(from:)` decodes.
    @exclusivity(unchecked) var current: Int
    @exclusivity(unchecked) var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Look-up hint: in object `hintObject`, the member after the last one found.
    /// (Not private: generated decoding saves and restores it around nested
    /// values, as `decodeNested` does.)
    @exclusivity(unchecked) var hintObject = -1
    @exclusivity(unchecked) var hintPosition = 0

    init(tape: JSONTape, current: Int = 0, codingPath: [any CodingKey] = []) {
        self.tape = tape
        self.current = current
        self.codingPath = codingPath
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try keyedContainer(at: current, path: codingPath)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try unkeyedContainer(at: current, path: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    func keyedContainer<Key: CodingKey>(at index: Int, path: [any CodingKey]) throws(DocumentCodingError) -> KeyedDecodingContainer<Key> {
        guard tape.entries[index].kind == .object else {
            throw mismatch(expected: "object", at: index, path: path, key: nil)
        }
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(decoder: self, object: index, codingPath: path))
    }

    func unkeyedContainer(at index: Int, path: [any CodingKey]) throws(DocumentCodingError) -> TapeUnkeyedContainer {
        let entry = tape.entries[index]
        guard entry.kind == .array else {
            throw mismatch(expected: "array", at: index, path: path, key: nil)
        }
        return TapeUnkeyedContainer(decoder: self, array: index, count: Int(entry.count), codingPath: path)
    }

    /// A separate decoder for `superDecoder()`, positioned on `index`.
    func subDecoder(at index: Int, path: [any CodingKey]) -> TapeDecoder {
        TapeDecoder(tape: tape, current: index, codingPath: path)
    }

    // MARK: Keyed look-up

    /// The tape index of the value for `key` in the object at `object`, or nil.
    func find(_ key: some CodingKey, in object: Int) -> Int? {
        find(name: key.stringValue, in: object)
    }

    /// The tape index of the value of member `name` in the object at `object`, or nil.
    func find(name: String, in object: Int) -> Int? {
        let end = Int(tape.entries[object].end)
        let first = object + 1
        // With duplicate member names the first one counts (as in SQLite): search
        // from the first member, not from the hint.
        let start = hintObject == object && hintPosition < end && !tape.entries[object].hasDuplicateKeys ? hintPosition : first
        let searched: Int?? = name.utf8.withContiguousStorageIfAvailable { keyBytes in
            // From the hint to the end, then wrap around.
            if let index = scan(from: start, to: end, for: keyBytes) { return index }
            return start > first ? scan(from: first, to: start, for: keyBytes) : nil
        }
        let found: Int?
        if let searched {
            found = searched
        } else {
            // Non-contiguous key strings (bridged): make a native copy.
            var copy = name
            copy.makeContiguousUTF8()
            found = copy.withUTF8 { scan(from: first, to: end, for: $0) }
        }
        if found != nil { hintObject = object }
        return found
    }

    /// Scans members whose keys start in `start..<end`; on a match, moves the
    /// hint past that member.
    private func scan(from start: Int, to end: Int, for key: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = start
        while index < end {
            let valueIndex = index + 1
            let after = tape.next(after: valueIndex)
            if tape.string(tape.entries[index], equals: key) {
                hintPosition = after
                return valueIndex
            }
            index = after
        }
        return nil
    }

    // MARK: Values

    /// Decodes any value at `index`. `path` and `key` only serve error messages
    /// and the nested value's `codingPath`.
    func decodeValue<T: Decodable>(_ type: T.Type, at index: Int, path: [any CodingKey], key: (any CodingKey)?) throws -> T {
        // Common primitives and Foundation's special types first: a metatype
        // comparison each, no dynamic cast.
        if T.self == String.self {
            return reinterpret(try decodeString(at: index, path: path, key: key), as: T.self)
        } else if T.self == Int.self {
            return reinterpret(try decodeInteger(Int.self, at: index, path: path, key: key), as: T.self)
        } else if T.self == Double.self {
            return reinterpret(try decodeDouble(at: index, path: path, key: key), as: T.self)
        } else if T.self == Bool.self {
            return reinterpret(try decodeBool(at: index, path: path, key: key), as: T.self)
        } else if T.self == Date.self {
            return reinterpret(try decodeDate(at: index, path: path, key: key), as: T.self)
        } else if T.self == Data.self {
            return reinterpret(try decodeData(at: index, path: path, key: key), as: T.self)
        } else if T.self == URL.self {
            return reinterpret(try decodeURL(at: index, path: path, key: key), as: T.self)
        } else if T.self == Decimal.self {
            return reinterpret(try decodeDecimal(at: index, path: path, key: key), as: T.self)
        } else if T.self == JSONValue.self {
            // Straight from the tape: exact numbers (3.0 stays a real) and member order,
            // which JSONValue's generic init(from:) can't tell apart.
            return reinterpret(tape.value(at: index), as: T.self)
        }
        return try decodeNested(T.self, at: index, path: path, key: key)
    }

    /// Runs the type's own `init(from:)` with this decoder positioned on `index`.
    private func decodeNested<T: Decodable>(_ type: T.Type, at index: Int, path: [any CodingKey], key: (any CodingKey)?) throws -> T {
        var replacedPath: [any CodingKey]?
        if let key {
            if path.count == codingPath.count {
                codingPath.append(key)
            } else {
                replacedPath = codingPath
                codingPath = path + [key]
            }
        }
        let saved = (current, hintObject, hintPosition)
        current = index
        defer {
            (current, hintObject, hintPosition) = saved
            if let replacedPath {
                codingPath = replacedPath
            } else if key != nil {
                codingPath.removeLast()
            }
        }
        return try T(from: self)
    }
}
