import Foundation
import PostgresNIO

/// The server the PostgreSQL benchmark runs on, given by URL (the script
/// `Benchmarks/scripts/postgres-bench.sh` starts a private one): each way of
/// each round gets a database of its own, created empty and dropped afterwards.
enum PostgresBenchServer {
    /// postgres-nio's configuration for `postgres://user@/database?host=/socket/dir`
    /// or `postgres://user[:password]@host[:port]/database` (no TLS: the
    /// benchmark's server is local), with the pool's default sizes, as DocStore's.
    static func configuration(_ url: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url), let user = components.user else {
            throw BenchmarkError("not a postgres://user@host/database URL: \(url)")
        }
        let database = String(components.path.drop { $0 == "/" })
        let port = components.port ?? 5432
        if let directory = components.queryItems?.first(where: { $0.name == "host" })?.value, directory.hasPrefix("/") {
            return PostgresClient.Configuration(unixSocketPath: directory + "/.s.PGSQL.\(port)", username: user,
                                                password: components.password, database: database.isEmpty ? nil : database)
        }
        return PostgresClient.Configuration(host: components.host ?? "localhost", port: port, username: user,
                                            password: components.password, database: database.isEmpty ? nil : database, tls: .disable)
    }

    /// `url` with its database replaced by `database`.
    static func url(_ url: String, database: String) throws -> String {
        guard var components = URLComponents(string: url) else { throw BenchmarkError("not a URL: \(url)") }
        components.path = "/" + database
        guard let text = components.string else { throw BenchmarkError("not a URL: \(url)") }
        return text
    }

    /// Runs `body` with the URL of a new empty database named `name` on the
    /// server of `url`, and drops the database afterwards (also when `body` throws).
    static func withFreshDatabase<T: Sendable>(_ url: String, named name: String,
                                               _ body: (String) async throws -> T) async throws -> T {
        try await admin(url, "DROP DATABASE IF EXISTS \"\(name)\"")
        try await admin(url, "CREATE DATABASE \"\(name)\"")
        let result: T
        do {
            result = try await body(try Self.url(url, database: name))
        } catch {
            try? await admin(url, "DROP DATABASE IF EXISTS \"\(name)\"")
            throw error
        }
        try await admin(url, "DROP DATABASE IF EXISTS \"\(name)\"")
        return result
    }

    /// Runs one statement (a name the benchmark chose, no user input) on the database of `url`.
    static func admin(_ url: String, _ sql: String) async throws {
        let client = PostgresClient(configuration: try configuration(url), backgroundLogger: PostgresNIOWay.logger)
        let runner = Task { await client.run() }
        defer { runner.cancel() }
        try await client.query(PostgresQuery(unsafeSQL: sql), logger: PostgresNIOWay.logger)
        runner.cancel()
        await runner.value
    }
}
