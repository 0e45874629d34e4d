import DocStorePostgres
import Foundation

/// Several connections to one test database at once, as several processes
/// or app instances would hold.
enum PostgresConnections {
    /// Runs `body` on `count` connections at once, each a store of its own
    /// (given with its number), closed after it, also when it throws.
    static func run(_ url: String, count: Int, _ body: @escaping @Sendable (PostgresDocumentStore, Int) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0..<count {
                group.addTask {
                    let store = try await PostgresDocumentStore(url: url)
                    do {
                        try await body(store, number)
                    } catch {
                        await store.close()
                        throw error
                    }
                    await store.close()
                }
            }
            try await group.waitForAll()
        }
    }

    /// A fresh database holding collection `name` (integer keys), its rows
    /// written by `sql` through psql (thousands at once, faster than inserts):
    /// the collection is made by a first document, which `sql` may delete.
    static func freshDatabase(collection name: String, rows sql: String) async throws -> String {
        guard let server = PostgresTestServer.current else { throw PostgresTestServer.ServerError(message: "no server") }
        let url = try await PostgresTestServer.freshDatabaseURL(server)
        let setup = try await PostgresDocumentStore(url: url)
        do {
            try await setup.collection(named: name).insert(["id": 0])
        } catch {
            await setup.close()
            throw error
        }
        await setup.close()
        try PostgresTestServer.psql(sql, databaseURL: url)
        return url
    }

    /// The deadlocks PostgreSQL has broken in the database. A connection's
    /// count reaches the statistics when it ends: call once they have.
    static func deadlocks(_ url: String) async throws -> Int? {
        try await Task.sleep(for: .milliseconds(300))
        let output = try PostgresTestServer.psql("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()", databaseURL: url)
        return output.split(whereSeparator: \.isNewline).lazy.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.first
    }
}
