import DocStore

/// Full-text search in query chains: `sorted(byRelevanceTo: "home run")`.
extension CommandParser {
    /// The rest of `sorted(byRelevanceTo: "text"[, in: \.field])`, after its label.
    /// Without `in:`, the field is the one the query's `matches` conditions
    /// search, as in the DSL.
    mutating func relevanceArguments(_ condition: Condition, at method: Token, pipelineStarted: Bool) throws(REPLSyntaxError) -> SearchRelevance {
        let text = try stringArgument("sorted(byRelevanceTo:)")
        var field: FieldPath?
        if try accept(.comma) {
            guard try acceptLabel("in") else {
                throw REPLSyntaxError("expected 'in:' as in sorted(byRelevanceTo: \"text\", in: \\.field), found \(current.shown)", at: current.location)
            }
            field = try keyPath()
        }
        try expect(.rightParen)
        if pipelineStarted {
            throw REPLSyntaxError("sorting by relevance works on the collection's documents: sort by it before any group, join or select", at: method.location)
        }
        if let field { return SearchRelevance(field: field, text: text) }
        var searched: [FieldPath] = []
        for path in Self.searchedFields(condition) where !searched.contains(path) { searched.append(path) }
        guard searched.count == 1, let only = searched.first else {
            throw REPLSyntaxError(searched.isEmpty
                ? "sorted(byRelevanceTo:) ranks the field the query searches, and the query has no matches(…) before it; name the field: sorted(byRelevanceTo: \"…\", in: \\.field)"
                : "the query searches several fields (\(searched.map(\.description).joined(separator: ", "))); name one: sorted(byRelevanceTo: \"…\", in: \\.field)",
                at: method.location)
        }
        return SearchRelevance(field: only, text: text)
    }

    /// The fields a condition's `matches` search.
    static func searchedFields(_ condition: Condition) -> [FieldPath] {
        switch condition {
        case .matches(let path, _): [path]
        case .and(let conditions), .or(let conditions): conditions.flatMap(searchedFields)
        case .not(let inner): searchedFields(inner)
        default: []
        }
    }
}
