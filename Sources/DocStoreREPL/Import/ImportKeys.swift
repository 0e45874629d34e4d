import DocStore

/// The keys of an import's documents. An `"id"` that can't be a key is a bad
/// line found before the document reaches the store. A key the file repeats is
/// found by the store, so that nothing is held per document (memory stays flat
/// however long the file); only then is the file read again, up to that line,
/// to name where the key first appeared.
enum ImportKeys {
    /// Whether the document's `"id"` (nil: it has none, and gets a generated
    /// key) can be a key; false after `skipOrStop` with the reason when not.
    static func admit(_ id: JSONValue?, skipOrStop: (String) throws -> Void) throws -> Bool {
        guard let id, key(id) == nil else { return true }
        try skipOrStop("its \"id\" is \(JSONText().string(id)), not an integer or a string (a document's key)")
        return false
    }

    /// The key an `"id"` value makes, as the store reads it from a document: an
    /// integer (a real with an integral value too) or a string.
    static func key(_ id: JSONValue) -> DocumentKey? {
        switch id {
        case .integer(let i): .integer(i)
        case .string(let s): .string(s)
        case .double(let d): Int64(exactly: d).map(DocumentKey.integer)
        default: nil
        }
    }

    /// The place of the first document of the file before `place` whose key is
    /// `key`, reading the file again; nil when none has it (the collection held
    /// it before the import) or the file can't be read again.
    static func earlierPlace(of key: DocumentKey, before place: String, reading reader: EntryReader,
                             keyField: String?) -> String? {
        struct Stop: Error {}
        guard var chunks = try? FileChunks(path: reader.path) else { return nil }
        defer { chunks.close() }
        var found: String?
        do {
            try reader.read(&chunks) { entry, _ in
                if entry.place == place { throw Stop() }
                guard case .success(let document) = entry.document else { return }
                let id: JSONValue? = switch document {
                case .text(_, let id): id
                case .value(let value): keyField.flatMap { value[$0] } ?? value["id"]
                }
                if let id, Self.key(id) == key {
                    found = entry.place
                    throw Stop()
                }
            }
        } catch {
            // Stopped at the place, at the first match, or by a read error.
        }
        return found
    }
}
