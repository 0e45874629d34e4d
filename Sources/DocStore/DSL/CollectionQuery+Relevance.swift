extension CollectionQuery {
    /// The documents in order of relevance to `text` in the field the query
    /// searches (its `matches` conditions name exactly one field), best first
    /// (SQLite FTS5's bm25); earlier sort keys then break ties.
    ///
    ///     let best = try notes.filter { $0.text.matches("home run") }
    ///         .sorted(byRelevanceTo: "home run")
    ///         .limit(10)
    ///         .fetch()
    ///
    /// A query that searches no field, or several, throws when run: name the
    /// field with ``sorted(byRelevanceTo:in:)``.
    public func sorted(byRelevanceTo text: String) -> CollectionQuery {
        let segment = if case .refine(let last)? = stages.last { last } else { query }
        let fields = segment.condition.searchedFields.reduce(into: [FieldPath]()) { if !$0.contains($1) { $0.append($1) } }
        guard fields.count == 1, let field = fields.first else {
            var copy = self
            copy.invalid = copy.invalid ?? InvalidQuery(
                reason: fields.isEmpty
                    ? "sorted(byRelevanceTo:) ranks the field the query searches, and this query has no matches condition; name the field: sorted(byRelevanceTo:in:)"
                    : "the query searches several fields (\(fields.map(\.description).joined(separator: ", "))); name the one to rank by: sorted(byRelevanceTo:in:)",
                field: nil)
            return copy
        }
        return sorted(byRelevance: SearchRelevance(field: field, text: text))
    }

    /// The documents in order of relevance of `field` to `text`, best first
    /// (SQLite FTS5's bm25); documents not matching the whole text come last.
    /// Needs a search index on the field.
    ///
    ///     notes.query.sorted(byRelevanceTo: "home run", in: \.text)
    public func sorted<Value: DocumentStringValue>(
        byRelevanceTo text: String, in field: KeyPath<Model.Fields, DocumentField<Value>>
    ) -> CollectionQuery {
        sorted(byRelevance: SearchRelevance(field: Model.Fields(_path: .root)[keyPath: field].fieldPath, text: text))
    }

    private func sorted(byRelevance relevance: SearchRelevance) -> CollectionQuery {
        var copy = self
        guard stages.isEmpty else {
            copy.invalid = copy.invalid ?? InvalidQuery(
                reason: "sorting by relevance works on the collection's documents: sort by it before any join, group or select",
                field: relevance.field)
            return copy
        }
        copy.query.relevance = relevance
        return copy
    }
}

extension Condition {
    /// The fields the condition's `matches` search.
    var searchedFields: [FieldPath] {
        switch self {
        case .matches(let path, _): [path]
        case .and(let conditions), .or(let conditions): conditions.flatMap(\.searchedFields)
        case .not(let condition): condition.searchedFields
        default: []
        }
    }
}

extension CollectionQuery {
    /// The selected documents, in the query's order, each with a snippet of
    /// `field` around the words of `text`, matched words between `highlight`'s
    /// marks (nil for a document whose field doesn't match the text). Needs a
    /// search index on the field.
    ///
    ///     for (note, snippet) in try notes.filter { $0.text.matches("home run") }
    ///         .sorted(byRelevanceTo: "home run")
    ///         .fetchWithSnippets(of: \.text, matching: "home run") {
    ///         print(note.player, snippet ?? "")   // Ortiz Hit a [home] [run] to right field, then another.
    ///     }
    ///
    /// - Parameter words: About how many words each snippet holds (2 to 64).
    public func fetchWithSnippets<Value: DocumentStringValue>(
        of field: KeyPath<Model.Fields, DocumentField<Value>>, matching text: String,
        highlight: (start: String, end: String) = ("[", "]"), words: Int = 10
    ) throws -> [(document: Model, snippet: String?)] {
        let path = Model.Fields(_path: .root)[keyPath: field].fieldPath
        return try collection.fetchWithSnippets(
            documentQuery(), SearchSnippetRequest(field: path, text: text, highlight: highlight, words: words))
    }
}
