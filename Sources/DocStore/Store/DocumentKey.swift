import Foundation

/// The kind of key a collection uses. Fixed when the collection is created.
public enum KeyKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// 64-bit integers; also the kind of generated keys.
    case integer
    /// Any Unicode string.
    case string
    /// UUIDs, stored as their uppercase `uuidString`.
    case uuid

    public var description: String { rawValue }
}

/// The key of one document in a collection: an integer, a string or a UUID.
///
/// Models give their key through `Identifiable.id` (any ``DocumentKeyRepresentable``
/// type: `Int`, `Int64`, `String`, `UUID`…); models without one get a generated
/// integer key, which `insert` returns.
public enum DocumentKey: Hashable, Sendable {
    case integer(Int64)
    case string(String)
    case uuid(UUID)

    /// The kind of this key.
    public var kind: KeyKind {
        switch self {
        case .integer: .integer
        case .string: .string
        case .uuid: .uuid
        }
    }

    /// The integer, when this is an integer key (generated keys are).
    public var integerValue: Int64? {
        if case .integer(let i) = self { return i }
        return nil
    }

    /// The key as the JSON value a document's `id` field holds.
    public var jsonValue: JSONValue {
        switch self {
        case .integer(let i): .integer(i)
        case .string(let s): .string(s)
        case .uuid(let u): .string(u.uuidString)
        }
    }

    /// Reads a key from a document's `id` field, for a collection of the given kind
    /// (a string is a UUID key in a UUID collection). Returns nil for other JSON.
    init?(json: JSONValue, kind: KeyKind?) {
        switch (json, kind) {
        case (.integer(let i), .integer?), (.integer(let i), nil): self = .integer(i)
        case (.double(let d), .integer?), (.double(let d), nil):
            guard let i = Int64(exactly: d) else { return nil }
            self = .integer(i)
        case (.string(let s), .uuid?):
            guard let u = UUID(uuidString: s) else { return nil }
            self = .uuid(u)
        case (.string(let s), .string?), (.string(let s), nil): self = .string(s)
        default: return nil
        }
    }
}

extension DocumentKey: CustomStringConvertible {
    /// Integers plainly, strings quoted (so `"1"` and `1` can't be confused in a message).
    public var description: String {
        switch self {
        case .integer(let i): String(i)
        case .string(let s): DocumentKey.quoted(s)
        case .uuid(let u): u.uuidString
        }
    }

    /// A string for messages: quoted, escaped, and cut after 80 characters so a
    /// 10 kB key doesn't flood a terminal.
    static func quoted(_ s: String) -> String {
        var shown = s.count > 80 ? String(s.prefix(80)) + "…" : s
        shown = shown.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case "\n": return "\\n"
            case "\0": return "\\0"
            default:
                return scalar.value < 0x20 ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }
        }.joined()
        return "\"\(shown)\""
    }
}

/// A type that can be a document key: `Int`, `Int64`, `Int32`, `String`, `UUID`,
/// and ``DocumentKey`` itself.
public protocol DocumentKeyRepresentable: Sendable {
    /// This value as a document key.
    var documentKey: DocumentKey { get }
}

extension DocumentKey: DocumentKeyRepresentable {
    public var documentKey: DocumentKey { self }
}

extension Int: DocumentKeyRepresentable {
    public var documentKey: DocumentKey { .integer(Int64(self)) }
}

extension Int64: DocumentKeyRepresentable {
    public var documentKey: DocumentKey { .integer(self) }
}

extension Int32: DocumentKeyRepresentable {
    public var documentKey: DocumentKey { .integer(Int64(self)) }
}

extension String: DocumentKeyRepresentable {
    public var documentKey: DocumentKey { .string(self) }
}

extension UUID: DocumentKeyRepresentable {
    public var documentKey: DocumentKey { .uuid(self) }
}

extension DocumentKey {
    /// ``quoted(_:)`` for other backends' messages.
    @_spi(Backends) public static func quotedForMessages(_ s: String) -> String { quoted(s) }

    /// A collection's name as the REPL's dot-commands take it, for messages
    /// that say what to type (`.repair my coll` would read two words): bare
    /// when it is one word, else in double quotes with `"` and `\` escaped.
    @_spi(Backends) public static func commandArgument(_ name: String) -> String {
        if !name.isEmpty, name.first != "\"", !name.contains(where: \.isWhitespace) { return name }
        return "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
