import DocStore
import Foundation
import Testing

/// Another program replaces the store's file under a running session (`mv
/// new.sqlite store.sqlite`). The session wrote into the file it had open and
/// said "inserted", and its write-ahead log, named by the path, stayed beside
/// the new file: opened next, the path showed the old store's documents in
/// place of the new file's (helper-55).
@Suite("Fault: the store's file replaced under a session")
struct MovedStoreFileCommandTests {
    /// Another store file beside the session's, holding document 7 of "p".
    static func newStore(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("new.sqlite").path
        let new = try DocumentStore(path: path)
        try new.collection(named: "p").insert(["id": 7])
        try new.close()
        return path
    }

    @Test(.timeLimit(.minutes(10)))
    func theSessionRefusesCommandsAndLeavesTheNewFileReadableEvenWhenKilled() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let session = try PipedSession([path, "--keep-going", "--mode", "ndjson"])
        try session.send(#"p.insert([{"id": 1}, {"id": 2}])"# + "\np.count()\n")
        #expect(session.availableOutput() == "2\n")

        let newPath = try Self.newStore(in: directory)
        #expect(rename(newPath, path) == 0)
        try session.send(#"p.insert({"id": 3})"# + "\np.count()\n.mode\n")
        // Nothing runs but .quit and .help: its reads could show either file.
        Thread.sleep(forTimeInterval: 1)
        session.killNow()
        let errors = session.errorsAfterExit()
        let refusal = "the store file \(path) was deleted, renamed or replaced by another program after this session opened it: its writes would be lost and its reads could show either file, so nothing was run; quit and open \(path) again"
        for line in 3...5 { #expect(errors.contains("error at line \(line): " + refusal), "\(errors)") }

        // Killed, the session closed nothing: its log was folded into its own
        // file when it found the file moved, so the path reads as the new file.
        let after = try runProcess(try docstoreBinary(), [path, "--mode", "ndjson", "-c", "p.keys()"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout == "[7]\n", "\(after.stdout)")
    }

    /// A running `.watch` had no change to see when the file was replaced:
    /// it showed the old file's result as live until ctrl-C (helper-58).
    @Test(.timeLimit(.minutes(10)))
    func aWatchStopsWhenTheFileIsReplaced() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        let made = try runProcess(try docstoreBinary(), [path, "-c", #"p.insert({"id": 1})"#])
        try #require(made.status == 0, "\(made.stderr)")
        let session = try PipedSession([path, "--mode", "ndjson", "-c", ".watch p.count()"])
        var output = ""
        let deadline = Date().addingTimeInterval(30)
        while !output.contains("1\n"), Date() < deadline { output += session.availableOutput() }
        try #require(output.contains("1\n"), "the watch never printed: \(output)")

        let newPath = try Self.newStore(in: directory)
        #expect(rename(newPath, path) == 0)
        let result = try #require(session.ended(within: 20), "the watch still runs 20 s after its file was replaced")
        #expect(result.status == 1)
        #expect(result.stderr.contains("the store file \(path) was deleted, renamed or replaced by another program") && result.stderr.contains("(stopped watching)"),
                "\(result.stderr)")
    }
}
