/// Snippets for a backend without FTS5, cut in Swift by FTS5's rules
/// (``SearchSnippet``), so that both backends give the same ones.
@_spi(Backends)
extension BackendSupport {
    /// A snippet request checked and its search text read, ready to cut
    /// snippets from documents.
    public struct SnippetCutter: Sendable {
        let search: SearchText
        let request: SearchSnippetRequest

        /// The snippet of the document's field, or nil when the field isn't a
        /// string or doesn't match the search text.
        public func snippet(of document: JSONValue) -> String? {
            guard case .string(let text)? = document.value(at: request.field) else { return nil }
            return SearchSnippet.cut(text, matching: search, request)
        }
    }

    /// Reads the request's search text and checks that one of `indexes` covers
    /// its field, with a file store's errors.
    public static func snippetCutter(_ request: SearchSnippetRequest, collection: String, indexes: [SearchIndexInfo]) throws -> SnippetCutter {
        func invalid(_ reason: String) -> DocStoreError {
            DocStoreError.invalidQuery(collection: collection, field: request.field.description, reason: reason)
        }
        let search: SearchText
        do {
            search = try SearchText(parsing: request.text)
        } catch {
            throw invalid(error.reason)
        }
        guard indexes.contains(where: { $0.fields.contains(request.field) }) else {
            throw invalid("ranking and snippets need a search index on the field; create one first: createSearchIndex(on: \\.\(request.field))")
        }
        return SnippetCutter(search: search, request: request)
    }
}
