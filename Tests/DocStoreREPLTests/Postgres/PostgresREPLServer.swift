import Foundation
import Testing

/// The private PostgreSQL server of the REPL's PostgreSQL tests: the same
/// script as DocStore's own PostgreSQL tests (Tests/DocStoreTests/Postgres/Server),
/// started when the ``PostgresREPLTests`` suite begins and stopped when it ends,
/// also when its tests fail; its watchdog stops it if the test process dies.
/// Each test gets a database of its own, as a `postgres://` URL over a Unix socket.
struct PostgresREPLServer: Sendable {
    @TaskLocal static var current: PostgresREPLServer?

    let directory: String
    static let script = packageRoot.appendingPathComponent("Tests/DocStoreTests/Postgres/Server/postgres-test-server.sh").path

    static func start() throws -> PostgresREPLServer {
        // Directly in /tmp: the unprivileged server user reaches it, and the
        // socket's path stays under 108 bytes.
        let path = "/tmp/docstore-replpg-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        try run(["start", path, String(ProcessInfo.processInfo.processIdentifier)])
        return PostgresREPLServer(directory: path)
    }

    func stop() {
        _ = try? Self.run(["stop", directory])
    }

    /// A new, empty database on the suite's server.
    static func freshDatabaseURL() throws -> String {
        let server = try #require(current, "PostgreSQL REPL tests run inside the PostgresREPLTests suite, whose trait starts a server")
        let name = "r_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try run(["createdb", server.directory, name])
        return "postgres://docstore@/\(name)?host=\(server.directory)"
    }

    /// Runs `sql` with psql in the database of a URL from ``freshDatabaseURL()``
    /// (to look at the server behind DocStore's back); returns what it printed.
    @discardableResult
    static func psql(_ sql: String, databaseURL: String) throws -> String {
        let (psql, arguments) = try psqlCommand(sql, databaseURL: databaseURL)
        let result = try runProcess(psql, arguments)
        guard result.status == 0 else { throw ServerError(description: "psql failed: \(result.stderr)") }
        return result.stdout
    }

    /// The psql executable and its arguments to run `sql` in the database.
    static func psqlCommand(_ sql: String, databaseURL: String) throws -> (URL, [String]) {
        let server = try #require(current)
        let name = try #require(URLComponents(string: databaseURL)?.path.dropFirst())
        return server.psqlCommand(sql, database: String(name))
    }

    /// The psql executable and its arguments to run `sql` in a database of this server.
    func psqlCommand(_ sql: String, database: String) -> (URL, [String]) {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let psql = versions.map { "/usr/lib/postgresql/\($0)/bin/psql" }.sorted().last { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/psql"
        return (URL(fileURLWithPath: psql), ["-X", "-At", "-h", directory, "-U", "docstore", "-d", database, "-c", sql])
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let result = try runProcess(URL(fileURLWithPath: script), arguments)
        guard result.status == 0 else {
            throw ServerError(description: "postgres-test-server.sh \(arguments.joined(separator: " ")) failed (\(result.status)):\n\(result.stderr)")
        }
        return result.stdout
    }

    struct ServerError: Error, CustomStringConvertible {
        var description: String
    }
}

/// Starts the REPL tests' PostgreSQL server for a suite and stops it at its end.
struct PostgresREPLServerTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        if PostgresREPLServer.current != nil { return try await function() }
        let server = try PostgresREPLServer.start()
        defer { server.stop() }
        try await PostgresREPLServer.$current.withValue(server) { try await function() }
    }
}

/// Every REPL test that needs PostgreSQL, nested here (in extensions) so that
/// one server serves them all. Without PostgreSQL's binaries the suite fails
/// with a message saying how to install them; it never skips.
@Suite("REPL on PostgreSQL", .serialized, PostgresREPLServerTrait())
struct PostgresREPLTests {}
