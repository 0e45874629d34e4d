extension QueryCompiler {
    /// For a query sorted by relevance: ` LEFT JOIN (<key and bm25 of each
    /// document matching the text>) AS docstore_relevance ON … = key`, else nothing.
    ///
    ///     LEFT JOIN (SELECT rowid AS docstore_key, bm25("docstore_search_1") AS docstore_rank
    ///                FROM "docstore_search_1" WHERE "docstore_search_1" MATCH ? LIMIT -1) AS docstore_relevance
    ///       ON docstore_relevance.docstore_key = "notes".key
    ///
    /// (`LIMIT -1` keeps SQLite from flattening the subquery into the join, which
    /// would run the full-text query once per document.)
    func relevanceJoin(_ query: DocumentQuery) throws -> SQLFragment {
        guard let relevance = query.relevance else { return "" }
        return " LEFT JOIN " + (try relevanceRanks(relevance)) + " AS docstore_relevance ON docstore_relevance.docstore_key = \(table).key"
    }

    /// The order terms of relevance: best (lowest bm25) first, unmatched last.
    static let relevanceOrder: [SQLFragment] = ["docstore_relevance.docstore_rank IS NULL", "docstore_relevance.docstore_rank"]

    /// `(SELECT <document key> AS docstore_key, bm25(…) AS docstore_rank FROM … WHERE … MATCH ? LIMIT -1)`.
    func relevanceRanks(_ relevance: SearchRelevance) throws -> SQLFragment {
        if dialect == .postgres {
            // PostgreSQL's rank (ts_rank_cd), negated: best first, as bm25.
            _ = try searchSource(relevance)  // a search index must cover the field
            return try PostgresSearchSQL.ranks(relevance.field, collection: collection, search: try searchText(relevance))
        }
        let (index, _, match) = try searchSource(relevance)
        return try rankedSource(index, columns: SQLFragment("bm25(\(quoteIdentifier(index.name))) AS docstore_rank"), match: match)
    }

    /// The search index serving `relevance`'s field, its column, and the FTS5
    /// query meaning its text.
    func searchSource(_ relevance: SearchRelevance) throws -> (SearchIndexInfo, String, String) {
        func invalid(_ reason: String) -> DocStoreError {
            DocStoreError.invalidQuery(collection: collection, field: relevance.field.description, reason: reason)
        }
        let search = try searchText(relevance)
        guard let index = try searchIndexes(collection).first(where: { $0.column(of: relevance.field) != nil }),
              let column = index.column(of: relevance.field) else {
            throw invalid("ranking and snippets need a search index on the field; create one first: createSearchIndex(on: \\.\(relevance.field))")
        }
        return (index, column, search.ftsQuery(column: column))
    }

    /// The search text of `relevance`, read; an error naming the field otherwise.
    private func searchText(_ relevance: SearchRelevance) throws -> SearchText {
        do {
            return try SearchText(parsing: relevance.text)
        } catch {
            throw DocStoreError.invalidQuery(collection: collection, field: relevance.field.description, reason: error.reason)
        }
    }

    /// `(SELECT <document key> AS docstore_key, <columns> FROM <fts> WHERE <fts> MATCH ? LIMIT -1)`.
    private func rankedSource(_ index: SearchIndexInfo, columns: SQLFragment, match query: String) throws -> SQLFragment {
        let fts = quoteIdentifier(index.name)
        let match: SQLFragment = " WHERE \(fts) MATCH " + .bound(.text(query)) + " LIMIT -1)"
        if try keyKind(collection) ?? .integer == .integer {
            return "(SELECT rowid AS docstore_key, " + columns + " FROM \(fts)" + match
        }
        return "(SELECT k.key AS docstore_key, " + columns + " FROM \(fts) JOIN "
            + quoteIdentifier(SearchIndexSQL.keysName(index)) + " AS k ON k.id = \(fts).rowid" + match
    }
}

extension QueryCompiler {
    /// The selected documents' keys, bodies and snippets of `field` around the
    /// words of `text` (NULL for a document that doesn't match the text), in the
    /// query's order:
    ///
    ///     SELECT key, body, docstore_snippets.docstore_snippet FROM "notes"
    ///     LEFT JOIN (SELECT rowid AS docstore_key, snippet("docstore_search_1", 0, ?, ?, ?, ?) AS docstore_snippet
    ///                FROM "docstore_search_1" WHERE "docstore_search_1" MATCH ? LIMIT -1) AS docstore_snippets
    ///       ON docstore_snippets.docstore_key = "notes".key
    ///     WHERE … ORDER BY …
    func snippets(_ query: DocumentQuery, of snippet: SearchSnippetRequest) throws -> SQLFragment {
        let relevance = SearchRelevance(field: snippet.field, text: snippet.text)
        guard dialect == .sqlite else {
            throw DocStoreError.invalidQuery(collection: collection, field: snippet.field.description,
                                             reason: "snippets aren't available on PostgreSQL yet (searching and ranking are)")
        }
        let (index, _, match) = try searchSource(relevance)
        guard let position = index.fields.firstIndex(of: snippet.field) else { return "" }
        let fts = quoteIdentifier(index.name)
        let arguments: [SQLFragment] = [
            .bound(.text(snippet.highlight.start)), .bound(.text(snippet.highlight.end)), .bound(.text(snippet.ellipsis)),
            .bound(.integer(Int64(SearchSnippetRequest.wordRange.clamp(snippet.words)))),
        ]
        let call = SQLFragment("snippet(\(fts), \(position), ") + .joined(arguments, separator: ", ") + ")"
        let source = try rankedSource(index, columns: call + " AS docstore_snippet", match: match)
        return "SELECT key, body, docstore_snippets.docstore_snippet FROM \(table)" + (try relevanceJoin(query))
            + " LEFT JOIN " + source + " AS docstore_snippets ON docstore_snippets.docstore_key = \(table).key"
            + (try whereClause(query)) + (try orderClause(query.sort, relevance: query.relevance != nil)) + limitClause(query)
    }
}
