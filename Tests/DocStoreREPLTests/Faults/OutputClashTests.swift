import Foundation
import Testing
@testable import DocStoreREPL

/// `.once F` or `.output F`, then a command that reads or writes F: the
/// command is refused, and with `.once` F is left as it was (an import's source
/// was left empty after a successful import; an export was replaced by the
/// results that went to the same file).
@Suite("Fault: a command on the file results go to")
struct OutputClashTests {
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
}
