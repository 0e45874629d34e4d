import Foundation
import Testing
@testable import DocStoreREPL

/// Scripts run by the `docstore` executable: piped input, `.read`, repeated
/// `-c`, `--bail` and `--keep-going`, `.timer` (issue 12).
@Suite("Scripts, -c and .read")
struct ScriptTests {
    /// A script with a run-time error (line 2), an unterminated string
    /// (line 3) and good commands after each.
    static let script = """
        teams.get(1)
        teams.insert({"id": 1})
        teams.filter { $0.city == "Bos
        teams.get(2)
        players.count()

        """

    @Test func pipedInputStopsAtTheFirstErrorByDefaultAndWithBail() throws {
        for arguments in [[], ["--bail"]] {
            let result = try runProcess(try docstoreBinary(), arguments + ["--mode", "ndjson"], input: Self.script)
            #expect(result.status == 1)
            #expect(result.stdout.split(separator: "\n").count == 1, "\(result.stdout)")
            #expect(result.stdout.contains("Red Sox"))
            #expect(result.stderr == "error at line 2: duplicate key 1 in collection \"teams\": use save(_:) to replace a document\n")
        }
    }

    @Test func keepGoingReportsEachErrorWithItsLineAndFailsAtTheEnd() throws {
        let result = try runProcess(try docstoreBinary(), ["--keep-going", "--mode", "ndjson"], input: Self.script)
        #expect(result.status == 1)
        // Every good command ran, in order, including the two after the
        // unterminated string, which no longer swallows them.
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.stdout)")
        #expect(try JanssonJSON.parse(lines[0])["nickName"] == "Red Sox")
        #expect(try JanssonJSON.parse(lines[1])["nickName"] == "Orioles")
        #expect(lines[2] == "4")
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error") }
        #expect(errors == [
            "error at line 2: duplicate key 1 in collection \"teams\": use save(_:) to replace a document",
            "error at line 3, column 27: unterminated string literal",
        ])
    }

    /// A `.quit` after a failed command ended the script with exit code 0.
    @Test func keepGoingStillFailsWhenTheScriptEndsWithQuit() throws {
        let piped = try runProcess(try docstoreBinary(), ["--keep-going"], input: "nope.count()\nteams.count()\n.quit\n")
        #expect(piped.status == 1 && piped.stdout.contains("4"), "\(piped.stderr)")
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("s.docstore")
        try "nope.count()\n.quit\n".write(to: script, atomically: true, encoding: .utf8)
        let read = try runProcess(try docstoreBinary(), ["--keep-going", "-c", ".read \(script.path)", "-c", "teams.count()"])
        #expect(read.status == 1, "\(read.stderr)")
        let clean = try runProcess(try docstoreBinary(), ["--keep-going"], input: "teams.count()\n.quit\n")
        #expect(clean.status == 0, "\(clean.stderr)")
    }

    /// A bracket never closed took every line after it into its command: the
    /// error was "expected ')'" at the next line, and nothing said the inserts
    /// after it never ran (helper-41). The error names the bracket and the
    /// lines it took; --keep-going runs them as the commands they are.
    @Test func anUnclosedBracketNamesTheLinesItTookAndKeepGoingRunsThem() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = "a.insert({\"id\": 1})\na.count(\na.insert({\"id\": 2})\na.insert({\"id\": 3})\n"
        for keepGoing in [false, true] {
            let store = directory.appendingPathComponent("s\(keepGoing).sqlite").path
            let run = try runProcess(try docstoreBinary(), [store] + (keepGoing ? ["--keep-going"] : []), input: script)
            #expect(run.status == 1)
            #expect(run.stderr.contains("error at line 2, column 8: this \"(\" is never closed, so its command took in lines 3–4 and ran none of it"), "\(run.stderr)")
            let keys = try runProcess(try docstoreBinary(), [store, "--mode", "ndjson", "-c", "a.keys()"])
            #expect(keys.stdout == (keepGoing ? "[1,2,3]\n" : "[1]\n"), "\(keys.stdout)")
        }
    }

    @Test func aScriptWithoutErrorsExitsZeroWithKeepGoing() throws {
        let result = try runProcess(try docstoreBinary(), ["--keep-going"], input: "teams.count()\nplayers.count()\n")
        #expect(result.status == 0)
        #expect(result.stdout == "4\n4\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func bailAndKeepGoingTogetherAreRefused() throws {
        let result = try runProcess(try docstoreBinary(), ["--bail", "--keep-going", "-c", "teams.count()"])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--bail and --keep-going contradict each other"))
    }

    @Test func repeatedDashCRunsEachInOrder() throws {
        let ok = try runProcess(try docstoreBinary(), ["-c", "teams.count()", "-c", "players.get(2)", "-c", "teams.get(3)", "--mode", "line"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let bogaerts = try #require(ok.stdout.range(of: "lastName = Bogaerts"))
        let rays = try #require(ok.stdout.range(of: "nickName = Rays"))
        #expect(ok.stdout.hasPrefix("4\n"))
        #expect(bogaerts.lowerBound < rays.lowerBound)

        // The second fails: --bail (the default) stops there, --keep-going
        // runs the third too; both exit 1, naming which -c failed.
        let commands = ["-c", "teams.count()", "-c", "teams.get(", "-c", "players.count()"]
        let bail = try runProcess(try docstoreBinary(), commands)
        #expect(bail.status == 1)
        #expect(bail.stdout == "4\n")
        #expect(bail.stderr.hasPrefix("error in -c 2 at line 1, column 11: "), "\(bail.stderr)")
        let keepGoing = try runProcess(try docstoreBinary(), commands + ["--keep-going"])
        #expect(keepGoing.status == 1)
        #expect(keepGoing.stdout == "4\n4\n")
        #expect(keepGoing.stderr.hasPrefix("error in -c 2 at line 1, column 11: "))
    }

    @Test func readRunsAFileAsPipedInputWouldNamingItInErrors() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("checks.docstore").path
        try Self.script.write(toFile: path, atomically: true, encoding: .utf8)

        let piped = try runProcess(try docstoreBinary(), ["--keep-going", "--mode", "ndjson"], input: Self.script)
        let read = try runProcess(try docstoreBinary(), ["--keep-going", "--mode", "ndjson", "-c", ".read \(path)"])
        // The same results, and the same errors but for the file's name.
        #expect(read.status == 1)
        #expect(read.stdout == piped.stdout)
        #expect(read.stderr == piped.stderr.replacingOccurrences(of: "error at line", with: "error in \(path) at line"))

        // Without --keep-going, .read stops at the first error too.
        let bail = try runProcess(try docstoreBinary(), ["--mode", "ndjson"], input: ".read \(path)\nteams.count()\n")
        #expect(bail.status == 1)
        #expect(bail.stdout.split(separator: "\n").count == 1)
        #expect(bail.stderr == "error in \(path) at line 2: duplicate key 1 in collection \"teams\": use save(_:) to replace a document\n")
    }

    @Test func nestedReadsRunAndACycleIsAnError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outer = directory.appendingPathComponent("outer.docstore").path
        let inner = directory.appendingPathComponent("inner.docstore").path
        try "teams.count()\n.read \(inner)\nplayers.count()\n".write(toFile: outer, atomically: true, encoding: .utf8)
        try "teams.get(4)\n".write(toFile: inner, atomically: true, encoding: .utf8)
        let nested = try runProcess(try docstoreBinary(), ["--mode", "ndjson"], input: ".read \(outer)\n")
        #expect(nested.status == 0, "\(nested.stderr)")
        let lines = nested.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.first == "4")
        #expect(try JanssonJSON.parse(lines[1])["id"] == 4)
        #expect(lines.last == "4")

        // inner reads outer, which reads inner: refused where it would loop.
        try "teams.get(4)\n.read \(outer)\n".write(toFile: inner, atomically: true, encoding: .utf8)
        let cycle = try runProcess(try docstoreBinary(), ["--mode", "ndjson", "-c", ".read \(outer)"])
        #expect(cycle.status == 1)
        #expect(cycle.stderr.contains("error in \(inner) at line 2: .read \(outer) would read it again while it is being read (outer.docstore → inner.docstore → outer.docstore)"), "\(cycle.stderr)")
        #expect(cycle.stdout.split(separator: "\n").count == 2)  // teams.count(), teams.get(4); then the error stops all

        let missing = try runProcess(try docstoreBinary(), ["-c", ".read \(directory.path)/none.docstore"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot .read \(directory.path)/none.docstore: No such file or directory"))
        let folder = try runProcess(try docstoreBinary(), ["-c", ".read \(directory.path)"])
        #expect(folder.stderr.contains("it is a directory"))
    }

    @Test func readOnlyOnAMissingStoreIsAnError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("none.sqlite").path
        let piped = try runProcess(try docstoreBinary(), [path, "--read-only"], input: "teams.count()\n")
        #expect(piped.status == 1)
        #expect(piped.stderr == "docstore: cannot open \(path) read-only: no such file\n")
        #expect(!FileManager.default.fileExists(atPath: path))
        // No store at all: the in-memory sample store would take writes.
        let none = try runProcess(try docstoreBinary(), ["--read-only", "-c", #"teams.insert({"id": 9})"#])
        #expect(none.status == 1)
        #expect(none.stdout.isEmpty)
        #expect(none.stderr.hasPrefix("docstore: --read-only needs a store file"))
    }

    @Test func theTimerPrintsSQLite3sRunTimeLineOnStderrInScripts() throws {
        let result = try runProcess(try docstoreBinary(), ["-c", ".timer on", "-c", "teams.count()", "-c", ".timer off", "-c", "players.count()"])
        #expect(result.status == 0)
        #expect(result.stdout == "4\n4\n")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 1, "\(result.stderr)")
        let pattern = try Regex(#"^Run Time: real \d+\.\d{3} user \d+\.\d{6} sys \d+\.\d{6}$"#)
        #expect(lines.first.map { $0.wholeMatch(of: pattern) != nil } == true, "\(result.stderr)")
    }

    @Test func theTimerGoesToStdoutAtThePromptAndSaysWhetherItIsOn() throws {
        let harness = try SessionHarness()
        #expect(harness.feed(".timer") == .done)
        #expect(harness.output.text == "the timer is off (.timer on|off changes it)\n")
        #expect(harness.feed(".timer on", "teams.count()") == .done)
        #expect(harness.output.text.contains("\nRun Time: real "))
        #expect(harness.feed(".timer maybe") == .failed)
        #expect(harness.errors.text.contains("unknown setting \"maybe\": use .timer on or .timer off"))
    }
}

@Suite("Unterminated strings at the prompt")
struct UnterminatedStringTests {
    /// The entry ends with the line: the error shows at once, where the string
    /// starts, instead of a continuation prompt that swallows later lines.
    @Test func anUnterminatedStringEndsTheEntryAtOnce() throws {
        let harness = try SessionHarness()
        #expect(harness.feed(#"players.filter { $0.lastName == "Ort"#) == .failed)
        #expect(!harness.session.isContinuing)
        #expect(harness.errors.text.hasPrefix("error at line 1, column 33: unterminated string literal"), "\(harness.errors.text)")
        // A block still open for other reasons continues; an escaped quote
        // doesn't end a string, a quoted brace doesn't open a block.
        #expect(harness.feed("players.filter {") == .needsMore)
        #expect(harness.feed(#"$0.lastName == "O\"rt{""#) == .needsMore)
        #expect(harness.feed("}") == .done)
        #expect(harness.feed(#"players.filter { $0.lastName == "a\"#) == .failed)
    }
}
