@_spi(Backends) import DocStore

/// What running a command produced, before it is printed in the session's mode.
public enum CommandResult: Hashable, Sendable {
    /// Documents (a query's results).
    case documents([JSONValue])
    /// One document, `get`'s: printed as itself, not as an array of one.
    case document(JSONValue)
    /// The first documents of a longer result: an interactive session shows a
    /// query without `.limit` only up to its display limit, as mongosh does.
    case firstDocuments([JSONValue])
    /// Rows of values under named columns (`select`, `.schema`, `.indexes`, groups).
    case rows(columns: [String], [[JSONValue?]])
    /// The first rows of a longer result (a group or select without `.limit` in
    /// an interactive session), as ``firstDocuments(_:)``.
    case firstRows(columns: [String], [[JSONValue?]])
    /// One value (`count`, `exists`, an aggregate, `keys`).
    case value(JSONValue)
    /// A sentence about what was done ("inserted 1 document (key 99)").
    case message(String)
    /// Preformatted text (`.help`, `.explain`, `.collections`).
    case text(String)
    /// Nothing to print (`.mode`).
    case none

    /// The summary after results: "3 documents", "1 row"; nil for single values.
    var countSummary: String? {
        switch self {
        case .documents(let documents): Self.plural(documents.count, "document")
        case .document: Self.plural(1, "document")
        case .firstDocuments(let documents):
            "the first \(Self.plural(documents.count, "document")); more match (.count() counts them, .limit(n, offset: m) pages)"
        case .rows(_, let rows): Self.plural(rows.count, "row")
        case .firstRows(_, let rows):
            "the first \(Self.plural(rows.count, "row")); more follow (.count() counts them, .limit(n, offset: m) pages)"
        default: nil
        }
    }

    /// Whether table mode prints this as a table.
    var isTable: Bool {
        switch self {
        case .documents(let documents), .firstDocuments(let documents): !documents.isEmpty
        case .rows, .firstRows, .document: true
        default: false
        }
    }

    static func plural(_ count: Int, _ noun: String) -> String { CountText.plural(count, noun) }

    /// 108789 as "108 789": every count the REPL prints is spelled so.
    static func grouped(_ number: Int) -> String { CountText.grouped(number) }
}
