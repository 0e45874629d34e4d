/// The SQL database a statement is compiled for. The query AST, the DSL and the
/// evaluator know nothing of it; only the compiler in `SQL/` does.
///
/// - `sqlite`: SQLite 3.40's JSON1 functions over JSON text (`json_extract`,
///   `json_type`, `json_each`), `?` parameters. What the embedded store runs.
/// - `postgres`: PostgreSQL's `jsonb` (`->`, `jsonb_typeof`,
///   `jsonb_array_elements`), `$n` parameters, strings compared `COLLATE "C"`.
///   What `DocStorePostgres` runs.
///
/// Both compile the same conditions, sorts, limits and counts to the same
/// meaning; the statement shapes differ only where the databases do
/// (``FieldSQL``, ``ConditionCompiler``, ``QueryCompiler``).
enum SQLDialect: Hashable, Sendable {
    case sqlite
    case postgres

    /// A condition that always holds: SQLite's conditions are integers, PostgreSQL's booleans.
    var alwaysTrue: SQLFragment {
        switch self {
        case .sqlite: "1"
        case .postgres: "TRUE"
        }
    }

    /// A condition that never holds.
    var alwaysFalse: SQLFragment {
        switch self {
        case .sqlite: "0"
        case .postgres: "FALSE"
        }
    }

    /// The name used in messages ("SQLite 3.40 can't …").
    var databaseName: String {
        switch self {
        case .sqlite: "SQLite 3.40"
        case .postgres: "PostgreSQL"
        }
    }

    /// The error for a query a dialect can't run yet, naming the collection.
    func unsupported(_ what: String, collection: String, field: FieldPath? = nil) -> DocStoreError {
        .invalidQuery(collection: collection, field: field?.description,
                      reason: "\(what) \(what.hasSuffix("s") ? "are" : "is") not available on \(databaseName) yet")
    }
}
