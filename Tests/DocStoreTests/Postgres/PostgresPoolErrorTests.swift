@testable import DocStorePostgres
import Testing

/// Stands for postgres-nio's pool error (its type is in an underscored module
/// of the package), which DocStore knows by its name.
private struct ConnectionPoolError: Error {}

@Suite("PostgreSQL: the pool giving up on connecting, in words")
struct PostgresPoolErrorTests {
    /// After the server stopped, a command waited a minute, then printed
    /// `ConnectionPoolError(base: …connectionCreationCircuitBreakerTripped)`
    /// (helper-56).
    @Test func thePoolGivingUpSaysThatNoConnectionCouldBeMade() {
        let mapped = PostgresStoreError.from(ConnectionPoolError(), collection: "teams")
        let text = (mapped as? PostgresStoreError)?.errorDescription ?? "\(mapped)"
        #expect(text.contains("no connection to the server could be made") && text.contains("[SQLSTATE 08001]") && text.contains("collection \"teams\""), "\(text)")
        struct Other: Error {}
        #expect(PostgresStoreError.from(Other(), collection: nil) is Other)
    }
}
