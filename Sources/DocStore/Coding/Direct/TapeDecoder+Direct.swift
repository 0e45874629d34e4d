/// The decoder's side of generated coding (``DirectJSONDecodable``): the same
/// coding path, position and look-up hint bookkeeping as `decodeNested`, so a
/// generated model accepts what its synthesized `init(from:)` accepts and
/// rejects the rest with the same error.
extension TapeDecoder {
    /// Decodes a whole document through its generated code (the store's entry).
    func decodeDirectDocument<T: DirectJSONDecodable>(_ type: T.Type) throws(DocumentCodingError) -> T {
        do {
            return try decodeDirect(T.self, at: 0, key: nil)
        } catch {
            throw DocumentCodingError.wrap(error, at: codingPath)
        }
    }

    /// A model at `index`, through its generated initializer: `decodeNested`
    /// and the synthesized `init(from:)`'s keyed container, without the container.
    func decodeDirect<T: DirectJSONDecodable>(_ type: T.Type, at index: Int, key: (any CodingKey)?) throws -> T {
        try nested(at: index, key) { () throws -> T in
            guard tape.entries[index].kind == .object else {
                throw mismatch(expected: "object", at: index, path: codingPath, key: nil)
            }
            return try T(_directJSON: DirectJSONObjectDecoder(decoder: self, object: index))
        }
    }

    /// An array at `index`, element by element, as `Array.init(from:)` reads it
    /// through an unkeyed container.
    func decodeArray<T: Decodable>(_ type: T.Type, at index: Int, key: any CodingKey) throws -> [T] {
        try nested(at: index, key) { () throws -> [T] in
            let path = codingPath
            var element = try arrayStart(at: index, path: path)
            var result: [T] = []
            result.reserveCapacity(Int(tape.entries[index].count))
            for position in 0..<Int(tape.entries[index].count) {
                result.append(try decodeValue(T.self, at: element, path: path, key: IndexCodingKey(position)))
                element = tape.next(after: element)
            }
            return result
        }
    }

    /// An array of strings: `decodeArray`'s result and errors, without its
    /// unspecialized generic calls.
    func decodeStringArray(at index: Int, key: any CodingKey) throws -> [String] {
        try nested(at: index, key) { () throws -> [String] in
            let path = codingPath
            var element = try arrayStart(at: index, path: path)
            var result: [String] = []
            result.reserveCapacity(Int(tape.entries[index].count))
            for position in 0..<Int(tape.entries[index].count) {
                result.append(try decodeString(at: element, path: path, key: IndexCodingKey(position)))
                element = tape.next(after: element)
            }
            return result
        }
    }

    /// An array of generated models.
    func decodeDirectArray<T: DirectJSONDecodable>(_ type: T.Type, at index: Int, key: any CodingKey) throws -> [T] {
        try nested(at: index, key) { () throws -> [T] in
            var element = try arrayStart(at: index, path: codingPath)
            var result: [T] = []
            result.reserveCapacity(Int(tape.entries[index].count))
            for position in 0..<Int(tape.entries[index].count) {
                result.append(try decodeDirect(T.self, at: element, key: IndexCodingKey(position)))
                element = tape.next(after: element)
            }
            return result
        }
    }

    /// The tape index of the first element of the array at `index` (checking
    /// that it is one, as `unkeyedContainer()` does).
    private func arrayStart(at index: Int, path: [any CodingKey]) throws(DocumentCodingError) -> Int {
        guard tape.entries[index].kind == .array else {
            throw mismatch(expected: "array", at: index, path: path, key: nil)
        }
        return index + 1
    }

    /// Runs `body` for the value at `index`, one level down at
    /// `codingPath + [key]`, restoring position and hint afterwards.
    @inline(__always)
    private func nested<R>(at index: Int, _ key: (any CodingKey)?, _ body: () throws -> R) throws -> R {
        if let key { codingPath.append(key) }
        let saved = (current, hintObject, hintPosition)
        current = index
        defer {
            (current, hintObject, hintPosition) = saved
            if key != nil { codingPath.removeLast() }
        }
        return try body()
    }
}
