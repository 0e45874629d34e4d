/// One sort key: a field and a direction. Ties after all keys are broken by the
/// document key, so results are always in the same order.
public struct SortKey: Hashable, Sendable {
    /// The field sorted on.
    public var path: FieldPath
    /// Whether larger values come first.
    public var descending: Bool

    /// A sort key on `path`, ascending unless `descending`.
    public init(_ path: FieldPath, descending: Bool = false) {
        self.path = path
        self.descending = descending
    }
}

/// A change applied by an update-by-query, compiled to one `json_set`/`json_remove`.
public enum FieldUpdate: Hashable, Sendable {
    /// Sets the field to the value (creating it when missing).
    case set(FieldPath, JSONValue)
    /// Adds a number to a numeric field.
    case increment(FieldPath, JSONValue)
    /// Removes the field.
    case remove(FieldPath)
}

/// A summary computed over the documents a query selects.
public enum Aggregate: Hashable, Sendable {
    case count
    case min(FieldPath)
    case max(FieldPath)
    case sum(FieldPath)
    case average(FieldPath)
    /// The distinct values of a field.
    case distinct(FieldPath)
    /// The number of documents for each value of a field.
    case countBy(FieldPath)
}

/// A query on a collection: the untyped AST that every front end builds (the
/// typed Swift DSL, the REPL) and that only the SQL compiler turns into SQL. The
/// collection it runs on is the one whose method receives it.
public struct DocumentQuery: Hashable, Sendable {
    /// Which documents.
    public var condition: Condition
    /// In which order (then by key).
    public var sort: [SortKey]
    /// Sorted first by relevance to a search text, best first (before `sort`).
    public var relevance: SearchRelevance?
    /// At most this many documents.
    public var limit: Int?
    /// Skipping this many first.
    public var offset: Int?

    /// A query for the documents matching `condition`, in `sort` order then by key,
    /// skipping `offset` and returning at most `limit`; by `relevance` first when given.
    public init(_ condition: Condition = .always, sort: [SortKey] = [],
                limit: Int? = nil, offset: Int? = nil, relevance: SearchRelevance? = nil) {
        self.condition = condition
        self.sort = sort
        self.relevance = relevance
        self.limit = limit
        self.offset = offset
    }
}
