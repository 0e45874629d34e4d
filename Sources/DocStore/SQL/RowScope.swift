/// The rows of a pipeline stage as SQL sees them: a `FROM` source, the conditions
/// not yet applied, the expression of the row's order key, and where each part of
/// a row is read from (the document's JSON, a joined document's JSON, or computed
/// columns).
///
/// A scope stays open while stages only add conditions, joins or computed values
/// to it; a sort, a limit or a group closes it into a subquery
/// (``PipelineCompiler/wrapped(_:order:limit:group:)``), whose columns the next
/// scope reads.
struct RowScope {
    /// Where one part of a row is read from.
    enum Source: Sendable {
        /// JSON text: a document, or a joined document (NULL when none matched).
        case json(SQLFragment, root: FieldRoot)
        /// A computed column: its rank and value.
        case column(rank: SQLFragment, value: SQLFragment)
    }

    /// One part of a row: the value at `path` (the root for a whole document).
    struct Entry: Sendable {
        var path: FieldPath
        var source: Source
        /// For a column that is a document's field: the field as JSON text, which
        /// the statement's output reads in one call, exactly as stored.
        var jsonText: SQLFragment? = nil
    }

    /// The `FROM` source, joins included.
    var from: SQLFragment
    /// Conditions (ANDed) that the rows satisfy.
    var conditions: [SQLFragment] = []
    /// The expression of the rows' order: a document key, a position.
    var key: SQLFragment
    /// On SQLite, the rows' order when it is not ``key``'s: a stage's sort
    /// terms, carried out of its subquery as columns (`s2.o0 DESC, s2.o1, …`),
    /// which spares numbering the rows with a window function.
    var order: [OrderTerm] = []
    /// At most how many rows there are, when a limit bounds them (a join then
    /// looks a few rows' matches up one by one).
    var rowBound: Int?
    /// The terms the rows are in order by.
    var orderTerms: [OrderTerm] { order.isEmpty ? [OrderTerm(key)] : order }
    /// Whether ``key`` is text (a string or UUID collection's keys, before any
    /// stage numbers the rows) rather than an integer.
    var keyIsText = false
    /// The parts of a row.
    var entries: [Entry]
    /// The collection queried, for error messages.
    let collection: String
    /// The database the SQL is for: on PostgreSQL every value is `jsonb`.
    var dialect: SQLDialect = .sqlite
    /// In the first stage of a collection with field columns: how its documents'
    /// fields are read from the columns, and the documents' JSON (`s0.body`).
    var columnReads: (reads: ColumnReads, body: FieldRoot)?

    /// The expressions reading `path` from a row: from the entry whose path is the
    /// longest prefix of it.
    func field(_ path: FieldPath) throws -> FieldSQL {
        let entry = entries.filter { path.components.starts(with: $0.path.components) }
            .max { $0.path.components.count < $1.path.components.count }
        guard let entry else {
            throw DocStoreError.invalidQuery(collection: collection, field: path.description, reason: "the rows have no such column")
        }
        let rest = FieldPath(Array(path.components.dropFirst(entry.path.components.count)))
        switch entry.source {
        case .json(_, let root):
            let field = try FieldSQL.checked(rest, from: root, collection: collection, dialect: dialect)
            guard let columnReads, columnReads.body == root, entry.path == .root else { return field }
            return columnReads.reads.field(rest, json: field)
        case .column(let rank, let value) where dialect == .postgres:
            // A column is jsonb: its fields are read as a document's are.
            var field = try FieldSQL.checked(rest, from: .json(value), collection: collection, dialect: .postgres)
            if rest.components.isEmpty {
                field.knownRank = rank
                field.isColumn = true
            }
            return field
        case .column(let rank, let value):
            if rest.components.isEmpty { return .column(rank: rank, value: value, jsonText: entry.jsonText) }
            let container = "(CASE WHEN " + rank + " >= \(JSONRank.array.rawValue) THEN " + value + " END)"
            return try FieldSQL.checked(rest, from: .json(container), collection: collection)
        }
    }

    /// `WHERE …`, or nothing.
    var whereClause: SQLFragment {
        conditions.isEmpty ? "" : " WHERE " + .joined(conditions, separator: " AND ")
    }
}

/// One term of an `ORDER BY`.
struct OrderTerm {
    var expression: SQLFragment
    var descending = false

    init(_ expression: SQLFragment, descending: Bool = false) {
        self.expression = expression
        self.descending = descending
    }

    /// `expression [DESC]`.
    var sql: SQLFragment { descending ? expression + " DESC" : expression }
}
