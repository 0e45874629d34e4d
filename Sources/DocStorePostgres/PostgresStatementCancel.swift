import PostgresNIO
import Synchronization

/// Cancels a statement on the server when the task running it is cancelled.
///
/// postgres-nio stops reading a cancelled task's rows, but the server goes on
/// running the statement: at the REPL, ctrl-C on a long join gave no prompt
/// until the server was done (minutes), and the statement ran on after the
/// client had gone. The server stops a statement when asked from another
/// connection, by the process ID of the one running it:
/// `SELECT pg_cancel_backend(pid)`.
///
/// Learning the process ID costs a round trip per statement, so it is asked
/// for only where ``isWanted`` says so (the REPL, around every command).
public enum PostgresStatementCancel {
    /// Whether statements of pooled connections run in this task are cancelled
    /// on the server with the task.
    @TaskLocal public static var isWanted = false

    /// Runs `body` on a connection of `client`; if the task is cancelled
    /// meanwhile, the server cancels that connection's statement (its error
    /// then ends `body`).
    static func run<Result: Sendable>(on client: PostgresClient, logger: Logger,
                                      _ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        try await client.withConnection { connection in
            var processID: Int32?
            for try await row in try await connection.query("SELECT pg_backend_pid()", logger: logger) {
                processID = try row.decode(Int32.self)
            }
            guard let processID else { return try await body(connection) }
            // Asked at most once, and only while `body` runs on the connection:
            // after it, the process may be running someone else's statement.
            let running = Running()
            defer { running.end() }
            return try await withTaskCancellationHandler {
                try await body(connection)
            } onCancel: {
                Task {
                    guard running.isRunning else { return }
                    _ = try? await client.query("SELECT pg_cancel_backend(\(processID))", logger: logger)
                }
            }
        }
    }
}

/// Whether a statement still runs on its connection.
private final class Running: Sendable {
    private let flag = Atomic<Bool>(true)
    var isRunning: Bool { flag.load(ordering: .acquiring) }
    func end() { flag.store(false, ordering: .releasing) }
}
