import DocStore
import Foundation
import GRDB
import Testing

/// `docstore` on a store whose write-ahead log has a damaged frame before
/// intact commits: it opens nothing and says what and where, and what to do;
/// `--set-aside-damaged-log` keeps the log and opens the store as of its last
/// good commit. A real log: a store with automatic checkpoints off, copied
/// while open, one frame's page changed in place.
@Suite("Fault: a damaged write-ahead log in the REPL")
struct DamagedLogCommandTests {
    @Test func theShellRefusesThenSetsTheLogAsideWhenAsked() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = directory.appendingPathComponent("original.db").path
        let path = directory.appendingPathComponent("s.db").path
        let store = try DocumentStore(path: original)
        try store.databaseWriter.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let events = store.collection(named: "events")
        try events.insert(["id": 0])
        _ = try store.databaseWriter.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        for id in 1...5 { try events.insert(["id": .integer(Int64(id))]) }
        try FileManager.default.copyItem(atPath: original, toPath: path)
        try FileManager.default.copyItem(atPath: original + "-wal", toPath: path + "-wal")
        try store.close()

        // The first logged commit's frame: a byte of its page changed.
        var log = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        let pageSize = Int(log[8]) << 24 | Int(log[9]) << 16 | Int(log[10]) << 8 | Int(log[11])
        log[32 + 24 + pageSize / 2] ^= 0x5A
        try log.write(to: URL(fileURLWithPath: path + "-wal"))

        let refused = try runProcess(try docstoreBinary(), [path, "-c", "events.count()"])
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("the write-ahead log \(path)-wal is damaged (frame 1, at byte 32)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("4 intact commits after the damage would be dropped"), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")) == log, "the log is untouched")

        let opened = try runProcess(try docstoreBinary(), ["--set-aside-damaged-log", path, "-c", "events.count()"])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "only the commit in the file is left")
        #expect(opened.stderr.contains("the write-ahead log \(path)-wal was damaged (frame 1, starting at byte 32); it was copied whole to \(path)-wal.damaged"),
                "\(opened.stderr)")
        #expect(opened.stderr.contains("without the damaged transaction and the 4 intact commits after it: they are only in that copy"), "\(opened.stderr)")
        let again = try runProcess(try docstoreBinary(), ["--set-aside-damaged-log", path, "-c", "events.count()"])
        #expect(again.status == 0 && again.stderr.isEmpty, "a sound log sets nothing aside and says nothing: \(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal.damaged")) == log, "the copy holds the dropped commits")
    }
}
