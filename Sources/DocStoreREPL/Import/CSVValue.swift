import DocStore

/// What a CSV cell becomes in a document: CSV has only text, so numbers are
/// recognised by their spelling.
enum CSVValue {
    /// An integer (`42`, `-7`) or a real (`0.25`, `1e3`) when the whole cell is
    /// one in JSON's number syntax; the text otherwise. Text that a number would
    /// change stays text: leading zeros (`007`, zip codes), integers beyond 64
    /// bits, `+1`, ` 1`, `NaN`. Nil for an empty cell (the field is left out).
    static func infer(_ text: String) -> JSONValue? {
        var text = text
        return text.withUTF8 { infer(bytes: $0) } ?? nil
    }

    /// ``infer(_:)`` on a cell's raw bytes, which is how imports call it (a
    /// number's bytes never become a `String`). The outer nil: the bytes are
    /// not valid UTF-8.
    static func infer(bytes: UnsafeBufferPointer<UInt8>) -> JSONValue?? {
        if bytes.isEmpty { return .some(nil) }
        guard let shape = numberShape(bytes) else {
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            return .string(text)
        }
        // A number is ASCII.
        let text = String(decoding: bytes, as: UTF8.self)
        if shape == .integer {
            if let value = Int64(text) { return .integer(value) }
            return .string(text)
        }
        if let value = Double(text), value.isFinite { return .double(value) }
        return .string(text)
    }

    enum NumberShape { case integer, real }

    /// Whether a real's bytes (JSON number syntax) are beyond a Double's range
    /// (`1e400`, `-2e308`), which DocStore can't hold as a number. Only an
    /// exponent or 300 digits can get there, so most cells are not parsed.
    static func overflowsDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count > 300 || bytes.contains(UInt8(ascii: "e")) || bytes.contains(UInt8(ascii: "E")) else { return false }
        return !(Double(String(decoding: bytes, as: UTF8.self))?.isFinite ?? false)
    }

    /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    static func isJSONNumber(_ bytes: String.UTF8View) -> Bool {
        Array(bytes).withUnsafeBufferPointer { numberShape($0) } != nil
    }

    /// Whether `bytes` spell a JSON number, and which kind; nil when they don't.
    static func numberShape(_ bytes: UnsafeBufferPointer<UInt8>) -> NumberShape? {
        var index = 0
        let count = bytes.count
        func digit(_ at: Int) -> Bool { at < count && (48...57).contains(bytes[at]) }
        func skipDigits() { while digit(index) { index += 1 } }
        var shape = NumberShape.integer
        if index < count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digit(index) else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digit(index) else { return nil }
            skipDigits()
            shape = .real
        }
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digit(index) else { return nil }
            skipDigits()
            shape = .real
        }
        return index == count ? shape : nil
    }
}
