import DocStore

/// What a CSV cell becomes in a document: CSV has only text, so numbers are
/// recognised by their spelling.
enum CSVValue {
    /// An integer (`42`, `-7`) or a real (`0.25`, `1e3`) when the whole cell is
    /// one in JSON's number syntax; the text otherwise. Text that a number would
    /// change stays text: leading zeros (`007`, zip codes), integers beyond 64
    /// bits, `+1`, ` 1`, `NaN`. Nil for an empty cell (the field is left out).
    static func infer(_ text: String) -> JSONValue? {
        if text.isEmpty { return nil }
        guard isJSONNumber(text.utf8) else { return .string(text) }
        let isInteger = !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
        if isInteger {
            if let value = Int64(text) { return .integer(value) }
            return .string(text)
        }
        if let value = Double(text), value.isFinite { return .double(value) }
        return .string(text)
    }

    /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    static func isJSONNumber(_ bytes: String.UTF8View) -> Bool {
        var iterator = Array(bytes)[...]
        func digit(_ b: UInt8?) -> Bool { b.map { (48...57).contains($0) } ?? false }
        if iterator.first == UInt8(ascii: "-") { iterator = iterator.dropFirst() }
        guard let first = iterator.first, digit(first) else { return false }
        if first == UInt8(ascii: "0") {
            iterator = iterator.dropFirst()
        } else {
            iterator = iterator.drop(while: { digit($0) })
        }
        if iterator.first == UInt8(ascii: ".") {
            iterator = iterator.dropFirst()
            guard digit(iterator.first) else { return false }
            iterator = iterator.drop(while: { digit($0) })
        }
        if iterator.first == UInt8(ascii: "e") || iterator.first == UInt8(ascii: "E") {
            iterator = iterator.dropFirst()
            if iterator.first == UInt8(ascii: "+") || iterator.first == UInt8(ascii: "-") { iterator = iterator.dropFirst() }
            guard digit(iterator.first) else { return false }
            iterator = iterator.drop(while: { digit($0) })
        }
        return iterator.isEmpty
    }
}
