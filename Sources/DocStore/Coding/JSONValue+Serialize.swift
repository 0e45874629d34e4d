/// How `DocumentCodec.serialize` lays out text.
struct JSONWriteOptions: OptionSet, Sendable {
    let rawValue: Int

    /// Object keys in ascending UTF-8 byte order (= Unicode scalar order, as
    /// SQLite's BINARY collation), so equal values always produce equal text:
    /// for snapshots and exports.
    static let sortedKeys = JSONWriteOptions(rawValue: 1 << 0)
    /// One member or element per line, indented by two spaces, `"key": value`.
    static let pretty = JSONWriteOptions(rawValue: 1 << 1)
}

/// Writes a `JSONValue` tree as JSON text.
struct JSONValueWriter: ~Copyable {
    let options: JSONWriteOptions
    var out = ByteBuffer()
    /// Containers nested deeper than this are not written (see `exceededDepthLimit`).
    let depthLimit: Int
    /// Whether the value nests deeper than `depthLimit`: the text is then incomplete.
    private(set) var exceededDepthLimit = false

    init(options: JSONWriteOptions, depthLimit: Int = .max) {
        self.options = options
        self.depthLimit = depthLimit
    }

    /// Writes `value`, a container at nesting level `indent + 1`.
    mutating func write(_ value: JSONValue, indent: Int = 0) {
        switch value {
        case .array, .object:
            guard indent < depthLimit else {
                exceededDepthLimit = true
                return
            }
        default:
            break
        }
        switch value {
        case .null: out.append(utf8: "null")
        case .bool(let flag): out.append(utf8: flag ? "true" : "false")
        case .integer(let integer): JSONWriter.appendInteger(integer, to: &out)
        case .double(let double):
            // A JSONValue can hold what JSON cannot; `null` keeps the text valid
            // (as JavaScript's JSON.stringify does). Typed encoding throws instead.
            if double.isFinite {
                JSONWriter.appendFinite(double, to: &out)
            } else {
                out.append(utf8: "null")
            }
        case .exactNumber(let number): out.append(utf8: number.text)
        case .string(let string): JSONWriter.appendString(string, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(element, indent: indent + 1)
            }
            if !elements.isEmpty { newline(indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            var first = true
            func member(_ key: String, _ value: JSONValue) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                newline(indent + 1)
                JSONWriter.appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                if options.contains(.pretty) { out.append(UInt8(ascii: " ")) }
                write(value, indent: indent + 1)
            }
            if options.contains(.sortedKeys) {
                for key in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                    if let value = members[key] { member(key, value) }
                }
            } else {
                for (key, value) in members { member(key, value) }
            }
            if !members.isEmpty { newline(indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private mutating func newline(_ level: Int) {
        guard options.contains(.pretty) else { return }
        out.append(0x0A)
        for _ in 0..<(2 * level) { out.append(0x20) }
    }
}
