/// The encoder is its own single-value container: no allocation for the
/// `Optional`, enum raw value and wrapper types that use one.
extension StreamEncoder: SingleValueEncodingContainer {
    /// A single value must be the only thing its value writes.
    private func beginSingleValue() throws(DocumentCodingError) {
        guard isAtValueStart else {
            let problem = DocumentCodingError(.unsupportedValue, at: codingPath,
                                              "a single value container was written twice or after a container")
            recordMisuse(at: codingPath, problem.reason)
            throw problem
        }
    }

    func encodeNil() throws { try beginSingleValue(); writeNull() }
    func encode(_ value: Bool) throws { try beginSingleValue(); writeBool(value) }
    func encode(_ value: String) throws { try beginSingleValue(); JSONWriter.appendString(value, to: &bytes) }
    func encode(_ value: Double) throws { try beginSingleValue(); try writeFloatingPoint(value, path: codingPath, key: nil) }
    func encode(_ value: Float) throws { try beginSingleValue(); try writeFloatingPoint(value, path: codingPath, key: nil) }
    func encode(_ value: Int) throws { try beginSingleValue(); JSONWriter.appendInteger(value, to: &bytes) }
    func encode(_ value: Int8) throws { try beginSingleValue(); JSONWriter.appendInteger(value, to: &bytes) }
    func encode(_ value: Int16) throws { try beginSingleValue(); JSONWriter.appendInteger(value, to: &bytes) }
    func encode(_ value: Int32) throws { try beginSingleValue(); JSONWriter.appendInteger(value, to: &bytes) }
    func encode(_ value: Int64) throws { try beginSingleValue(); JSONWriter.appendInteger(value, to: &bytes) }
    func encode(_ value: UInt) throws { try beginSingleValue(); JSONWriter.appendInteger(value, to: &bytes) }
    func encode(_ value: UInt8) throws { try beginSingleValue(); JSONWriter.appendInteger(value, to: &bytes) }
    func encode(_ value: UInt16) throws { try beginSingleValue(); JSONWriter.appendInteger(value, to: &bytes) }
    func encode(_ value: UInt32) throws { try beginSingleValue(); JSONWriter.appendInteger(value, to: &bytes) }
    func encode(_ value: UInt64) throws { try beginSingleValue(); JSONWriter.appendInteger(value, to: &bytes) }

    func encode<T: Encodable>(_ value: T) throws {
        try beginSingleValue()
        try writeValue(value, path: codingPath, key: nil)
    }
}
