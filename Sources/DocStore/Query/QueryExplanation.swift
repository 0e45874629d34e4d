import GRDB

/// How the database runs a query: the SQL DocStore compiled, its bindings, and
/// the plan (SQLite's `EXPLAIN QUERY PLAN`, or PostgreSQL's `EXPLAIN`). The
/// REPL's `.explain` prints its description.
public struct QueryExplanation: Hashable, Sendable {
    /// The SQL text (values appear only as `?`).
    public var sql: String
    /// The values bound to the `?` parameters, in order.
    public var bindings: [SQLBinding]
    /// SQLite's plan, one line per step, indented under its parent step:
    /// `SEARCH players USING INDEX docstore_ix_1 (<expr>=? AND <expr>=?)`.
    public var plan: [String]

    /// Whether some step of the plan uses one of DocStore's indexes.
    public var usesIndex: Bool {
        plan.contains {
            $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX")  // SQLite
                || ($0.contains("Index") && ($0.contains("docstore_ix_") || $0.contains("docstore_search_")))  // PostgreSQL: Index Scan, Bitmap Index Scan on one
        }
    }

    /// An explanation another backend made.
    @_spi(Backends)
    public init(sql: String, bindings: [SQLBinding], plan: [String]) {
        self.sql = sql
        self.bindings = bindings
        self.plan = plan
    }
}

extension QueryExplanation: CustomStringConvertible {
    public var description: String {
        var lines = ["sql: " + sql]
        if !bindings.isEmpty { lines.append("bindings: " + bindings.map(\.description).joined(separator: ", ")) }
        lines.append("plan:")
        lines += plan.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }
}

extension DocumentCollection {
    /// The SQL that ``fetch(_:)`` runs for the query, its bindings and SQLite's plan.
    public func explain(_ query: DocumentQuery) throws -> QueryExplanation {
        try explain { try $0.documents(query) }
    }

    /// The SQL a statement compiled by `compile` runs, its bindings and SQLite's plan.
    func explain(_ compile: (QueryCompiler) throws -> SQLFragment) throws -> QueryExplanation {
        try access {
            try store.readAccess { db in
                let compiled = try compile(queryCompiler(in: db))
                guard try store.knownCollection(named: name, in: db) != nil else {
                    return QueryExplanation(sql: compiled.sql, bindings: compiled.bindings,
                                            plan: ["(collection \(DocumentKey.quoted(name)) does not exist yet: no rows)"])
                }
                var depth: [Int64: Int] = [0: -1]
                var plan: [String] = []
                try run(SQLFragment("EXPLAIN QUERY PLAN " + compiled.sql, compiled.bindings), in: db) { row in
                    let level = (depth[row.int64(at: 1)] ?? -1) + 1
                    depth[row.int64(at: 0)] = level
                    plan.append(String(repeating: "  ", count: level) + row.string(at: 3))
                }
                return QueryExplanation(sql: compiled.sql, bindings: compiled.bindings, plan: plan)
            }
        }
    }
}
