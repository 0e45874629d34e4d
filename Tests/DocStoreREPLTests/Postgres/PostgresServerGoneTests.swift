import Foundation
import Testing

extension PostgresREPLTests {
    /// A command typed after the server stopped gave no prompt for about 70 s
    /// (postgres-nio's pool tries to connect again and again for a minute),
    /// then an error about a pool (helper-56). A real server of its own,
    /// stopped under a real session.
    @Suite("Fault: the server stops under a session", .serialized)
    struct ServerGoneTests {
        /// A session on a private server of the test's, which has inserted and
        /// counted one document.
        static func sessionThatCounted(on server: PostgresREPLServer) throws -> PipedSession {
            let session = try PipedSession(["postgres://docstore@/postgres?host=\(server.directory)"])
            try session.send(#"c.insert({"id": 1})"# + "\nc.count()\n")
            var output = ""
            let deadline = Date().addingTimeInterval(30)
            while !output.split(separator: "\n").contains("1"), Date() < deadline { output += session.availableOutput() }
            try #require(output.split(separator: "\n").contains("1"), "the session never counted: \(output)")
            return session
        }

        @Test(.timeLimit(.minutes(3))) func aCommandAfterTheServerStoppedFailsInSecondsSayingWhy() throws {
            let server = try PostgresREPLServer.start()
            defer { server.stop() }
            let session = try Self.sessionThatCounted(on: server)

            server.stop()
            let sent = Date()
            try session.send("c.count()\n")
            let ended = session.ended(within: 20)
            let seconds = Date().timeIntervalSince(sent)
            let result = try #require(ended, "the command still waited 20 s after the server stopped")
            #expect(result.status == 1)
            #expect(seconds < 15, "\(seconds) s")
            #expect(result.stderr.contains("Can't connect to PostgreSQL at the socket \(server.directory)/.s.PGSQL.5432: No such file or directory"),
                    "\(result.stderr)")
        }

        /// A server that accepts connections and never answers (its processes
        /// stopped, as a network partition would leave it): the command hung
        /// until the server came back, ctrl-C too, since a statement waiting
        /// for an answer doesn't heed cancellation (helper-57).
        @Test(.timeLimit(.minutes(3))) func aCommandToAServerThatDoesNotAnswerFailsInSeconds() throws {
            let server = try PostgresREPLServer.start()
            defer { server.stop() }
            let session = try Self.sessionThatCounted(on: server)

            let pid = try String(contentsOfFile: server.directory + "/data/postmaster.pid", encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
            let processes = "\(pid) $(ps -o pid= --ppid \(pid))"
            _ = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "kill -STOP \(processes)"])
            defer { _ = try? runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "kill -CONT \(processes)"]) }
            let sent = Date()
            try session.send("c.count()\n")
            let ended = session.ended(within: 30)
            let seconds = Date().timeIntervalSince(sent)
            let result = try #require(ended, "the command still waited 30 s for a server that doesn't answer")
            #expect(result.status == 1)
            #expect(seconds < 20, "\(seconds) s")
            // postgres-nio's connect timeout or DocStore's own for the whole
            // handshake, whichever the stopped server runs into.
            #expect(result.stderr.contains("Can't connect to PostgreSQL at the socket \(server.directory)/.s.PGSQL.5432: ")
                    && (result.stderr.contains("did not answer within") || result.stderr.contains("Connect timeout")), "\(result.stderr)")
        }
    }
}
