import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// The same script, piped into `docstore` on a PostgreSQL database and on a
    /// DocStore file, gives the same answers: Lahman's People and Teams
    /// imported with `.import`, then queries of every kind PostgreSQL runs.
    @Suite("REPL on PostgreSQL: the same answers as on a file")
    struct SessionTests {
        static let lahman = LahmanQuestionsTests.dataDirectory

        /// Each command's result goes to a file of its own (`.once`), so that
        /// the answers of the two stores are compared command by command.
        static let commands = [
            ".collections",
            "people.count()",
            "teams.count()",
            #"people.filter { $0.birthYear >= 1970; $0.birthCountry == "D.R." }.count()"#,
            #"people.filter { $0.nameLast.hasPrefix("Ro") }.sorted { $0.nameLast; $0.nameFirst }.limit(5)"#,
            #"teams.filter { $0.yearID == 2001 }.sorted { $0.W.descending }.limit(3).select { ($0.name, $0.W, $0.L) }"#,
            #"teams.query.max(\.W)"#,
            #"teams.filter { $0.lgID == "AL" }.min(\.yearID)"#,
            "people.get(1)",
            "teams.get(2955)",
            #"people.filter { $0.weight > 300 }.keys()"#,
            #"people.first { $0.nameLast == "Ruth"; $0.nameFirst == "Babe" }"#,
            #"teams.filter { $0.name.contains("Sox") }.exists()"#,
            #"teams.filter { $0.name.contains("sox") }.exists()"#,
            #"teams.filter { $0.yearID > 2015 }.sorted { $0.attendance.descending }.limit(2, offset: 1)"#,
            #"people.filter { $0.deathYear.exists; $0.birthYear < 1850 }.count()"#,
            #"people.filter { AnyOf { $0.bats == "B"; $0.throws == "L" }; $0.birthYear == 1990 }.count()"#,
            #"teams.insert({"yearID": 2030, "name": "Expansion"})"#,
            #"teams.filter { $0.yearID == 2030 }"#,
            #"teams.delete { $0.yearID == 2030 }"#,
            "teams.count()",
            #"teams.renameField("franchID", to: "franchiseID")"#,
            #"teams.filter { $0.franchiseID == "BOS" }.count()"#,
            #"teams.copyField("name", to: \.names.current)"#,
            #"teams.removeField("park")"#,
            #"teams.setDefault("divID", "none")"#,
            #"teams.filter { $0.divID == "none" }.count()"#,
            #"teams.filter { $0.yearID == 2001; $0.franchiseID == "SEA" }.select { ($0.names.current, $0.park) }"#,
            ".schema teams",
        ]

        /// The script: imports, each command into its file, an export.
        static func script(outputs: URL) -> String {
            var lines = [".import people \(lahman)/People.csv", ".import teams \(lahman)/Teams.csv"]
            for (index, command) in commands.enumerated() {
                lines.append(".once \(outputs.path)/\(index).ndjson")
                lines.append(command)
            }
            lines.append(".export teams \(outputs.path)/teams.ndjson")
            return lines.joined(separator: "\n") + "\n"
        }

        @Test func lahmanSessionsGiveTheSameAnswersOnPostgreSQLAndOnAFile() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let onFile = directory.appendingPathComponent("file"), onPostgres = directory.appendingPathComponent("postgres")
            for folder in [onFile, onPostgres] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }

            let url = try PostgresREPLServer.freshDatabaseURL()
            let file = directory.appendingPathComponent("lahman.sqlite").path
            let fromFile = try runProcess(try docstoreBinary(), [file, "--mode", "ndjson"], input: Self.script(outputs: onFile))
            let fromPostgres = try runProcess(try docstoreBinary(), [url, "--mode", "ndjson"], input: Self.script(outputs: onPostgres))
            #expect(fromFile.status == 0, "\(fromFile.stderr)")
            #expect(fromPostgres.status == 0, "\(fromPostgres.stderr)")
            // Messages (import summaries, inserted/deleted counts) alike, word for word.
            #expect(fromPostgres.stderr.replacingOccurrences(of: onPostgres.path, with: onFile.path) == fromFile.stderr)
            #expect(fromFile.stderr.contains("imported 20 262 documents into people"), "\(fromFile.stderr)")

            for (index, command) in Self.commands.enumerated() {
                let expected = Self.answer(onFile, index), found = Self.answer(onPostgres, index)
                if command.hasPrefix(".schema") {
                    // Fields are listed as first seen, and jsonb orders members its own way.
                    #expect(Set(found) == Set(expected), "\(command)")
                } else {
                    #expect(found == expected, "\(command): PostgreSQL gave \(found), the file \(expected)")
                }
                // Writes print a message (compared with stderr above), not a result.
                let writes = command.contains(".insert(") || command.contains(".delete") || command.contains("Field(")
                    || command.contains(".setDefault(")
                #expect(expected.isEmpty == writes, "\(command): \(expected)")
            }
            // The export writes sorted members in key order: the same bytes from both.
            let exported = try String(contentsOf: onFile.appendingPathComponent("teams.ndjson"), encoding: .utf8)
            #expect(try String(contentsOf: onPostgres.appendingPathComponent("teams.ndjson"), encoding: .utf8) == exported)
            #expect(exported.split(separator: "\n").count == 2955)
        }

        /// A command's answer: each line parsed as JSON (so that members compare
        /// in any order), or its text when it is not JSON.
        static func answer(_ folder: URL, _ index: Int) -> [NSObject] {
            // No file when the command printed only a message.
            let text = (try? String(contentsOf: folder.appendingPathComponent("\(index).ndjson"), encoding: .utf8)) ?? ""
            return text.split(separator: "\n").map { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8), options: .fragmentsAllowed)) as? NSObject ?? (String(line) as NSString)
            }
        }
    }
}
