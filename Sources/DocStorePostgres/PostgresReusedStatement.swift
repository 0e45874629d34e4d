@_spi(Backends) import DocStore
import PostgresNIO
import Synchronization

/// A collection's fixed statements (point reads and writes, batch inserts,
/// pages) as named prepared statements: each connection parses and plans one
/// once, then only binds and executes it. Run one-off, a point read costs the
/// server a parse and a plan every time, and the client the decoding of the
/// statement's description: about a third of `get`'s time.
///
/// postgres-nio takes a prepared statement's name and SQL from its *type*
/// (`PostgresPreparedStatement.name`/`.sql` are static: fixed in its users'
/// code), while DocStore's name a collection. So one type serves them all, and
/// a task-local holds the name and SQL of the statement being run for the
/// duration of one `execute` call, which reads them.
struct ReusedStatement: PostgresPreparedStatement {
    /// A statement's server-side name and SQL.
    struct Text: Sendable {
        var name: String
        var sql: String
    }

    @TaskLocal static var current = Text(name: "", sql: "")
    static var name: String { current.name }
    static var sql: String { current.sql }

    typealias Row = PostgresRow
    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }

    /// The name of each statement, by SQL and binding types (a collection
    /// dropped and made again with another key kind gets new statements). A
    /// store has a handful of fixed statements per collection, so this stays small.
    /// Keyed by bytes (see `ExactText`): two collections whose names differ
    /// only in Unicode normalization must not share a statement.
    private static let names = Mutex<(byStatement: [ExactText: String], next: Int)>(([:], 0))

    /// The name and SQL to run `sql` under, with bindings of `types` (a
    /// statement is prepared for the types of its first bindings).
    static func text(for sql: String, types: String) -> Text {
        let identity = ExactText(types + ";" + sql)
        let name = names.withLock { names in
            if let name = names.byStatement[identity] { return name }
            names.next += 1
            let name = "docstore_\(names.next)"
            names.byStatement[identity] = name
            return name
        }
        return Text(name: name, sql: sql)
    }

    /// After a failure: when the statement may not have been prepared (its
    /// table gone, a transaction already failed), postgres-nio keeps that
    /// error for the name on the connection for good, so the next run takes a
    /// new name and prepares again. Other failures (a taken key…) leave it.
    static func failed(_ text: Text, _ error: any Error) {
        guard let psql = error as? PSQLError else { return }
        let state = psql.serverInfo?[.sqlState] ?? ""
        // 42: undefined table, column, function…; 25: a transaction already aborted; 26: statement name; 0A: not supported.
        guard psql.serverInfo == nil || ["42", "25", "26", "0A"].contains(String(state.prefix(2))) else { return }
        names.withLock { names in
            for (identity, name) in names.byStatement where name == text.name {
                names.byStatement[identity] = nil
            }
        }
    }
}
