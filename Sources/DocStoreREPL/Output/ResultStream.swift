import DocStore
import OrderedCollections

/// One item of a streamed result: a document (stored text, decoded only when a
/// format needs its members), or a row of values under the stream's columns.
enum ResultItem {
    /// A stored document: its key, collection and JSON text (valid during the call).
    case stored(key: DocumentKey, collection: String, text: UnsafeRawBufferPointer)
    /// A decoded document (a join's row, a pipeline row without columns).
    case document(JSONValue)
    /// Values under ``ResultStream/columns`` (nil: missing).
    case row([JSONValue?])

    /// The item as a value: a document, or an object keyed by column (missing
    /// cells left out).
    func value(columns: [String]?) throws -> JSONValue {
        switch self {
        case .stored(let key, let collection, let text):
            return try DocumentCollection<JSONValue>.parseStoredDocument(text, collection: collection, key: key)
        case .document(let document):
            return document
        case .row(let values):
            var members = OrderedDictionary<String, JSONValue>()
            for (index, column) in (columns ?? []).enumerated() where index < values.count && members[column] == nil {
                if let value = values[index] { members[column] = value }
            }
            return .object(members)
        }
    }
}

/// A query's result, read from the store as it is printed: nothing holds all of
/// it, so printing a million documents takes the memory of one. Its items come
/// from the query's compiled SQL (the one pipeline), one at a time.
///
/// ``forEach`` may run more than once inside one read transaction (a table's
/// column widths, a CSV header of documents' members): every run sees the same
/// snapshot.
struct ResultStream {
    /// Column headers known before reading (a select, a group); nil when items
    /// are documents, whose members make the columns.
    var columns: [String]?
    /// What an item is called in counts: "document" or "row".
    var noun: String
    /// Whether the query asked for a number of rows (`.limit(N)` at any
    /// stage): a terminal then shows all of them, never only the first and last.
    var isLimited = false
    /// Calls `body` with each item in order; stops at the first error.
    var forEach: ((ResultItem) throws -> Void) throws -> Void
}

extension ResultStream {
    /// A group's, join's or computed select's rows, as either backend reads
    /// them (`forEachRow` calls its body with each pipeline row): under the
    /// pipeline's columns, or documents when it has none; ctrl-C stops it
    /// between rows.
    static func pipelineRows(_ pipeline: QueryPipeline, columns: [(header: String, path: FieldPath)]?, interruption: Interruption,
                             forEachRow: @escaping (_ body: (JSONValue) throws -> Void) throws -> Void) -> ResultStream {
        let noun = columns == nil ? "document" : "row"
        return ResultStream(columns: columns?.map(\.header), noun: noun, isLimited: pipeline.isLimited) { body in
            var count = 0
            try forEachRow { row in
                try interruption.check("interrupted after \(CommandResult.plural(count, noun))")
                if let columns {
                    try body(.row(columns.map { row.value(at: $0.path) ?? .null }))
                } else {
                    try body(.document(row))
                }
                count += 1
            }
        }
    }
}
