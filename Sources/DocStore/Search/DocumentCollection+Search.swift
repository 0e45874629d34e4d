import GRDB

extension DocumentCollection {
    /// Creates a full-text search index on one or several string fields, recorded
    /// in the catalog: ``Condition/matches(_:_:)`` on those fields then finds
    /// documents by their words, and ``DocumentQuery/relevance`` ranks them. The
    /// index follows every write from then on (inserts, saves, updates by query,
    /// deletes, imports; a rolled-back transaction rolls it back too). Creating an
    /// index that exists returns it; one created before the collection's first
    /// document is built with it.
    ///
    ///     try notes.createSearchIndex(on: [FieldPath("text"), FieldPath("title")])
    ///
    /// Only string values are indexed: a field holding a number, an array or an
    /// object is not searchable in that document.
    ///
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` for no
    ///   field, a field named twice, the document itself, or a path SQLite's JSON
    ///   paths can't name.
    @discardableResult
    public func createSearchIndex(on fields: [FieldPath]) throws -> SearchIndexInfo {
        guard !fields.isEmpty else {
            throw DocStoreError.invalidQuery(collection: name, field: nil, reason: "a search index needs at least one field")
        }
        for (offset, path) in fields.enumerated() {
            _ = try SearchIndexSQL.text(of: path, in: "body", collection: name)
            if fields[..<offset].contains(path) {
                throw DocStoreError.invalidQuery(collection: name, field: path.description, reason: "a search index names each field once")
            }
        }
        return try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) {
                    if let existing = try Catalog.searchIndexes(of: name, in: db).first(where: { $0.fields == fields }) {
                        return existing
                    }
                    let info = try store.knownCollection(named: name, in: db)
                    if info == nil { try Catalog.refuseNameClash(name, in: db) }
                    let index = SearchIndexInfo(name: try Catalog.nextSearchIndexName(in: db), collection: name, fields: fields)
                    try Catalog.recordSearchIndex(index, in: db)
                    guard let info else { return index }
                    try diagnosingDamage(in: db) {
                        for statement in try SearchIndexSQL.create(index, keyKind: info.keyKind) { try db.execute(sql: statement) }
                    }
                    return index
                }
            }
        }
    }

    /// Creates a search index on one field (see the many-field `createSearchIndex(on:)`).
    @discardableResult
    public func createSearchIndex(on field: FieldPath) throws -> SearchIndexInfo {
        try createSearchIndex(on: [field])
    }

    /// Drops the search index on exactly these fields. Returns whether there was one.
    @discardableResult
    public func dropSearchIndex(on fields: [FieldPath]) throws -> Bool {
        try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) {
                    guard let index = try Catalog.searchIndexes(of: name, in: db).first(where: { $0.fields == fields }) else { return false }
                    try Catalog.dropSearchIndex(index, in: db)
                    return true
                }
            }
        }
    }

    /// The collection's search indexes, by name.
    public func searchIndexes() throws -> [SearchIndexInfo] {
        try access {
            try store.readAccess { db in try Catalog.searchIndexes(of: name, in: db) }
        }
    }

    /// Re-reads every document into the collection's search indexes. The
    /// triggers keep them in sync on their own; rebuilding is for after changes
    /// made around DocStore (SQL through ``DocumentStore/databaseWriter`` with
    /// the triggers dropped, a restored table) or to compact an index after many
    /// changes.
    public func rebuildSearchIndexes() throws {
        try access {
            try store.writeAccess { db in
                try store.withinTransaction(db) {
                    guard let info = try store.knownCollection(named: name, in: db) else { return }
                    for index in try Catalog.searchIndexes(of: name, in: db) {
                        try diagnosingDamage(in: db) {
                            for statement in SearchIndexSQL.rebuild(index, keyKind: info.keyKind) { try db.execute(sql: statement) }
                        }
                    }
                }
            }
        }
    }
}

extension DocumentCollection {
    /// The documents the query selects, in its order, each with a snippet of a
    /// field around the words of a search text (nil for a document whose field
    /// doesn't match the text).
    ///
    ///     let found = try notes.fetchWithSnippets(
    ///         DocumentQuery(.matches(FieldPath("text"), "home run")),
    ///         SearchSnippetRequest(field: FieldPath("text"), text: "home run"))
    ///     // found[0].snippet: "Hit a [home] [run] to right field, then another."
    ///
    /// - Throws: ``DocStoreError/invalidQuery(collection:field:reason:)`` when no
    ///   search index covers the field, or the search text can't be read.
    public func fetchWithSnippets(_ query: DocumentQuery, _ snippet: SearchSnippetRequest) throws -> [(document: Model, snippet: String?)] {
        var found: [(document: Model, snippet: String?)] = []
        let decoding = DocumentDecoding<Model>()
        try readRows(cached: false, { try $0.snippets(query, of: snippet) }) { statement, info in
            let key = statement.key(at: 0, kind: info.keyKind)
            let document = try ModelCoding.decode(Model.self, from: statement.bytes(at: 1), collection: name, key: key, decoding: decoding)
            found.append((document, statement.isNull(at: 2) ? nil : statement.string(at: 2)))
        }
        return found
    }
}
