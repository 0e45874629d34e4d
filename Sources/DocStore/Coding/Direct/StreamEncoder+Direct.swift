/// The encoder's side of generated coding (``DirectJSONEncodable``): the same
/// frames, coding path and nesting limit as `writeNested`, so a generated model
/// writes what its synthesized `encode(to:)` would, byte for byte, and fails
/// the same way.
extension StreamEncoder {
    /// Encodes a whole document through its generated code (the store's entry).
    func encodeDirectDocument<T: DirectJSONEncodable>(_ value: T) throws(DocumentCodingError) {
        reset()
        do {
            try writeDirect(value, key: nil)
        } catch {
            throw DocumentCodingError.wrap(error, at: codingPath)
        }
        closeFrames(downTo: 0)
        if let misuse { throw misuse }
    }

    /// Starts a member of a generated object: the separator, then the key's
    /// JSON text (`"name":`, escaped by the macro).
    @inline(__always)
    func beginMember(_ frame: FrameRef, json key: StaticString) throws(DocumentCodingError) {
        let depth = Int(frame.depth)
        guard depth < frames.count, frames[depth].id == frame.id else { throw staleContainer(at: codingPath) }
        if frames.count > depth + 1 { closeFrames(downTo: depth + 1) }
        if frames[depth].count > 0 { bytes.append(UInt8(ascii: ",")) }
        frames[depth].count += 1
        key.withUTF8Buffer { bytes.append($0) }
    }

    /// Writes a model through its generated members: `writeNested` followed by
    /// the synthesized `encode(to:)`'s keyed container, without the container.
    func writeDirect<T: DirectJSONEncodable>(_ value: T, key: (any CodingKey)?) throws {
        try nested(key) {
            let frame = openFrame(isObject: true)
            try value._encodeDirectJSON(to: DirectJSONObjectEncoder(encoder: self, frame: frame))
        }
    }

    /// Writes an array element by element, as `Array.encode(to:)` does through
    /// an unkeyed container.
    func writeArray<T: Encodable>(_ array: [T], key: any CodingKey) throws {
        try nested(key) {
            let frame = openFrame(isObject: false)
            let path = codingPath
            for (index, element) in array.enumerated() {
                guard beginElement(frame, key: nil) else { throw staleContainer(at: path) }
                try writeValue(element, path: path, key: IndexCodingKey(index))
            }
        }
    }

    /// Writes an array of strings: `writeArray`'s bytes, without its unspecialized
    /// generic iteration (the most common array member, and most of its cost).
    func writeStringArray(_ array: [String], key: any CodingKey) throws {
        try nested(key) {
            let frame = openFrame(isObject: false)
            for element in array {
                guard beginElement(frame, key: nil) else { throw staleContainer(at: codingPath) }
                JSONWriter.appendString(element, to: &bytes)
            }
        }
    }

    /// Writes an array of generated models.
    func writeDirectArray<T: DirectJSONEncodable>(_ array: [T], key: any CodingKey) throws {
        try nested(key) {
            let frame = openFrame(isObject: false)
            for (index, element) in array.enumerated() {
                guard beginElement(frame, key: nil) else { throw staleContainer(at: codingPath) }
                try writeDirect(element, key: IndexCodingKey(index))
            }
        }
    }

    /// Runs `body` for a value one level down, at `codingPath + [key]`, with
    /// the bookkeeping of `writeNested`: stop a model recursing past the
    /// nesting limit, and close whatever the value opened.
    @inline(__always)
    private func nested(_ key: (any CodingKey)?, _ body: () throws -> Void) throws {
        if frames.count + enclosingDepth > DocumentStore.maximumNestingDepth, let misuse { throw misuse }
        if let key { codingPath.append(key) }
        let savedBase = base
        let savedStart = valueStart
        base = frames.count
        valueStart = bytes.count
        defer {
            base = savedBase
            valueStart = savedStart
            if key != nil { codingPath.removeLast() }
        }
        try body()
        closeFrames(downTo: base)
    }
}
