import DocStore

/// JSON text for output: compact (table cells, NDJSON), pretty (`.mode json`),
/// and with sorted keys where text must be stable (exports).
///
/// The REPL writes its own JSON rather than dumping through jansson because it
/// also colours it, and a round trip through jansson values would cost a copy
/// of every document for nothing.
struct JSONText {
    struct Options: OptionSet, Sendable {
        let rawValue: Int
        /// Members in key order (stable output), instead of document order.
        static let sortedKeys = Options(rawValue: 1)
        /// Indented, one member per line.
        static let pretty = Options(rawValue: 2)
        /// A space after `:` and `,` in compact output, for reading.
        static let spaced = Options(rawValue: 4)
    }

    var options: Options = []
    var style = TerminalStyle.plain

    func string(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out, indent: 0)
        return out
    }

    func write(_ value: JSONValue, into out: inout String, indent: Int) {
        switch value {
        case .null: out += style.apply(.null, "null")
        case .bool(let b): out += style.apply(.literal, b ? "true" : "false")
        case .integer(let i): out += style.apply(.number, String(i))
        case .double(let d): out += style.apply(.number, Self.number(d))
        case .exactNumber(let number): out += style.apply(.number, number.text)
        case .string(let s): out += style.apply(.string, Self.quoted(s))
        case .array(let elements):
            if elements.isEmpty {
                out += "[]"
                return
            }
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += separator }
                newline(&out, indent + 1)
                write(element, into: &out, indent: indent + 1)
            }
            newline(&out, indent)
            out += "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{"
            // Sorted as pairs: no lookup by key afterwards.
            let pairs = options.contains(.sortedKeys) ? members.elements.sorted { $0.key < $1.key } : Array(members.elements)
            for (index, member) in pairs.enumerated() {
                if index > 0 { out += separator }
                newline(&out, indent + 1)
                out += style.apply(.key, Self.quoted(member.key))
                out += options.contains(.pretty) || options.contains(.spaced) ? ": " : ":"
                write(member.value, into: &out, indent: indent + 1)
            }
            newline(&out, indent)
            out += "}"
        }
    }

    private var separator: String {
        options.contains(.spaced) && !options.contains(.pretty) ? ", " : ","
    }

    private func newline(_ out: inout String, _ indent: Int) {
        guard options.contains(.pretty) else { return }
        out += "\n" + String(repeating: "  ", count: indent)
    }

    /// A real as JSON: the shortest text that reads back as the same Double,
    /// always with a fraction or exponent so it stays a real when read again.
    static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        let text = "\(d)"
        return text
    }

    /// A JSON string literal, escaping what JSON requires.
    static func quoted(_ s: String) -> String {
        // Most strings need no escape: copied whole.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + s + "\""
        }
        var result = "\""
        result.unicodeScalars.reserveCapacity(s.unicodeScalars.count + 2)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
