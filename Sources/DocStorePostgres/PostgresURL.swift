import Foundation
import PostgresNIO
import Synchronization

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
        // Only `host` is read: another parameter (sslmode=require, a typo) would
        // be silently ignored, as libpq would not.
        if let unknown = components.queryItems?.first(where: { $0.name != "host" }) {
            throw PostgresStoreError.invalidURL(text, reason: "DocStore reads only the query parameter host (a socket directory), not \(unknown.name)")
        }
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

extension PostgresURL {
    /// Connects once, directly, and closes the connection: the pool behind a
    /// store retries a refused connection for about a minute and then fails
    /// with an error that doesn't say why (a circuit breaker), where one
    /// connection has the server's reason at once: no such database, a role
    /// that may not log in, a wrong password, nothing listening.
    ///
    /// - Returns: Whether the server checks, while a statement runs, that its
    ///   client is still there (`client_connection_check_interval`, PostgreSQL
    ///   14 and later on Linux, macOS and the BSDs; an older server refuses the
    ///   setting, which would fail every connection).
    static func checkConnection(_ configuration: PostgresClient.Configuration) async throws -> Bool {
        let connection = try await connectOnce(configuration, timeout: .seconds(10))
        // A constant of ours, in the text: SET takes no bound parameter.
        let setting = PostgresQuery(unsafeSQL: "SET client_connection_check_interval = \(clientCheckInterval)")
        let checksClients = (try? await connection.query(setting, logger: PostgresSession.logger)) != nil
        try? await connection.close()
        return checksClients
    }

    /// One connection made directly, not through a pool: its failure is the
    /// server's reason, or the system's words for a server not there
    /// (``PostgresStoreError/unreachable(_:reason:)``), within `timeout`.
    static func connectOnce(_ configuration: PostgresClient.Configuration, timeout: Duration) async throws -> PostgresConnection {
        var direct: PostgresConnection.Configuration
        if let socket = configuration.unixSocketPath {
            direct = .init(unixSocketPath: socket, username: configuration.username,
                           password: configuration.password, database: configuration.database)
        } else {
            direct = .init(host: configuration.host ?? "localhost", port: configuration.port ?? 5432, username: configuration.username,
                           password: configuration.password, database: configuration.database,
                           tls: .prefer(try .init(configuration: .makeClientConfiguration())))
        }
        direct.options.connectTimeout = .init(timeout)
        do {
            return try await PostgresConnection.connect(configuration: direct, id: 0, logger: PostgresSession.logger)
        } catch let error as PSQLError where error.serverInfo == nil {
            throw PostgresStoreError.unreachable(place(configuration), reason: error.underlying.map(connectFailure) ?? "\(error.code)")
        } catch {
            throw PostgresStoreError.from(error, collection: nil)
        }
    }

    /// Where the server is, for messages: "the socket …" or "host:port".
    static func place(_ configuration: PostgresClient.Configuration) -> String {
        configuration.unixSocketPath.map { "the socket \($0)" }
            ?? "\(configuration.host ?? "localhost"):\(configuration.port ?? 5432)"
    }

    /// Runs `work`, or throws ``PostgresStoreError/unreachable(_:reason:)``
    /// once `limit` has passed without its end; `work` is then left to end
    /// on its own (a connection waiting for a server that never answers
    /// doesn't heed cancellation).
    static func withinTime(_ limit: Duration, place: String, _ work: @escaping @Sendable () async throws -> Void) async throws {
        let outcome = Mutex<CheckedContinuation<Void, any Error>?>(nil)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            outcome.withLock { $0 = continuation }
            let finish = { @Sendable (result: Result<Void, any Error>) in
                outcome.withLock { pending in
                    pending?.resume(with: result)
                    pending = nil
                }
            }
            let running = Task {
                do { try await work(); finish(.success(())) } catch { finish(.failure(error)) }
            }
            Task {
                try? await Task.sleep(for: limit)
                finish(.failure(PostgresStoreError.unreachable(place, reason: "it accepted the connection but did not answer within \(limit)")))
                running.cancel()
            }
        }
    }

    /// Why a connection could not be made, in the operating system's words
    /// ("Connection refused"): NIO's own text named its internals, as in
    /// `connect(descriptor:addr:size:): No such file or directory) (errno: 2)`
    /// and `SingleConnectionFailure(target: [IPv4]…)` (helper-56).
    static func connectFailure(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)) }
        if let failures = error as? NIOConnectionError {
            let reasons = failures.connectionErrors.map { connectFailure($0.error) }
            if let reason = Set(reasons).count == 1 ? reasons.first : nil { return reason }
            if !reasons.isEmpty { return reasons.joined(separator: "; ") }
            if let dns = failures.dnsAError ?? failures.dnsAAAAError { return "the host name can't be resolved (\(dns))" }
        }
        return "\(error)"
    }

    /// `lock_timeout`'s setting for `duration`: whole milliseconds, at least
    /// one (0 would mean waiting without end).
    static func lockTimeout(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))ms"
    }

    /// How often, in milliseconds, the server checks that the client of a
    /// running statement is still connected. A process killed mid-statement
    /// (SIGKILL, or SIGTERM during a long join) left its statement running on
    /// the server for minutes: the server noticed only when it had rows to send
    /// (helper-56).
    static let clientCheckInterval = 1_000
}
