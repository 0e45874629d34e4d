import Foundation

/// Conversions from one tape entry to a Swift value, with the error a model
/// author needs when the JSON does not fit.
extension TapeDecoder {
    func decodeString(at index: Int, path: [any CodingKey], key: (any CodingKey)?) throws(DocumentCodingError) -> String {
        let entry = tape.entries[index]
        guard entry.kind == .string else { throw mismatch(expected: "String", at: index, path: path, key: key) }
        return tape.string(entry)
    }

    func decodeBool(at index: Int, path: [any CodingKey], key: (any CodingKey)?) throws(DocumentCodingError) -> Bool {
        switch tape.entries[index].kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(expected: "Bool", at: index, path: path, key: key)
        }
    }

    /// Exact: reads the number's digits; `3.0` and `1e2` are accepted as
    /// integers, fractions and out-of-range values are type mismatches.
    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, at index: Int, path: [any CodingKey], key: (any CodingKey)?) throws(DocumentCodingError) -> T {
        let entry = tape.entries[index]
        guard entry.kind == .integer || entry.kind == .real else {
            throw mismatch(expected: "\(T.self)", at: index, path: path, key: key)
        }
        guard let integer = JSONNumberText.integer(tape.text(of: entry)) else {
            throw DocumentCodingError(.typeMismatch, at: extendedPath(path, key),
                                      "expected \(T.self), found \(describe(index)), which is not an integer")
        }
        guard let value = JSONNumberText.exact(integer, as: T.self) else {
            throw DocumentCodingError(.typeMismatch, at: extendedPath(path, key),
                                      "expected \(T.self), found \(describe(index)), which is out of range")
        }
        return value
    }

    /// Correctly rounded from the number's text; JSON integers are accepted.
    func decodeDouble(at index: Int, path: [any CodingKey], key: (any CodingKey)?) throws(DocumentCodingError) -> Double {
        let entry = tape.entries[index]
        guard entry.kind == .real || entry.kind == .integer else {
            throw mismatch(expected: "Double", at: index, path: path, key: key)
        }
        guard let value = JSONNumberText.double(tape.text(of: entry)) else {
            throw DocumentCodingError(.typeMismatch, at: extendedPath(path, key), "\(describe(index)) does not fit in a Double")
        }
        return value
    }

    func decodeFloat(at index: Int, path: [any CodingKey], key: (any CodingKey)?) throws(DocumentCodingError) -> Float {
        let entry = tape.entries[index]
        guard entry.kind == .real || entry.kind == .integer else {
            throw mismatch(expected: "Float", at: index, path: path, key: key)
        }
        guard let value = JSONNumberText.float(tape.text(of: entry)) else {
            throw DocumentCodingError(.typeMismatch, at: extendedPath(path, key), "\(describe(index)) does not fit in a Float")
        }
        return value
    }

    /// ISO 8601 text (see `ISO8601Date` for the accepted forms).
    func decodeDate(at index: Int, path: [any CodingKey], key: (any CodingKey)?) throws(DocumentCodingError) -> Date {
        let entry = tape.entries[index]
        guard entry.kind == .string else { throw mismatch(expected: "Date (an ISO 8601 string)", at: index, path: path, key: key) }
        // Escapes never occur in a date; an escaped string is simply not one.
        guard !entry.hasEscapes, let date = ISO8601Date.parse(tape.text(of: entry)) else {
            throw DocumentCodingError(.invalidValue, at: extendedPath(path, key),
                                      "expected an ISO 8601 date like 2026-11-21T03:31:13.123456789Z, found \(describe(index))")
        }
        return date
    }

    /// Base64 text, standard alphabet, padded.
    func decodeData(at index: Int, path: [any CodingKey], key: (any CodingKey)?) throws(DocumentCodingError) -> Data {
        let entry = tape.entries[index]
        guard entry.kind == .string else { throw mismatch(expected: "Data (a base64 string)", at: index, path: path, key: key) }
        guard let data = Data(base64Encoded: tape.string(entry)) else {
            throw DocumentCodingError(.invalidValue, at: extendedPath(path, key), "expected base64 data, found \(describe(index))")
        }
        return data
    }

    func decodeURL(at index: Int, path: [any CodingKey], key: (any CodingKey)?) throws(DocumentCodingError) -> URL {
        let entry = tape.entries[index]
        guard entry.kind == .string else { throw mismatch(expected: "URL (a string)", at: index, path: path, key: key) }
        guard let url = URL(string: tape.string(entry)) else {
            throw DocumentCodingError(.invalidValue, at: extendedPath(path, key), "expected a URL, found \(describe(index))")
        }
        return url
    }

    /// Exact: parsed from the number's decimal digits, never through Double.
    func decodeDecimal(at index: Int, path: [any CodingKey], key: (any CodingKey)?) throws(DocumentCodingError) -> Decimal {
        let entry = tape.entries[index]
        guard entry.kind == .real || entry.kind == .integer else {
            throw mismatch(expected: "Decimal", at: index, path: path, key: key)
        }
        guard let value = Decimal(string: String(decoding: tape.text(of: entry), as: UTF8.self)), !value.isNaN else {
            throw DocumentCodingError(.typeMismatch, at: extendedPath(path, key), "\(describe(index)) does not fit in a Decimal")
        }
        return value
    }

    // MARK: Errors

    /// "expected X, found string \"abc\"" — `valueNotFound` for null, as a
    /// missing value is what null means to a non-optional.
    func mismatch(expected: String, at index: Int, path: [any CodingKey], key: (any CodingKey)?) -> DocumentCodingError {
        let kind: DocumentCodingError.Kind = tape.entries[index].kind == .null ? .valueNotFound : .typeMismatch
        return DocumentCodingError(kind, at: extendedPath(path, key), "expected \(expected), found \(describe(index))")
    }

    /// A short description of the JSON value at `index` for error messages.
    func describe(_ index: Int) -> String {
        let entry = tape.entries[index]
        switch entry.kind {
        case .null: return index == tape.absentIndex ? "no value" : "null"
        case .true: return "true"
        case .false: return "false"
        case .integer, .real: return "number \(String(decoding: tape.text(of: entry), as: UTF8.self))"
        case .string:
            var text = tape.string(entry)
            if text.count > 40 { text = String(text.prefix(40)) + "…" }
            return "string \(quoted(text))"
        case .array: return "array"
        case .object: return "object"
        }
    }

    private func quoted(_ text: String) -> String {
        var bytes = ByteBuffer()
        JSONWriter.appendString(text, to: &bytes)
        return String(decoding: bytes.array, as: UTF8.self)
    }
}
