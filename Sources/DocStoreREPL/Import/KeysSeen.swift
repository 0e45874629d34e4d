import DocStore

/// The keys an import has read so far, and where, so that a key the file repeats
/// or an `"id"` that can't be a key is a bad line naming its place, found before
/// the document reaches the store.
struct KeysSeen {
    private var places: [JSONValue: String] = [:]

    /// Records a document's `"id"` (nil: it has none); false (after `skipOrStop` with the reason)
    /// when it can't be a key or an earlier entry of the file has the same one.
    /// Documents without an `"id"` get generated keys, which never repeat.
    mutating func admit(_ id: JSONValue?, place: String, skipOrStop: (String) throws -> Void) throws -> Bool {
        guard let id else { return true }
        guard Self.isUsableKey(id) else {
            try skipOrStop("its \"id\" is \(JSONText().string(id)), not an integer or a string (a document's key)")
            return false
        }
        if let earlier = places[id] {
            try skipOrStop("duplicate key \(JSONText().string(id)): \(earlier) of the file has the same key")
            return false
        }
        places[id] = place
        return true
    }

    /// What the store takes as a key: an integer (a real with an integral
    /// value too) or a string.
    private static func isUsableKey(_ id: JSONValue) -> Bool { key(id) != nil }

    /// The key an `"id"` value makes, as the store reads it from a document.
    static func key(_ id: JSONValue) -> DocumentKey? {
        switch id {
        case .integer(let i): .integer(i)
        case .string(let s): .string(s)
        case .double(let d): Int64(exactly: d).map(DocumentKey.integer)
        default: nil
        }
    }
}
