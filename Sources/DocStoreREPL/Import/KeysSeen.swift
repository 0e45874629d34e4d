import DocStore

/// The keys an import has read so far, and where, so that a key the file repeats
/// is a bad line naming both places, found before it reaches the store.
struct KeysSeen {
    private var places: [JSONValue: String] = [:]

    /// Records the document's `"id"`; false (after `skipOrStop` with the reason)
    /// when an earlier entry of the file has the same one. Documents without an
    /// `"id"` get generated keys, which never repeat.
    mutating func admit(_ document: JSONValue, place: String, skipOrStop: (String) throws -> Void) throws -> Bool {
        guard let id = document["id"], id.stringValue != nil || id.numberValue != nil else { return true }
        if let earlier = places[id] {
            try skipOrStop("duplicate key \(JSONText().string(id)): \(earlier) of the file has the same key")
            return false
        }
        places[id] = place
        return true
    }
}
