/// Text compared and hashed by its bytes (its Unicode scalars), for keys of
/// tables and caches.
///
/// Swift's `String` equality takes canonically equivalent texts as equal: a
/// composed "é" (U+00E9) and "e" followed by a combining accent (U+0301), or
/// "K" and the Kelvin sign. JSON, SQLite and PostgreSQL keep them apart, and
/// so must anything DocStore keys by a name, a path or a statement's SQL: a
/// statement cache keyed by `String` gave `$0["é"] == 1` the rows of the
/// composed name's query when it had run first (helper-46).
@_spi(Backends) public struct ExactText: Hashable, Sendable {
    /// The text itself.
    public let text: String

    /// The text, to be compared by its bytes.
    public init(_ text: String) {
        self.text = text
    }

    public static func == (lhs: ExactText, rhs: ExactText) -> Bool {
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        Self.combine(text, into: &hasher)
    }

    /// Feeds `text`'s bytes to `hasher`: the hash that goes with ``==``.
    public static func combine(_ text: String, into hasher: inout Hasher) {
        var text = text
        hasher.combine(text.utf8.count)
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The text's Unicode scalars, as "U+0065 U+0301": for messages about two
    /// texts that differ only in them.
    public static func scalarList(_ text: String) -> String {
        text.unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }.joined(separator: " ")
    }

    /// Whether two texts have the same bytes.
    public static func same(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.elementsEqual(rhs.utf8)
    }
}
