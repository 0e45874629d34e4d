import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// `docstore postgres://…` at a real terminal, and what PostgreSQL can't
    /// run yet saying so.
    @Suite("REPL on PostgreSQL: the terminal and its commands")
    struct TerminalAndCommandTests {
        @Test(.timeLimit(.minutes(3)))
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
            try screen.waitFor("the import") { $0.contains("imported 2955 documents into teams") }
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
            try screen.type(#"teams.group(by: \.lgID) { (n: $0.count()) }"#)
            try screen.send("Enter")
            try screen.waitFor("the refusal") { $0.contains("groups, joins and computed values are not supported on PostgreSQL yet") }
            try screen.waitForPrompt("docstore postgres>")
            try screen.type(".quit")
            try screen.send("Enter")
            screen.waitForExit()
        }

        /// Commands PostgreSQL can't run yet fail with an error saying so, and
        /// leave the session (and the data) as they were.
        @Test func whatPostgreSQLCannotRunYetSaysSo() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let refused: [(command: String, says: String)] = [
                (#"players.group(by: \.team) { (n: $0.count()) }"#, "groups, joins and computed values are not supported on PostgreSQL yet"),
                (#"players.filter { $0.id == 1 }.update { $0.team.set(to: "C") }"#, "update by query is not supported on PostgreSQL yet"),
                (#"players.filter { $0.id == 1 }.explain()"#, "explain() is not supported on PostgreSQL yet"),
                (#"players.createIndex(\.team)"#, "indexes are not supported on PostgreSQL yet"),
                (#"players.query.sum(\.id)"#, "not available on PostgreSQL yet"),
                (".repair players", ".repair has nothing to do on PostgreSQL"),
                (".watch players.count()", ".watch is not available on PostgreSQL yet"),
            ]
            let setUp = try runProcess(try docstoreBinary(), [url], input: #"players.insert([{"id": 1, "team": "A"}, {"id": 2, "team": "B"}])"# + "\n")
            #expect(setUp.status == 0, "\(setUp.stderr)")
            for (command, says) in refused {
                let result = try runProcess(try docstoreBinary(), [url, "-c", command])
                #expect(result.status == 1, "\(command)")
                #expect(result.stderr.contains(says), "\(command): \(result.stderr)")
            }
            let after = try runProcess(try docstoreBinary(), [url, "--mode", "ndjson", "-c", "players.count()", "-c", "players.indexes()", "-c", ".check"])
            #expect(after.status == 0, "\(after.stderr)")
            #expect(after.stdout.hasPrefix("2\n"), "\(after.stdout)")
            #expect(after.stdout.contains("players: 2 documents, readable"), "\(after.stdout)")
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
