import GRDB

extension DocumentCollection where Model == JSONValue {
    /// A document for ``insert(jsonObjects:)``: the JSON text of an object, and
    /// its key when the text has one (its `"id"` member).
    package struct JSONObjectText: Sendable {
        /// The key the text's `"id"` member holds, or nil to generate one.
        package var key: DocumentKey?
        /// A JSON object: `{` … `}`, without an `"id"` member when `key` is nil.
        package var text: [UInt8]

        package init(key: DocumentKey?, text: [UInt8]) {
            self.key = key
            self.text = text
        }
    }

    /// Inserts documents given as JSON text, all of them or none (one savepoint),
    /// as ``insert(contentsOf:)`` does, without a `JSONValue` per document: for
    /// bulk imports that write each document's text straight from their input
    /// (a CSV record), where building and serializing values would cost more than
    /// the inserts. A document without a key gets the next generated one, written
    /// into its text as its first member, `"id"`, as for a `JSONValue`.
    ///
    /// The text is not parsed again: it must be a JSON object whose `"id"` is
    /// `key`. That is why this is `package`, for the REPL, which writes the text.
    ///
    /// - Returns: The documents' keys, in order.
    @discardableResult
    package func insert(jsonObjects documents: [JSONObjectText]) throws -> [DocumentKey] {
        try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) {
                    var statements = InsertStatements(recordsChanges: store.changeTracker.isObserved(name))
                    defer { statements.recordInserts(in: db, to: store.changeTracker) }
                    var info = try store.knownCollection(named: name, in: db)
                    var keys: [DocumentKey] = []
                    keys.reserveCapacity(documents.count)
                    for document in documents {
                        let collection = try info ?? store.ensureCollection(named: name, keyKind: document.key?.kind ?? .integer, in: db)
                        info = collection
                        keys.append(try insert(document, into: collection, in: db, statements: &statements))
                    }
                    return keys
                }
            }
        }
    }

    private func insert(_ document: JSONObjectText, into info: CollectionInfo, in db: Database,
                        statements: inout InsertStatements) throws -> DocumentKey {
        let key: DocumentKey
        var text = document.text
        if let given = document.key {
            key = adapt(given, to: info.keyKind)
            try check(key, against: info)
        } else {
            guard info.keyKind == .integer else {
                throw DocStoreError.missingKey(collection: name, reason: "the collection has \(info.keyKind) keys, which can't be generated: give the document an \"id\"")
            }
            let next = try nextKey(in: db, statements: &statements)
            key = .integer(next)
            statements.largestKey = next
            // `{…}` becomes `{"id":N,…}` (`{}` becomes `{"id":N}`).
            let empty = text.count <= 2
            text.replaceSubrange(0..<1, with: Array("{\"id\":\(next)\(empty ? "" : ",")".utf8))
        }
        let statement = try statements.withKey ?? RawStatement(db, sql: sql.insert)
        statements.withKey = statement
        defer { statement.finish() }
        statement.bind(key, at: 1)
        try text.withUnsafeBytes { bytes in
            statement.bindStatic(bytes, at: 2)
            try step(statement, key: key, in: db)
        }
        statements.noteInsert(key, text, in: name)
        if case .integer(let value) = key, let largest = statements.largestKey, value > largest {
            statements.largestKey = value  // generated keys of this call go past it
        }
        return key
    }
}
