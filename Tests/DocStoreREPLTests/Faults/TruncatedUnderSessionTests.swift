import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// A store file cut short by another tool while a session has it open: the
/// session's commands report the damage, never "no collection named …" (the
/// failed listing of collections read as an empty store, which hid the data
/// behind a wrong message). A real process, a real file truncated under it.
@Suite("Fault: the store file is truncated under a session")
struct TruncatedUnderSessionTests {
    @Test(.timeLimit(.minutes(10))) func commandsReportTheDamageNotAnUnknownCollection() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.db").path
        let store = try DocumentStore(path: path)
        try store.collection(named: "teams").insert(contentsOf: (1...3000).map { ["id": .integer(Int64($0)), "name": .string("Team \($0) of a long name")] })
        try store.close()

        let session = try PipedSession([path, "--keep-going", "--mode", "ndjson"])
        try session.send("teams.count()\n")
        #expect(session.availableOutput() == "3000\n")

        // Cut to its first pages, as a failing copy or a stray truncate would.
        try #require(truncate(path, 8192) == 0)
        try session.send(".collections\nteams.count()\nteams.get(1)\n")
        let finished = try session.finish()
        let stderr = finished.stderr
        #expect(finished.status == 1)
        #expect(!stderr.contains("no collection named"), "\(stderr)")
        for line in 2...4 {
            #expect(stderr.contains("error at line \(line)") , "\(stderr)")
        }
        #expect(stderr.components(separatedBy: "damaged SQLite database").count - 1 >= 2, "\(stderr)")
    }
}
