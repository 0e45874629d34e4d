import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// `docstore postgres://…` at a real terminal, and what PostgreSQL can't
    /// run yet saying so.
    @Suite("REPL on PostgreSQL: the terminal and its commands")
    struct TerminalAndCommandTests {
        @Test(.timeLimit(.minutes(10)))
        func theShellAtATerminalNamesPostgreSQLAndAnswersQueries() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let history = directory.appendingPathComponent("history").path
            let command = "env DOCSTORE_HISTORY=\(history) TERM=xterm-256color LANG=C.UTF-8 \(try docstoreBinary().path) '\(url)'"
            let screen = try TmuxScreen(command: command)
            try screen.waitFor("the banner and the prompt") { $0.contains("PostgreSQL database postgres://docstore@/r_") && $0.contains("docstore postgres>") }
            try screen.waitForPrompt("docstore postgres>")

            try screen.type(".import teams \(LahmanQuestionsTests.dataDirectory)/Teams.csv")
            try screen.send("Enter")
            try screen.waitFor("the import") { $0.contains("imported 2 955 documents into teams") }
            try screen.waitForPrompt("docstore postgres>")

            // A block over several lines, with the continuation prompt.
            try screen.type(#"teams.filter { $0.yearID == 2020"#)
            try screen.send("Enter")
            try screen.waitFor("the continuation prompt") { _ in (try? screen.promptLine())?.hasSuffix("...>") == true }
            try screen.type(#"$0.lgID == "AL" }.count()"#)
            try screen.send("Enter")
            try screen.waitFor("the count") { $0.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "15" } }
            try screen.waitForPrompt("docstore postgres>")

            // Completion knows the collection and its fields.
            try screen.type("tea")
            try screen.send("Tab")
            try screen.waitFor("the completed name") { $0.contains("docstore postgres> teams") }
            try screen.send("C-u")
            try screen.type(#"teams.filter { $0.yearID == 2020 }.group(by: \.lgID) { (n: $0.count()) }"#)
            try screen.send("Enter")
            try screen.waitFor("the group's rows") { screen in
                let lines = screen.split(separator: "\n")
                return lines.contains { $0.contains("AL") && $0.contains("15") } && lines.contains { $0.contains("NL") && $0.contains("15") }
            }
            try screen.waitForPrompt("docstore postgres>")
            try screen.type(".quit")
            try screen.send("Enter")
            screen.waitForExit()
        }

        /// ctrl-C on a long query stops it on the server too, and the prompt
        /// comes back: the server ran it on (for minutes, after the client had
        /// gone) and the prompt waited for it.
        @Test(.timeLimit(.minutes(10)))
        func ctrlCStopsAQueryOnTheServer() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            // 20 000 documents of one team: joined to each other, 400 million pairs.
            let file = directory.appendingPathComponent("p.ndjson").path
            try (1...20_000).map { #"{"id": \#($0), "team": 1, "n": \#($0 % 100)}"# }.joined(separator: "\n")
                .write(toFile: file, atomically: true, encoding: .utf8)
            try runProcess(try docstoreBinary(), [url, "-c", ".import p \(file)"]).expectSuccess()
            let screen = try TmuxScreen(command: "env DOCSTORE_HISTORY= TERM=xterm-256color LANG=C.UTF-8 \(try docstoreBinary().path) '\(url)'")
            try screen.waitForPrompt("docstore postgres>")
            try screen.type(#"p.joinAll(p, on: \.team, as: \.mates).filter { $0.mates.any { $0.n > 500 } }.count()"#)
            try screen.send("Enter")
            // The join, running for a second already (not a short read before it).
            func running() throws -> String {
                try PostgresREPLServer.psql("""
                    SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
                      AND state = 'active' AND now() - query_start > interval '1 second'
                    """, databaseURL: url).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let deadline = Date().addingTimeInterval(30)
            while try running() != "1", Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            #expect(try running() == "1", "the query runs on the server")
            try screen.send("C-c")
            try screen.waitFor("interrupted", timeout: 20) { $0.contains("^Cinterrupted") }
            try screen.waitForPrompt("docstore postgres>")
            let stopped = Date().addingTimeInterval(10)
            while try running() != "0", Date() < stopped { Thread.sleep(forTimeInterval: 0.1) }
            #expect(try running() == "0", "the server stopped it")
            try screen.type("p.count()")
            try screen.send("Enter")
            try screen.waitFor("the session goes on") { $0.contains("\n20000\n") }
        }

        /// `--busy-timeout` bounds the wait for another session's lock, as on a
        /// file (it was ignored: the REPL waited as long as the lock was held).
        @Test(.timeLimit(.minutes(10)))
        func busyTimeoutBoundsTheWaitForALock() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            try runProcess(try docstoreBinary(), [url, "-c", #"u.insert({"id": 1})"#]).expectSuccess()
            // Another session holds the table for 60 s (ended by the test).
            let (psql, arguments) = try PostgresREPLServer.psqlCommand(
                #"BEGIN; LOCK TABLE "u" IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60); COMMIT;"#, databaseURL: url)
            let holder = Process()
            holder.executableURL = psql
            holder.arguments = arguments
            holder.standardOutput = FileHandle.nullDevice
            try holder.run()
            defer { endProcesses([holder.processIdentifier], within: 0) }
            let deadline = Date().addingTimeInterval(20)
            func locked() throws -> Bool {
                try PostgresREPLServer.psql("SELECT count(*) FROM pg_locks WHERE relation = 'u'::regclass AND mode = 'AccessExclusiveLock' AND granted",
                                            databaseURL: url).hasPrefix("1")
            }
            while try !locked(), Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
            let started = Date()
            let run = try runProcess(try docstoreBinary(), [url, "--busy-timeout", "1", "-c", "u.count()"])
            #expect(run.status == 1)
            // What held it, and what to do (it showed the server's "canceling
            // statement due to lock timeout" alone; helper-53).
            #expect(run.stderr.contains("another session held the collection") && run.stderr.contains("past the lock timeout")
                    && run.stderr.contains("--busy-timeout") && run.stderr.contains("55P03"), "\(run.stderr)")
            #expect(Date().timeIntervalSince(started) < 30, "it did not wait for the holder's 60 s")
        }

        /// Groups, update by query, explain and indexes run on PostgreSQL as on a
        /// file; the index is on the expressions the query compares, and used.
        @Test func groupsUpdatesExplainAndIndexesRun() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let setUp = try runProcess(try docstoreBinary(), [url, "-c", #"players.insert([{"id": 1, "team": "A", "n": 2}, {"id": 2, "team": "B", "n": 5}, {"id": 3, "team": "A", "n": 7}])"#])
            #expect(setUp.status == 0, "\(setUp.stderr)")
            let result = try runProcess(try docstoreBinary(), [
                url, "--mode", "ndjson",
                "-c", #"players.group(by: \.team) { (n: $0.count(), total: $0.sum(\.n)) }.sorted { $0.total.descending }"#,
                "-c", #"players.filter { $0.team == "B" }.update { $0.n.increment(by: 10) }"#,
                "-c", #"players.query.sum(\.n)"#,
                "-c", #"players.createIndex(\.team)"#,
                "-c", "players.indexes()",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            // stdout carries the results only (messages go to stderr): the two
            // groups, the sum, the index listing.
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 4, "\(result.stdout)")
            guard lines.count == 4 else { return }
            let groups = try lines[0...1].map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(groups.map { $0?["team"] as? String } == ["A", "B"])
            #expect(groups.map { $0?["total"] as? Int } == [9, 5])
            #expect(lines[2] == "24", "the update added 10 to B's n: 2 + 15 + 7")
            #expect(lines[3].contains(#""fields":"team""#), "\(lines[3])")
            #expect(result.stderr.contains("updated 1 document"), "\(result.stderr)")
            let explained = try runProcess(try docstoreBinary(), [url, "-c", #"players.filter { $0.team == "A" }.explain()"#])
            #expect(explained.status == 0, "\(explained.stderr)")
            #expect(explained.stdout.contains("sql: SELECT"), "\(explained.stdout)")
        }

        /// `.check` and `.repair` run on PostgreSQL as on a file: a sound store
        /// is reported so, and there is nothing to repair (PostgresCheckTests
        /// covers what they find).
        @Test func checkAndRepairRunOnPostgreSQL() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let setUp = try runProcess(try docstoreBinary(), [url], input: #"players.insert([{"id": 1, "team": "A"}, {"id": 2, "team": "B"}])"# + "\n")
            #expect(setUp.status == 0, "\(setUp.stderr)")
            let repaired = try runProcess(try docstoreBinary(), [url, "-c", ".repair players"])
            #expect(repaired.status == 0 && repaired.stderr.contains("nothing to repair in \"players\""), "\(repaired.stderr)")
            let after = try runProcess(try docstoreBinary(), [url, "--mode", "ndjson", "-c", "players.count()", "-c", "players.indexes()", "-c", ".check"])
            #expect(after.status == 0, "\(after.stderr)")
            #expect(after.stdout.hasPrefix("2\n"), "\(after.stdout)")
            #expect((after.stdout + after.stderr).contains("no damaged documents in players (2 documents checked)"), "\(after.stdout)\(after.stderr)")
        }

        /// Issue 14's search lines, exactly as written, on PostgreSQL: the same
        /// counts as on a file store.
        @Test func searchLinesWorkExactlyAsWritten() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let notes = #"notes.insert([{"id": 1, "text": "Hit a home run to right"}, {"id": 2, "text": "HOME RUN! Café"}, "#
                + #"{"id": 3, "text": "ran home; a runner"}, {"id": 4, "text": 12}])"#
            let result = try runProcess(try docstoreBinary(), [
                url, "--mode", "ndjson",
                "-c", notes,
                "-c", #"notes.createSearchIndex(\.text)"#,
                "-c", #"notes.filter { $0.text.matches("home run") }.count()"#,
                "-c", #"notes.filter { $0.text.matches("cafe") }.keys()"#,
                "-c", #"notes.filter { $0.text.matches("run*") }.count()"#,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "2", "\(result.stdout)")
            #expect(lines.contains("2") && lines.last == "3", "\(result.stdout)")
            let listed = try runProcess(try docstoreBinary(), [url, "--mode", "ndjson", "-c", "notes.indexes()"])
            #expect(listed.stdout.contains(#""kind":"search""#) && listed.stdout.contains(#""fields":"text""#), "\(listed.stdout)\(listed.stderr)")
        }

        /// `--read-only` refuses writes on PostgreSQL too; a bad URL says what is wrong.
        @Test func readOnlyAndBadURLs() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let refused = try runProcess(try docstoreBinary(), [url, "--read-only", "-c", #"players.insert({"id": 1})"#])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("read-only"), "\(refused.stderr)")
            let noUser = try runProcess(try docstoreBinary(), ["postgres://@localhost/nothing", "-c", "players.count()"])
            #expect(noUser.status == 1)
            #expect(noUser.stderr.contains("names no user"), "\(noUser.stderr)")
            // The Unix-socket form without a user takes $PGUSER, as libpq does.
            let socketForm = url.replacingOccurrences(of: "postgres://docstore@/", with: "postgres:///")
            let bySocket = try runProcess(try docstoreBinary(), [socketForm, "-c", ".collections"], environment: ["PGUSER": "docstore"])
            #expect(bySocket.status == 0, "\(bySocket.stderr)")
            #expect(bySocket.stdout.hasPrefix("no collections yet"), "\(bySocket.stdout)")
            let postgresql = try runProcess(try docstoreBinary(), [url.replacingOccurrences(of: "postgres://", with: "postgresql://"), "-c", ".collections"])
            #expect(postgresql.stdout.hasPrefix("no collections yet"), "\(postgresql.stderr)")
        }
    }
}
