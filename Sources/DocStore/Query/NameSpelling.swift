/// A member name a change writes, against the spelling a document already
/// gives it.
///
/// Two spellings of one name (a composed "é" and "e" with a combining accent,
/// "K" and the Kelvin sign) are one `String` but two members to JSON, SQLite
/// and PostgreSQL. An update or field change writing one where a document has
/// the other gave the document both: reads keep the first, so the written
/// value vanished from `get`, exports and copies (helper-48). Such a write is
/// refused, naming the document and both spellings.
@_spi(Backends)
public enum NameSpelling {
    /// Whether some name of `path` has another spelling at all: a name with a
    /// character outside ASCII, or one of the three ASCII characters a single
    /// other character is canonically equivalent to (K, `;` and `` ` ``). Only
    /// writes of such paths read the documents first.
    public static func mayBeSpelledOtherwise(_ path: FieldPath) -> Bool {
        path.components.contains { component in
            guard case .key(let name) = component else { return false }
            return name.unicodeScalars.contains { $0.value >= 0x80 || $0 == "K" || $0 == ";" || $0 == "`" }
        }
    }

    private static func isASCII(_ path: FieldPath) -> Bool {
        path.components.allSatisfy { component in
            guard case .key(let name) = component else { return true }
            return name.utf8.allSatisfy { $0 < 0x80 }
        }
    }

    /// The first name along `path` that `document` spells otherwise, as the
    /// path writes it and as the document has it; nil when there is none.
    public static func otherSpelling(of path: FieldPath, in document: JSONValue) -> (written: String, stored: String)? {
        var current = document
        for component in path.components {
            switch component {
            case .key(let name):
                guard case .object(let members) = current,
                      let index = members.keys.firstIndex(where: { $0 == name }) else { return nil }
                let stored = members.keys[index]
                if !ExactText.same(stored, name) { return (name, stored) }
                current = members.values[index]
            case .index(let position):
                guard case .array(let elements) = current, elements.indices.contains(position) else { return nil }
                current = elements[position]
            }
        }
        return nil
    }

    /// The refusal of a write of `path` into the document `key`, which spells
    /// one of its names otherwise; nil when it doesn't (or isn't JSON: other
    /// checks name damaged documents).
    public static func refusal(writing path: FieldPath, into text: UnsafeRawBufferPointer, key: DocumentKey,
                               collection: String) -> DocStoreError? {
        // An ASCII name (with a K, say) has its other spelling outside ASCII:
        // a document all in ASCII can't hold it, and isn't parsed.
        if isASCII(path), !text.contains(where: { $0 >= 0x80 }) { return nil }
        guard let document = try? DocumentCodec.parse(text),
              let (written, stored) = otherSpelling(of: path, in: document) else { return nil }
        return .invalidUpdate(
            collection: collection, field: path.description, key: key,
            reason: "the document already has the member \"\(stored)\", the same name written with other Unicode characters (\(ExactText.scalarList(stored)) there, \(ExactText.scalarList(written)) here); writing it would give the document both, and reads would see only the first: write the name as the document does")
    }
}
