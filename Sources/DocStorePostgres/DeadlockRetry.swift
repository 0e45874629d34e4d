/// Two transactions that each wait for rows the other holds (two updates of
/// many documents in different orders, say) are a deadlock: PostgreSQL ends
/// one of them with SQLSTATE 40P01 and undoes it whole. Nothing of it was
/// written, so DocStore runs it again when it is DocStore's own — one
/// statement outside a transaction, or the transaction an update by query or a
/// field change opens for itself — as an application would. A transaction the
/// caller opened (``PostgresDocumentStore/transaction(_:)``) is never run
/// again: its closure may do more than write; its error says to.
enum DeadlockRetry {
    /// Runs in all, before the deadlock is reported.
    static let attempts = 6

    /// `body`'s result, running it again after a deadlock (up to ``attempts``
    /// times, after a random wait that grows, so the two don't meet again).
    static func run<T>(_ body: () async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch let error as PostgresStoreError where error.isDeadlock && attempt < attempts {
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...20) * attempt))
                attempt += 1
            }
        }
    }
}

extension PostgresStoreError {
    /// Whether PostgreSQL ended the statement's transaction to break a deadlock.
    var isDeadlock: Bool {
        if case .server(sqlState: "40P01", _, _, _, _) = self { true } else { false }
    }
}
