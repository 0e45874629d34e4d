import Foundation
import Testing
@testable import DocStoreREPL

/// A command that writes a file never replaces a SQLite database or one of
/// its companion files: `.once s.sqlite` once replaced the open store with a
/// query's answer (the store was lost at exit), and `.export` did the same
/// through a symbolic link or a store named `*.json`.
@Suite("Fault: outputs never replace a store")
struct StoreFileOutputTests {
    @Test func outputCommandsRefuseStoreFilesAndLeaveTheStoreWhole() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        // Named like exports (a store may have any name), so that every form of
        // `.export` reaches the file.
        let store = path("s.json"), other = path("other.ndjson")
        try runProcess(try docstoreBinary(), [store, "-c", #"teams.insert({"id": 1, "name": "Red Sox"})"#]).expectOK()
        try runProcess(try docstoreBinary(), [other, "-c", #"kept.insert({"id": 1})"#]).expectOK()
        try FileManager.default.createSymbolicLink(atPath: path("link.txt"), withDestinationPath: store)
        let attempts = [
            ".once \(store)", ".output \(store)", ".export teams \(store)", ".export \(store) teams.limit(1)",
            ".once \(path("link.txt"))", ".export teams \(other)", ".once \(store)-wal", ".once \(store)-journal",
        ]
        for attempt in attempts {
            let run = try runProcess(try docstoreBinary(), [store, "--mode", "ndjson", "-c", attempt, "-c", "teams.count()"])
            #expect(run.status == 1, "\(attempt): \(run.stdout)")
            #expect(run.stderr.contains("cannot write") && run.stderr.contains("SQLite"), "\(attempt): \(run.stderr)")
        }
        let after = try runProcess(try docstoreBinary(), [store, "--mode", "ndjson", "-c", "teams.count()", "-c", ".check"])
        #expect(after.status == 0 && after.stdout.hasPrefix("1\n"), "\(after.stdout) \(after.stderr)")
        let kept = try runProcess(try docstoreBinary(), [other, "--mode", "ndjson", "-c", "kept.count()"])
        #expect(kept.stdout == "1\n", "\(kept.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store + "-journal"))
        // A new file beside the store is written as before.
        let fine = try runProcess(try docstoreBinary(), [store, "-c", ".export teams \(path("teams.ndjson"))"])
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(try String(contentsOfFile: path("teams.ndjson"), encoding: .utf8).contains("Red Sox"))
    }
}

extension ProcessOutput {
    func expectOK(sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(status == 0, "\(stderr)", sourceLocation: sourceLocation)
    }
}
