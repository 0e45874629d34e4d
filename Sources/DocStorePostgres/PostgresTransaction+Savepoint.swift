@_spi(Backends) import DocStore

extension PostgresTransaction {
    /// Runs `body` in a savepoint: what it wrote is kept when it returns and
    /// undone when it throws, while the transaction goes on. On PostgreSQL a
    /// failed statement spoils the whole transaction; inside a savepoint it only
    /// spoils the savepoint, so a batch can fail and be retried document by
    /// document (as `.import --skip-bad` does).
    public func savepoint<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        try await session.rows(PostgresStoreSQL.savepoint, [], collection: nil)
        let result: Result
        do {
            result = try await body()
        } catch {
            // The error says what failed; failing to roll back after it would
            // also be reported by the transaction's next statement.
            _ = try? await session.rows(PostgresStoreSQL.rollbackToSavepoint, [], collection: nil)
            _ = try? await session.rows(PostgresStoreSQL.releaseSavepoint, [], collection: nil)
            throw error
        }
        try await session.rows(PostgresStoreSQL.releaseSavepoint, [], collection: nil)
        return result
    }
}
