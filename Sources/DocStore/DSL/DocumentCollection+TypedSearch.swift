extension DocumentCollection where Model: QueryableDocument {
    /// Creates a full-text search index on string fields named by key paths (see
    /// ``DocumentCollection/createSearchIndex(on:)-(_:[FieldPath])``); `matches`
    /// on those fields then uses it. Creating one that exists returns it.
    ///
    ///     try notes.createSearchIndex(on: \.text, \.title)
    ///     let found = try notes.filter { $0.text.matches("home run") }.fetch()
    @discardableResult
    public func createSearchIndex<each Value: DocumentStringValue>(
        on fields: repeat KeyPath<Model.Fields, DocumentField<each Value>>
    ) throws -> SearchIndexInfo {
        try createSearchIndex(on: Self.paths(repeat each fields))
    }

    /// Drops the search index on exactly these fields. Returns whether there was one.
    @discardableResult
    public func dropSearchIndex<each Value: DocumentStringValue>(
        on fields: repeat KeyPath<Model.Fields, DocumentField<each Value>>
    ) throws -> Bool {
        try dropSearchIndex(on: Self.paths(repeat each fields))
    }
}
