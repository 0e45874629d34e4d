extension DocumentCollection {
    /// Calls `body` with the key and the stored JSON text of each document the
    /// query selects, in its order, streaming: the same compiled SQL as
    /// ``forEach(_:_:)``, without decoding. For tools in this package that write
    /// documents out (the REPL's printing and exports), which check the text with
    /// ``storedDocumentIsPlain(_:collection:key:)`` or parse it with
    /// ``parseStoredDocument(_:collection:key:)``.
    ///
    /// The bytes are valid only during the call.
    package func forEachStoredDocument(_ query: DocumentQuery,
                                       _ body: (DocumentKey, UnsafeRawBufferPointer) throws -> Void) throws {
        try readRows(cached: false, { try $0.documents(query) }) { statement, info in
            try body(statement.key(at: 0, kind: info.keyKind), statement.bytes(at: 1))
        }
    }

    /// Calls `body` with the values of `fields` (`.null` when missing) of each
    /// document the query selects, in its order, streaming: what
    /// ``select(_:fields:)`` collects.
    package func forEachSelected(_ query: DocumentQuery, fields: [FieldPath],
                                 _ body: ([JSONValue]) throws -> Void) throws {
        var values: [JSONValue] = []
        try readRows(cached: false, { try $0.fields(fields, query) }) { statement, info in
            let key = statement.key(at: 0, kind: info.keyKind)
            values.removeAll(keepingCapacity: true)
            for index in fields.indices {
                values.append(try statement.selectedField(index, collection: name, key: key))
            }
            try body(values)
        }
    }

    /// A stored document's value, or an error naming the collection and key
    /// when its text is damaged.
    package static func parseStoredDocument(_ bytes: UnsafeRawBufferPointer, collection: String,
                                            key: DocumentKey) throws -> JSONValue {
        try ModelCoding.decode(JSONValue.self, from: bytes, collection: collection, key: key)
    }

    /// Checks a stored document's text as every read would parse it, throwing
    /// an error naming the collection and key when it is damaged; returns
    /// whether some object in it repeats a member name (parsing keeps the first).
    package static func validateStoredDocument(_ bytes: UnsafeRawBufferPointer, collection: String,
                                               key: DocumentKey) throws -> Bool {
        do {
            return try DocumentCodec.validate(bytes)
        } catch {
            throw DocStoreError.corruptDocument(collection: collection, key: key, reason: error.description)
        }
    }

    /// Whether a stored document's text can be written out as it is, as one line
    /// of compact JSON meaning what it parses to: valid (an error naming the
    /// collection and key when it is damaged), on one line, no object repeating
    /// a member name (parsing keeps the first; the text would keep both).
    package static func storedDocumentIsPlain(_ bytes: UnsafeRawBufferPointer, collection: String,
                                              key: DocumentKey) throws -> Bool {
        let repeatsNames = try validateStoredDocument(bytes, collection: collection, key: key)
        // Valid JSON holds a raw line break only as white space between tokens.
        return !repeatsNames && !bytes.contains(where: { $0 == 0x0A || $0 == 0x0D })
    }
}
