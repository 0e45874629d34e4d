import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    @Suite(".watch on PostgreSQL")
    struct WatchTests {
        func headers(_ text: String) -> Int { text.components(separatedBy: "── ").count - 1 }

        /// At a real terminal: the count at once, then again after another
        /// docstore process's commit and after `psql`'s; a commit that leaves the
        /// count as it was, or is rolled back, prints nothing; ctrl-C stops.
        @Test(.timeLimit(.minutes(10)))
        func ctrlCStopsAWatchThatHearsOtherProcessesCommits() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let server = try #require(PostgresREPLServer.current)
            let database = try #require(URLComponents(string: url)?.path.dropFirst()).description
            let psql = { (sql: String) in try PostgresREPLServer.run(["psql", server.directory, database, sql]) }
            let binary = try docstoreBinary()
            let setUp = try runProcess(binary, [url, "-c", #"players.insert([{"id": 1, "teamId": 1}, {"id": 2, "teamId": 1}, {"id": 3, "teamId": 2}])"#])
            #expect(setUp.status == 0, "\(setUp.stderr)")

            let screen = try TmuxScreen(command: "env DOCSTORE_HISTORY= NO_COLOR=1 TERM=xterm-256color LANG=C.UTF-8 \(binary.path) '\(url)'")
            try screen.waitForPrompt("docstore postgres>")
            try screen.type(".watch players.count { $0.teamId == 1 }")
            try screen.send("Enter")
            try screen.waitFor("the first result") { $0.contains("ctrl-C stops") && self.headers($0) == 1 && $0.contains("\n2\n") }

            let other = try runProcess(binary, [url, "-c", #"players.insert({"id": 4, "teamId": 1})"#])
            #expect(other.status == 0, "\(other.stderr)")
            try screen.waitFor("the re-print after another docstore's commit") { self.headers($0) == 2 && $0.contains("\n3\n") }
            _ = try psql(#"UPDATE players SET body = jsonb_set(body, '{teamId}', '1') WHERE key = 3"#)
            try screen.waitFor("the re-print after psql's update") { self.headers($0) == 3 && $0.contains("\n4\n") }
            _ = try psql(#"INSERT INTO players VALUES (5, '{"id": 5, "teamId": 2}')"#)
            _ = try psql(#"BEGIN; DELETE FROM players; ROLLBACK;"#)
            Thread.sleep(forTimeInterval: 1)
            #expect(headers(try screen.screen()) == 3, "an unchanged count and a rollback print nothing")

            try screen.send("C-c")
            try screen.waitFor("the watch stopped") { $0.contains("stopped watching") }
            try screen.waitFor("a fresh prompt") { _ in (try? screen.promptLine()) == "docstore postgres>" }
            try screen.type("players.count()")
            try screen.send("Enter")
            try screen.waitFor("the next command's result") { $0.contains("docstore postgres> players.count()\n5\n") }
            try screen.type(".quit")
            try screen.send("Enter")
            screen.waitForExit()
        }

        /// Another process drops the watched collection: the watch said 0 and
        /// went on watching; it now stops with an error (helper-55).
        @Test(.timeLimit(.minutes(10)))
        func aWatchStopsWhenAnotherProcessDropsTheCollection() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let binary = try docstoreBinary()
            let setUp = try runProcess(binary, [url, "-c", #"players.insert([{"id": 1}, {"id": 2}])"#])
            #expect(setUp.status == 0, "\(setUp.stderr)")
            try expectAWatchStopsWhenAnotherProcessDrops("players", in: url, watching: "players.count()", firstResult: "2\n")
        }

        /// The collection a watched query's subquery reads is dropped: the
        /// watch stopped with PostgreSQL's `relation "teams" does not exist
        /// [SQLSTATE 42P01]` (helper-55).
        @Test(.timeLimit(.minutes(10)))
        func aWatchStopsWhenAnotherProcessDropsACollectionItsSubqueryReads() throws {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let binary = try docstoreBinary()
            let setUp = try runProcess(binary, [url, "-c", #"players.insert([{"id": 1, "teamId": 1}, {"id": 2, "teamId": 2}])"#,
                                                "-c", #"teams.insert([{"id": 1, "city": "Boston"}])"#])
            #expect(setUp.status == 0, "\(setUp.stderr)")
            try expectAWatchStopsWhenAnotherProcessDrops("teams", in: url, watching: #"players.filter { $0.teamId.in(teams.filter { $0.city == "Boston" }) }.count()"#,
                                                         firstResult: "1\n")
        }
    }
}
