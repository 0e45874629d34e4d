import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

@Suite("The docstore executable")
struct BinaryTests {
    @Test func pipedInputHasNoPromptNoColourAndStopsAtTheFirstError() throws {
        let result = try runProcess(try docstoreBinary(), [], input: """
            teams.get(1)
            teams.filter {
              $0.city == "Boston"
              $0.id >
            }
            teams.get(2)

            """)
        #expect(result.status == 1)
        #expect(result.stdout.contains("Red Sox"))
        #expect(!result.stdout.contains("Orioles"))
        #expect(!result.stdout.contains("docstore>"))
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(!result.stderr.contains("\u{1B}["))
        #expect(result.stderr.hasPrefix("error at line 5, column 1: expected a value"), "\(result.stderr)")
        #expect(result.stderr.contains("}\n^"))
    }

    @Test func pipedInputThatSucceedsExitsZero() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.sqlite").path
        let first = try runProcess(try docstoreBinary(), [store], input: "notes.insert({\"id\": 1, \"text\": \"kept\"})\n")
        #expect(first.status == 0, "\(first.stderr)")
        let second = try runProcess(try docstoreBinary(), [store, "--mode", "ndjson"], input: "notes.get(1)\nnotes.count()\n")
        #expect(second.status == 0, "\(second.stderr)")
        let lines = second.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(try JanssonJSON.parse(lines.first ?? "") == ["id": 1, "text": "kept"])
        #expect(lines.last == "1")
    }

    @Test func oneCommandWithDashC() throws {
        let ok = try runProcess(try docstoreBinary(), ["-c", "players.get(2)", "--mode", "line"])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("lastName = Bogaerts"))
        let bad = try runProcess(try docstoreBinary(), ["-c", "players.get(2"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("error at line 1, column 14: expected ')'"))
    }

    /// A URL of another database was taken for a file path ("the folder
    /// mysql://x@y does not exist").
    /// A negative busy timeout is refused saying what the option takes; it
    /// read as an unknown option ("Missing value for '--busy-timeout'").
    @Test func aNegativeBusyTimeoutIsRefusedSayingWhatItTakes() throws {
        for value in ["-1", "nan", "-0.5"] {
            let result = try runProcess(try docstoreBinary(), ["--busy-timeout", value, "-c", "players.count()"])
            #expect(result.status == 64, "\(value)")
            #expect(result.stderr.contains("--busy-timeout takes a number of seconds, 0 or more"), "\(value): \(result.stderr)")
        }
        let fine = try runProcess(try docstoreBinary(), ["--busy-timeout", "0.5", "-c", "players.count()"])
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    @Test func aURLOfAnotherDatabaseIsNamedAsSuch() throws {
        let result = try runProcess(try docstoreBinary(), ["mysql://x@y/z", "-c", "a.count()"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("DocStore opens a store file or a PostgreSQL database (postgres://user@host/database), not mysql://"), "\(result.stderr)")
    }

    @Test func readOnlyRefusesWrites() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("ro.sqlite").path
        _ = try runProcess(try docstoreBinary(), [store, "-c", #"notes.insert({"id": 1})"#])
        let result = try runProcess(try docstoreBinary(), [store, "--read-only", "-c", #"notes.insert({"id": 2})"#])
        #expect(result.status == 1)
        #expect(result.stderr.contains("read-only"))
        let missing = try runProcess(try docstoreBinary(), [directory.appendingPathComponent("none.sqlite").path, "--read-only", "-c", ".collections"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no such file"))
    }

    @Test func help() throws {
        let result = try runProcess(try docstoreBinary(), ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("--read-only"))
        #expect(result.stdout.contains("-c <command>"))
        #expect(result.stdout.contains("--mode <mode>"))
    }
}
