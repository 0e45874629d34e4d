import DocStore
import Foundation
import GRDB
import Testing
@testable import DocStoreREPL

/// `docstore copy` ended by ctrl-C: it was killed without a word. It now says
/// it was interrupted and which collections it had copied and verified; those
/// are whole at the destination, and the one being copied is not there. A real
/// process, a real signal.
@Suite("Fault: docstore copy interrupted")
struct InterruptedCopyTests {
    /// A source store in a new folder: `small` documents in "a" (none: no
    /// "a"), then `large` padded ones in "b", long enough to copy for a signal
    /// to land; the last of them damaged when asked.
    private struct Source {
        let directory: URL
        var path: String { directory.appendingPathComponent("source.db").path }
        var destination: String { directory.appendingPathComponent("copy.db").path }

        init(small: Int, large: Int, damagingTheLast: Bool = false) throws {
            directory = try temporaryDirectory()
            let store = try DocumentStore(path: directory.appendingPathComponent("source.db").path)
            if small > 0 { try store.collection(named: "a").insert(contentsOf: (1...small).map { ["id": .integer(Int64($0))] }) }
            let padding = String(repeating: "x", count: 100)
            try store.collection(named: "b").insert(contentsOf: (1...large).map { ["id": .integer(Int64($0)), "text": .string(padding)] })
            if damagingTheLast {
                try store.databaseWriter.write { db in try db.execute(sql: "UPDATE b SET body = '{\"id\": 1, \"te' WHERE key = ?", arguments: [large]) }
            }
            try store.close()
        }
    }

    /// `docstore copy SOURCE DESTINATION`, started; its stderr read at the end.
    private static func startCopy(_ source: Source) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = try docstoreBinary()
        process.arguments = ["copy", source.path, source.destination]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, errors)
    }

    /// Waits (a minute at most) until `ready` or the process ended.
    private static func wait(for process: Process, until ready: () -> Bool) {
        let deadline = Date().addingTimeInterval(60)
        while !ready(), process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    private static func end(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Interrupts the running copy with SIGINT; returns its stderr.
    private static func interrupt(_ process: Process, _ errors: Pipe) throws -> String {
        try #require(process.isRunning, "the copy ended before it could be interrupted")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
        return String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test(.timeLimit(.minutes(10))) func itSaysWhichCollectionsItFinished() throws {
        let source = try Source(small: 2, large: 300_000)
        defer { try? FileManager.default.removeItem(at: source.directory) }
        let (process, errors) = try Self.startCopy(source)
        defer { Self.end(process) }
        // Once "a" is committed at the destination, while "b" is being copied.
        Self.wait(for: process) {
            guard FileManager.default.fileExists(atPath: source.destination), let queue = try? DatabaseQueue(path: source.destination) else { return false }
            defer { try? queue.close() }
            return (try? queue.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM docstore_collections WHERE name = 'a')") }) == true
        }
        let stderr = try Self.interrupt(process, errors)
        #expect(stderr.contains("docstore: interrupted by SIGINT"), "\(stderr)")
        #expect(stderr.contains("copied and verified before that, and kept at the destination: a;"), "\(stderr)")
        let copy = try DocumentStore(path: source.destination, readOnly: true)
        #expect(try copy.collections().map(\.name) == ["a"], "b, interrupted, is not there")
        #expect(try copy.collection(named: "a").count() == 2)
    }

    /// Interrupted before any collection was committed, a copy into a file it
    /// created leaves it, but says it holds no document: it can't tell its own
    /// connection from another process's, and removing the file lost a write
    /// another process was waiting to commit into it (helper-50).
    @Test(.timeLimit(.minutes(10))) func aFileItCreatedAndLeftEmptyIsNamed() throws {
        let source = try Source(small: 0, large: 300_000)
        defer { try? FileManager.default.removeItem(at: source.directory) }
        let (process, errors) = try Self.startCopy(source)
        defer { Self.end(process) }
        // Once "b" is being written: its pages fill the destination's log.
        Self.wait(for: process) {
            ((try? FileManager.default.attributesOfItem(atPath: source.destination + "-wal"))?[.size] as? Int ?? 0) >= 1_000_000
        }
        let stderr = try Self.interrupt(process, errors)
        #expect(stderr.contains("docstore copy: \(source.destination), which this copy created, holds no document; remove it"), "\(stderr)")
        let left = try DocumentStore(path: source.destination, readOnly: true)
        #expect(try left.collections().isEmpty)
        try left.close()
    }

    /// A copy into a file it created fails (a damaged source document) while
    /// another process waits to write into that file: the copy removed the
    /// file, empty of its own documents, and the other process's write, told
    /// it was committed, went into the removed file (helper-50). Whatever the
    /// timing, that write is now in the file at the end.
    @Test(.timeLimit(.minutes(10))) func aFailedCopyKeepsAFileAnotherProcessWritesInto() throws {
        let source = try Source(small: 0, large: 200_000, damagingTheLast: true)
        defer { try? FileManager.default.removeItem(at: source.directory) }
        let (copy, copyErrors) = try Self.startCopy(source)
        defer { Self.end(copy) }
        Self.wait(for: copy) { FileManager.default.fileExists(atPath: source.destination + "-wal") }
        let writer = try runProcess(try docstoreBinary(), [source.destination, "--busy-timeout", "60", "-c", #"z.insert({"id": 1, "keep": "me"})"#])
        copy.waitUntilExit()
        let stderr = String(decoding: copyErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(copy.terminationStatus == 1, "\(stderr)")
        #expect(writer.status == 0 && writer.stderr.contains("inserted 1 document"), "\(writer.stderr)")
        let read = try runProcess(try docstoreBinary(), [source.destination, "--mode", "ndjson", "-c", "z.get(1)"])
        #expect(read.stdout == #"{"id":1,"keep":"me"}"# + "\n", "copy: \(stderr)\nread: \(read.stdout)\(read.stderr)")
    }
}
