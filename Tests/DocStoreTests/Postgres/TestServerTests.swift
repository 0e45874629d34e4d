import Foundation
import Testing

extension PostgresTests {
    @Suite("PostgreSQL: the private test server")
    struct TestServerTests {
        /// A server whose owner dies without stopping it (a crashed test
        /// process) is stopped by its watchdog, and its directory removed.
        @Test func aServerWhoseOwnerDiesIsStoppedAndRemoved() async throws {
            let owner = Process()
            owner.executableURL = URL(fileURLWithPath: "/bin/sleep")
            owner.arguments = ["20"]  // outlives the server's start, then ends as a crash would
            try owner.run()
            let directory = try PostgresTestServer.makeDirectory()
            defer {
                if owner.isRunning { owner.terminate() }
                _ = try? PostgresTestServer.run(PostgresTestServer.script, ["stop", directory])
            }
            let url = try PostgresTestServer.run(PostgresTestServer.script, ["start", directory, String(owner.processIdentifier)])
            #expect(url.hasPrefix("postgres://docstore@/postgres?host=\(directory)"))
            // Only a Unix socket, in the server's own directory; no TCP address.
            #expect(FileManager.default.fileExists(atPath: directory + "/.s.PGSQL.5432"))
            let settings = try String(contentsOfFile: directory + "/data/postmaster.opts", encoding: .utf8)
            #expect(settings.contains("listen_addresses="))
            var removed = false
            for _ in 0..<120 where !removed {
                try await Task.sleep(for: .milliseconds(500))
                removed = !FileManager.default.fileExists(atPath: directory)
            }
            #expect(removed, "the watchdog should stop the server and remove \(directory) once its owner is gone")
        }
    }
}
