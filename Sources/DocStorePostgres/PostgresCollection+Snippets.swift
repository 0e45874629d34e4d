@_spi(Backends) import DocStore

extension PostgresCollection {
    /// The documents the query selects, in its order, each with a snippet of a
    /// field around the words of a search text (nil for a document whose field
    /// doesn't match the text), as on a file store: the same window of words,
    /// marks and ellipses as SQLite's FTS5 `snippet()` (DocStore cuts them by its
    /// rules, from the documents the server sends).
    ///
    /// - Throws: ``DocStore/DocStoreError/invalidQuery(collection:field:reason:)``
    ///   when no search index covers the field, or the search text can't be read.
    public func fetchWithSnippets(_ query: DocumentQuery, _ snippet: SearchSnippetRequest) async throws -> [(document: Model, snippet: String?)] {
        let cutter = try BackendSupport.snippetCutter(snippet, collection: name, indexes: try await searchIndexes())
        guard let compiler = try await compiler(for: query.condition, relevance: query.relevance != nil) else { return [] }
        let statement = try compiler.documents(query)
        let kind = keyKind()
        var found: [(document: Model, snippet: String?)] = []
        try await session.forEachRow(statement.sql, statement.bindings, collection: name) { row in
            let cells = row.makeRandomAccess()
            let key = try decodeKey(cells[0], kind: kind)
            let document = try decodeDocument(cells[1], key: key)
            let json = try BackendSupport.parse(Array(try cells[1].decode(String.self).utf8), collection: name, key: key)
            found.append((document, cutter.snippet(of: json)))
        }
        return found
    }
}

extension PostgresCollectionQuery {
    /// The selected documents, in the query's order, each with a snippet of
    /// `field` around the words of `text`, matched words between `highlight`'s
    /// marks (nil for a document whose field doesn't match the text). Needs a
    /// search index on the field.
    ///
    /// - Parameter words: About how many words each snippet holds (2 to 64).
    public func fetchWithSnippets<Value: DocumentStringValue>(
        of field: KeyPath<Model.Fields, DocumentField<Value>>, matching text: String,
        highlight: (start: String, end: String) = ("[", "]"), words: Int = 10
    ) async throws -> [(document: Model, snippet: String?)] {
        let path = Model.Fields(_path: .root)[keyPath: field].fieldPath
        return try await collection.fetchWithSnippets(
            documentQuery(), SearchSnippetRequest(field: path, text: text, highlight: highlight, words: words))
    }
}
