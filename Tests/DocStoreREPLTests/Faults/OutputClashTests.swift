import Foundation
import Testing
@testable import DocStoreREPL

/// `.once F` or `.output F`, then a command that reads or writes F: the
/// command is refused, and with `.once` F is left as it was (an import's source
/// was left empty after a successful import; an export was replaced by the
/// results that went to the same file).
@Suite("Fault: a command on the file results go to")
struct OutputClashTests {
    /// `.output F` again while results go to F (through another spelling of
    /// it too) opened F anew: the results it held were lost (helper-56).
    @Test func outputToTheFileItAlreadyWritesKeepsItsResults() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.sqlite").path
        let out = directory.appendingPathComponent("out.txt").path
        let again = directory.path + "/../" + directory.lastPathComponent + "/out.txt"
        let run = try runProcess(try docstoreBinary(), [store], input: """
            p.insert([{"id": 1}, {"id": 2}])
            .output \(out)
            p.count()
            .output \(again)
            p.keys()
            .output

            """)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "2\n[1, 2]\n")
        #expect(run.stderr.contains("results already go to \(again), which keeps what it holds"), "\(run.stderr)")
    }

    /// `docstore :memory:`, as sqlite3 takes it: an empty store in memory. Its
    /// reading connections each had a database of their own, so the first
    /// query after an insert failed with "no such table".
    @Test func memoryNamesAnEmptyStoreInMemory() throws {
        let run = try runProcess(try docstoreBinary(), [":memory:", "--mode", "ndjson"], input: #"p.insert([{"id": 1}])"# + "\np.count()\n.collections\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("1\n"), "\(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/:memory:"))
    }
    @Test func aCommandOnTheFileResultsGoToIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        let store = path("s.sqlite")
        let source = path("t.csv")
        let csv = "id,name\n1,Red Sox\n2,Orioles\n"
        try csv.write(toFile: source, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: path("link.csv"), withDestinationPath: source)
        try runProcess(try docstoreBinary(), [store, "-c", #"teams.insert({"id": 9, "name": "Expos"})"#]).expectOK()
        let roundabout: String = directory.path + "/../" + directory.lastPathComponent + "/t.csv"
        let sessions: [[String]] = [
            [".once " + source, ".import others " + source],
            [".once " + path("link.csv"), ".import others " + roundabout],
            [".once " + source, ".export " + source + " teams"],
            [".once " + source, ".read " + source],
        ]
        for commands in sessions {
            let run = try runProcess(try docstoreBinary(), [store] + commands.flatMap { ["-c", $0] })
            #expect(run.status == 1 && run.stderr.contains("is the file") && run.stderr.contains("nothing was done"), "\(commands): \(run.stderr)")
            #expect(try String(contentsOfFile: source, encoding: .utf8) == csv, "\(commands) changed t.csv")
        }
        // `.output F` replaces F when it ends, as sqlite3's does; a command on F
        // meanwhile is refused all the same.
        let output = try runProcess(try docstoreBinary(), [store, "-c", ".output " + path("out.ndjson"), "-c", ".export teams " + path("out.ndjson")])
        #expect(output.status == 1 && output.stderr.contains("is the file .output is writing results to"), "\(output.stderr)")
        let fine = try runProcess(try docstoreBinary(), [store, "-c", ".once " + path("count.txt"), "-c", ".import others " + source, "-c", "others.count()"])
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    /// `.once F` while `.output F` is open, or the other way round: the one put
    /// in place last replaced the other's results, with exit code 0.
    @Test func onceAndOutputNamingOneFileAreRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.sqlite").path, file = directory.appendingPathComponent("o.txt").path
        try runProcess(try docstoreBinary(), [store, "-c", #"teams.insert([{"id": 1}, {"id": 2}])"#]).expectOK()
        let sessions: [[String]] = [
            [".output " + file, "teams.count()", ".once " + file, "teams.count { $0.id == 1 }", ".output"],
            [".once " + file, ".output " + file, "teams.count()"],
        ]
        for commands in sessions {
            try? FileManager.default.removeItem(atPath: file)
            let run = try runProcess(try docstoreBinary(), [store] + commands.flatMap { ["-c", $0] })
            #expect(run.status == 1 && run.stderr.contains("is the file") && run.stderr.contains("whichever is put in place last"), "\(commands): \(run.stderr)")
        }
        // A file .once can never write is its own error, not the next command's.
        let missing = try runProcess(try docstoreBinary(), [store, "-c", ".once " + directory.appendingPathComponent("no/x.txt").path, "-c", "teams.count()"])
        #expect(missing.status == 1 && missing.stderr.contains("error in -c 1") && missing.stderr.contains("does not exist"), "\(missing.stderr)")
        // Apart, they work.
        let apart = try runProcess(try docstoreBinary(), [store, "-c", ".output " + file, "-c", "teams.count()", "-c", ".once " + file + "2", "-c", "teams.count { $0.id == 1 }"])
        #expect(apart.status == 0, "\(apart.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "2\n" && String(contentsOfFile: file + "2", encoding: .utf8) == "1\n")
    }

    /// Results that can't be written to the standard output (a full disk, a
    /// closed descriptor) fail the run: `docstore s.db -c QUERY > file` on a
    /// full disk exited 0 with a truncated file.
    @Test func resultsLostOnTheWayToStandardOutputFailTheRun() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("s.sqlite").path
        try runProcess(try docstoreBinary(), [store, "-c", #"teams.insert([{"id": 1}, {"id": 2}])"#]).expectOK()
        for (redirect, reason) in [("> /dev/full", "No space left on device"), (">&-", "was closed when docstore started")] {
            for mode in ["table", "ndjson"] {
                let run = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", #""$0" "$1" --mode \#(mode) -c 'teams.count()' -c 'teams' \#(redirect)"#, try docstoreBinary().path, store])
                #expect(run.status == 1, "\(redirect) \(mode): \(run.stderr)")
                #expect(run.stderr.contains(reason) && run.stderr.contains("what it holds is incomplete") == (redirect != ">&-"), "\(run.stderr)")
            }
        }
        // A reader that stops early (`| head`) is not a failure.
        let head = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", #""$0" "$1" --mode ndjson -c 'teams' | head -c 1"#, try docstoreBinary().path, store])
        #expect(head.status == 0 && head.stderr.isEmpty, "\(head.stderr)")
        // Where SIGPIPE is ignored, docstore ends as it would by SIGPIPE, with
        // its status: the commands after the one whose reader went were not
        // run, and it ended with 0 (helper-48).
        let big = (1...3000).map { #"{"id": \#($0), "s": "\#(String(repeating: "x", count: 100))"}"# }.joined(separator: ", ")
        try runProcess(try docstoreBinary(), [store], input: "big.insert([\(big)])\n").expectOK()
        for disposition in ["--ignore-signal=PIPE", "--default-signal=PIPE"] {
            let run = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", #"env \#(disposition) "$0" "$1" --mode csv -c big -c 'later.insert({"id": 1})' | head -c 1 >/dev/null; echo ${PIPESTATUS[0]}"#, try docstoreBinary().path, store])
            #expect(run.stdout == "141\n" && run.stderr.isEmpty, "\(disposition): \(run.stdout) \(run.stderr)")
        }
        #expect(try runProcess(try docstoreBinary(), [store, "-c", "later.count()"]).stderr.contains("no collection named"))
    }
}
