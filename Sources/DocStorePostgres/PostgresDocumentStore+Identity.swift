@_spi(Backends) import DocStore

extension PostgresDocumentStore {
    /// What tells this database from every other: its server (the time it
    /// started, its port) and its oid there. Two URLs spelled differently
    /// (`localhost`, `127.0.0.1`, a Unix socket) name the same database exactly
    /// when their identities are equal: `docstore copy` refuses a copy onto its
    /// own source.
    @_spi(Backends)
    public func databaseIdentity() async throws -> String {
        let rows = try await PostgresSession.pool(client).rows(
            "SELECT d.oid::text || '@' || pg_postmaster_start_time()::text || ':' || coalesce(inet_server_port()::text, 'socket') "
                + "FROM pg_database d WHERE d.datname = current_database()", [], collection: nil)
        return "postgres:" + (try rows.first?.decode(String.self) ?? "")
    }
}
