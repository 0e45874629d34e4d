import DocStorePostgres
import Foundation
import Testing

/// The private PostgreSQL server of a test run (`Server/postgres-test-server.sh`):
/// started by ``PostgresServerTrait`` when the ``PostgresTests`` suite begins and
/// stopped when it ends, also when its tests fail; a watchdog stops it if the
/// test process dies first. Each test gets a database of its own.
struct PostgresTestServer: Sendable {
    /// The running server, inside the suite's scope.
    @TaskLocal static var current: PostgresTestServer?

    /// The directory holding the data, the socket and the logs.
    let directory: String
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Server/postgres-test-server.sh").path

    /// Starts a server owned by this process.
    static func start() throws -> PostgresTestServer {
        let path = try makeDirectory()
        _ = try run(script, ["start", path, String(ProcessInfo.processInfo.processIdentifier)])
        return PostgresTestServer(directory: path)
    }

    /// A new directory for a server: directly in /tmp, which the unprivileged
    /// server user can reach (the socket's path must also stay under 108 bytes).
    static func makeDirectory() throws -> String {
        let path = "/tmp/docstore-pg-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    /// Stops the server and removes its directory.
    func stop() {
        _ = try? Self.run(Self.script, ["stop", directory])
    }

    /// A new, empty database on the server, as a store.
    static func freshStore() async throws -> PostgresDocumentStore {
        guard let server = current else {
            throw ServerError(message: "no PostgreSQL test server: PostgreSQL tests run inside the PostgresTests suite, whose trait starts one")
        }
        return try await PostgresDocumentStore(url: try await freshDatabaseURL(server))
    }

    /// The URL of a new, empty database on the server.
    static func freshDatabaseURL(_ server: PostgresTestServer) async throws -> String {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        _ = try run(script, ["createdb", server.directory, name])
        return "postgres://docstore@/\(name)?host=\(server.directory)"
    }

    /// Runs SQL with `psql` in the database of a store made by
    /// ``freshDatabaseURL(_:)`` (to load bulk test data behind DocStore's back).
    /// Runs `sql` with psql; returns what it printed.
    @discardableResult
    static func psql(_ sql: String, databaseURL: String) throws -> String {
        guard let server = current, let name = URLComponents(string: databaseURL)?.path.dropFirst() else {
            throw ServerError(message: "no PostgreSQL test server, or a URL without a database: \(databaseURL)")
        }
        return try run(script, ["psql", server.directory, String(name), sql])
    }

    struct ServerError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Runs a program to its end; its standard output, or an error with its
    /// standard error when it fails.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ServerError(message: "\(program) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)):\n"
                              + String(decoding: err, as: UTF8.self))
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Starts the test server for a suite and stops it when the suite ends.
struct PostgresServerTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        if PostgresTestServer.current != nil { return try await function() }
        let server = try PostgresTestServer.start()
        defer { server.stop() }
        try await PostgresTestServer.$current.withValue(server) {
            try await function()
        }
    }
}

extension Trait where Self == PostgresServerTrait {
    /// A private PostgreSQL server for the suite's tests.
    static var postgresServer: Self { PostgresServerTrait() }
}

/// Every test that needs PostgreSQL, nested here (in extensions) so that one
/// server serves them all. Without PostgreSQL's binaries the suite fails with
/// a message saying how to install them; it never skips.
@Suite("PostgreSQL", .postgresServer, .serialized)
struct PostgresTests {}
