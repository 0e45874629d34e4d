import Foundation
import PostgresNIO

/// Reads a `postgres://` URL into postgres-nio's client configuration.
///
///     postgres://user:password@host:5432/database      -- TCP (TLS preferred, as libpq)
///     postgres://user@/database?host=/run/postgresql   -- Unix socket in that directory
///     postgres:///database?host=/run/postgresql        -- the user: $PGUSER, else this process's
///
/// A `host` query item that is a path names the socket directory, as libpq's
/// does; the socket is `.s.PGSQL.<port>` in it.
enum PostgresURL {
    static func configuration(_ text: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: text),
              components.scheme == "postgres" || components.scheme == "postgresql" else {
            throw PostgresStoreError.invalidURL(text, reason: "it must start with postgres:// (postgres://user@host:port/database)")
        }
        // No user at all (`postgres:///db?host=/run/postgresql`): as libpq,
        // $PGUSER, else the name this process runs as.
        let user = components.user ?? ProcessInfo.processInfo.environment["PGUSER"] ?? ProcessInfo.processInfo.userName
        guard !user.isEmpty else {
            throw PostgresStoreError.invalidURL(text, reason: "it names no user (postgres://user@host/database)")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let port = components.port ?? 5432
        let socketDirectory = components.queryItems?.first { $0.name == "host" }?.value
        if let directory = socketDirectory, directory.hasPrefix("/") {
            return PostgresClient.Configuration(unixSocketPath: directory + "/.s.PGSQL.\(port)", username: user,
                                                password: components.password, database: database.isEmpty ? nil : database)
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresStoreError.invalidURL(text, reason: "it names no host (postgres://user@host/database, or ?host=/socket/directory)")
        }
        return PostgresClient.Configuration(host: host, port: port, username: user, password: components.password,
                                            database: database.isEmpty ? nil : database, tls: .prefer(.makeClientConfiguration()))
    }
}
