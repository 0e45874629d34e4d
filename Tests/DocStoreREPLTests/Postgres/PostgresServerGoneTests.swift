import Foundation
import Testing

extension PostgresREPLTests {
    /// A command typed after the server stopped gave no prompt for about 70 s
    /// (postgres-nio's pool tries to connect again and again for a minute),
    /// then an error about a pool (helper-56). A real server of its own,
    /// stopped under a real session.
    @Suite("Fault: the server stops under a session", .serialized)
    struct ServerGoneTests {
        /// Stops the server's processes (SIGSTOP), as a network partition
        /// leaves a server: it accepts connections and never answers. Returns
        /// what resumes them.
        static func stopProcesses(of server: PostgresREPLServer) throws -> () -> Void {
            let pid = try String(contentsOfFile: server.directory + "/data/postmaster.pid", encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
            let processes = "\(pid) $(ps -o pid= --ppid \(pid))"
            _ = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "kill -STOP \(processes)"])
            return { _ = try? runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "kill -CONT \(processes)"]) }
        }

        /// Sends a count to `session` and waits up to `seconds` for it to end:
        /// its output (nil when it still ran) and how long it took.
        static func countEnding(_ session: PipedSession, within seconds: Double) throws -> (ProcessOutput?, Double) {
            let sent = Date()
            try session.send("c.count()\n")
            let ended = session.ended(within: seconds)
            return (ended, Date().timeIntervalSince(sent))
        }

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
            let (ended, seconds) = try Self.countEnding(session, within: 20)
            let result = try #require(ended, "the command still waited 20 s after the server stopped")
            #expect(result.status == 1)
            #expect(seconds < 15, "\(seconds) s")
            #expect(result.stderr.contains("Can't connect to PostgreSQL at the socket \(server.directory)/.s.PGSQL.5432: No such file or directory"),
                    "\(result.stderr)")
        }

        /// A watch whose server stopped was silent: its last result stayed on
        /// screen as if it were live. It now says the server doesn't answer
        /// and why, and watches on (the store listens again when it is back).
        @Test(.timeLimit(.minutes(3))) func aWatchSaysWhenItsServerStopsAnswering() throws {
            let server = try PostgresREPLServer.start()
            defer { server.stop() }
            _ = try Self.sessionThatCounted(on: server).finish()
            let watch = try PipedSession(["postgres://docstore@/postgres?host=\(server.directory)", "-c", ".watch c.count()"])
            var output = ""
            let deadline = Date().addingTimeInterval(30)
            while !output.split(separator: "\n").contains("1"), Date() < deadline { output += watch.availableOutput() }
            try #require(output.split(separator: "\n").contains("1"), "the watch never printed its first result: \(output)")

            server.stop()
            // The check runs every 5 s while a watch waits.
            Thread.sleep(forTimeInterval: 15)
            watch.killNow()
            let errors = watch.errorsAfterExit()
            #expect(errors.contains("the server doesn't answer (Can't connect to PostgreSQL at the socket \(server.directory)/.s.PGSQL.5432"), "\(errors)")
            #expect(errors.contains("the result above may be out of date; still watching"), "\(errors)")
        }

        /// A result streaming when the server's processes stop: the stream,
        /// or the roll back of the snapshot it read in, waited forever, ctrl-C
        /// included (helper-58). Its rows are read slowly, so the server is
        /// stopped with rows still to send or the snapshot still to end.
        @Test(.timeLimit(.minutes(5))) func aStreamWhoseServerStopsAnsweringEnds() throws {
            let server = try PostgresREPLServer.start()
            defer { server.stop() }
            let url = "postgres://docstore@/postgres?host=\(server.directory)"
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("c.ndjson")
            let padding = String(repeating: "x", count: 200)
            try (1...20_000).map { #"{"id": \#($0), "text": "\#(padding)"}"# }.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
            let made = try runProcess(try docstoreBinary(), [url, "-c", ".import c \(file.path)"])
            try #require(made.status == 0, "\(made.stderr)")

            let process = Process()
            process.executableURL = try docstoreBinary()
            process.arguments = [url, "--mode", "ndjson", "-c", "c.filter { $0.id > 0 }"]
            let output = Pipe()
            process.standardOutput = output
            let errorsFile = directory.appendingPathComponent("stderr.txt")
            try Data().write(to: errorsFile)
            process.standardError = try FileHandle(forWritingTo: errorsFile)
            try process.run()
            defer {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
            _ = output.fileHandleForReading.availableData  // the first rows: the stream runs
            let resume = try Self.stopProcesses(of: server)
            defer { resume() }
            let stopped = Date()
            // The rest is read slowly, on a thread of its own (a read waits
            // for rows that may never come), until the process ends.
            let reader = output.fileHandleForReading
            Thread.detachNewThread {
                while !reader.availableData.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
            }
            while process.isRunning, Date().timeIntervalSince(stopped) < 40 { Thread.sleep(forTimeInterval: 0.1) }
            let errors = (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? ""
            #expect(!process.isRunning, "the stream still waits 40 s after its server stopped answering: \(errors)")
        }

        /// A server that accepts connections and never answers (its processes
        /// stopped, as a network partition would leave it): the command hung
        /// until the server came back, ctrl-C too, since a statement waiting
        /// for an answer doesn't heed cancellation (helper-57).
        @Test(.timeLimit(.minutes(3))) func aCommandToAServerThatDoesNotAnswerFailsInSeconds() throws {
            let server = try PostgresREPLServer.start()
            defer { server.stop() }
            let session = try Self.sessionThatCounted(on: server)

            let resume = try Self.stopProcesses(of: server)
            defer { resume() }
            let (ended, seconds) = try Self.countEnding(session, within: 30)
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
