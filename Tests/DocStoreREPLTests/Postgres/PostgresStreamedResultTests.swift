import Foundation
import Testing

extension PostgresREPLTests {
    /// A query's documents, a select's rows and a join's or group's rows came
    /// whole from the server before the first was printed: a million documents
    /// held gigabytes (Benchmarks/scripts/postgres-bench.sh repl-memory has the
    /// figures). They stream now, a few hundred at a time, through a bounded
    /// hand-off between the task reading them and the REPL's thread.
    @Suite("REPL on PostgreSQL: results stream", .serialized)
    struct StreamedResultTests {
        /// More rows than the hand-off holds (256), so the reading task waits
        /// for the printing thread again and again.
        static let count = 3_000

        /// The same store as a file and as a PostgreSQL database.
        static func stores(in directory: URL) throws -> (file: String, url: String) {
            let data = directory.appendingPathComponent("p.ndjson")
            let teams = directory.appendingPathComponent("t.ndjson")
            try (1...count).map { #"{"id": \#($0), "name": "player \#($0)", "team": \#($0 % 7), "n": \#(($0 * 37) % 101)}"# }
                .joined(separator: "\n").write(to: data, atomically: true, encoding: .utf8)
            try (0..<7).map { #"{"id": \#($0), "city": "city \#($0)"}"# }.joined(separator: "\n").write(to: teams, atomically: true, encoding: .utf8)
            let file = directory.appendingPathComponent("s.db").path
            let url = try PostgresREPLServer.freshDatabaseURL()
            for store in [file, url] {
                let made = try runProcess(try docstoreBinary(), [store, "-c", ".import p \(data.path)", "-c", ".import teams \(teams.path)"])
                try #require(made.status == 0, "\(made.stderr)")
            }
            return (file, url)
        }

        /// Each NDJSON line parsed: the stores agree on values, not on the
        /// order of an object's members (jsonb has its own).
        static func rows(_ output: String) -> [NSObject] {
            output.split(separator: "\n").map { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])) as? NSObject ?? NSString(string: "unparsable: \(line)")
            }
        }

        @Test(.timeLimit(.minutes(10)), arguments: [
            "p.filter { $0.n >= 0 }.sorted { $0.n }",
            "p.filter { $0.team != 3 }.select { ($0.name, $0.n) }",
            "p.join(teams, on: \\.team, equals: \\.id, as: \\.home).filter { $0.n < 90 }",
            "p.group(by: \\.n) { (players: $0.count(), first: $0.min(\\.id)) }",
        ])
        func everyRowArrivesInOrderAsOnAFile(query: String) throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let (file, url) = try Self.stores(in: directory)
            let onFile = try runProcess(try docstoreBinary(), [file, "--mode", "ndjson", "-c", query])
            let onServer = try runProcess(try docstoreBinary(), [url, "--mode", "ndjson", "-c", query])
            #expect(onFile.status == 0 && onServer.status == 0, "\(onFile.stderr) \(onServer.stderr)")
            let expected = Self.rows(onFile.stdout), got = Self.rows(onServer.stdout)
            #expect(expected.count > 100, "\(expected.count) rows")
            #expect(got.count == expected.count)
            let firstDifference = expected.indices.first { $0 < got.count && !expected[$0].isEqual(got[$0]) }
            #expect(firstDifference == nil, "row \(firstDifference ?? -1) differs")
        }

        /// A reader that goes away (`| head -1`) ends the session while its
        /// reading task waits for room: with SIGPIPE ignored (inherited), the
        /// failed write stops the task, the statement ends, and the process
        /// exits with SIGPIPE's status rather than waiting forever.
        @Test(.timeLimit(.minutes(10)))
        func aReaderGoingAwayEndsTheSessionAndItsStatement() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let (_, url) = try Self.stores(in: directory)
            let script = "env --ignore-signal=PIPE '\(try docstoreBinary().path)' '\(url)' --mode ndjson -c 'p.filter { $0.n >= 0 }' | head -1; echo \"status ${PIPESTATUS[0]}\""
            let started = Date()
            let result = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
            #expect(Date().timeIntervalSince(started) < 60)
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 2 && lines.first?.hasPrefix("{") == true, "\(result.stdout)")
            #expect(lines.last == "status 141", "\(result.stdout) \(result.stderr)")
            let running = try PostgresREPLServer.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%\"p\"%'", databaseURL: url)
            #expect(running.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "no statement of the session runs on")
        }
    }
}
