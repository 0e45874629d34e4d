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
    @Test(.timeLimit(.minutes(10))) func itSaysWhichCollectionsItFinished() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("source.db").path
        let destination = directory.appendingPathComponent("copy.db").path
        let store = try DocumentStore(path: source)
        try store.collection(named: "a").insert(contentsOf: [["id": 1], ["id": 2]])
        let padding = String(repeating: "x", count: 100)
        try store.collection(named: "b").insert(contentsOf: (1...300_000).map { ["id": .integer(Int64($0)), "text": .string(padding)] })
        try store.close()

        let process = Process()
        process.executableURL = try docstoreBinary()
        process.arguments = ["copy", source, destination]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        // Once "a" is committed at the destination, while "b" is being copied.
        let deadline = Date().addingTimeInterval(60)
        func copiedA() -> Bool {
            guard FileManager.default.fileExists(atPath: destination), let queue = try? DatabaseQueue(path: destination) else { return false }
            defer { try? queue.close() }
            return (try? queue.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM docstore_collections WHERE name = 'a')") }) == true
        }
        while !copiedA(), process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        try #require(process.isRunning, "the copy ended before it could be interrupted")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
        #expect(stderr.contains("docstore: interrupted by SIGINT"), "\(stderr)")
        #expect(stderr.contains("copied and verified before that: a;"), "\(stderr)")
        let copy = try DocumentStore(path: destination, readOnly: true)
        #expect(try copy.collections().map(\.name) == ["a"], "b, interrupted, is not there")
        #expect(try copy.collection(named: "a").count() == 2)
    }

    /// Interrupted before any collection was committed, a copy into a file it
    /// created leaves it, but says it holds no document: it can't tell its own
    /// connection from another process's, and removing the file lost a write
    /// another process was waiting to commit into it (helper-50).
    @Test(.timeLimit(.minutes(10))) func aFileItCreatedAndLeftEmptyIsNamed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("source.db").path
        let destination = directory.appendingPathComponent("copy.db").path
        let store = try DocumentStore(path: source)
        let padding = String(repeating: "x", count: 100)
        try store.collection(named: "b").insert(contentsOf: (1...300_000).map { ["id": .integer(Int64($0)), "text": .string(padding)] })
        try store.close()

        let process = Process()
        process.executableURL = try docstoreBinary()
        process.arguments = ["copy", source, destination]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        // Once "b" is being written: its pages fill the destination's log.
        let deadline = Date().addingTimeInterval(60)
        func logSize() -> Int { ((try? FileManager.default.attributesOfItem(atPath: destination + "-wal"))?[.size] as? Int) ?? 0 }
        while logSize() < 1_000_000, process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        try #require(process.isRunning, "the copy ended before it could be interrupted")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT)
        #expect(stderr.contains("docstore copy: \(destination), which this copy created, holds no document; remove it"), "\(stderr)")
        let left = try DocumentStore(path: destination, readOnly: true)
        #expect(try left.collections().isEmpty)
        try left.close()
    }

    /// A copy into a file it created fails (a damaged source document) while
    /// another process waits to write into that file: the copy removed the
    /// file, empty of its own documents, and the other process's write, told
    /// it was committed, went into the removed file (helper-50). Whatever the
    /// timing, that write is now in the file at the end.
    @Test(.timeLimit(.minutes(10))) func aFailedCopyKeepsAFileAnotherProcessWritesInto() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("source.db").path
        let destination = directory.appendingPathComponent("copy.db").path
        let store = try DocumentStore(path: source)
        let padding = String(repeating: "x", count: 100)
        try store.collection(named: "b").insert(contentsOf: (1...200_000).map { ["id": .integer(Int64($0)), "text": .string(padding)] })
        try store.databaseWriter.write { db in try db.execute(sql: #"UPDATE b SET body = '{"id": 200000, "te' WHERE key = 200000"#) }
        try store.close()

        let copy = Process()
        copy.executableURL = try docstoreBinary()
        copy.arguments = ["copy", source, destination]
        let copyErrors = Pipe()
        copy.standardError = copyErrors
        copy.standardOutput = FileHandle.nullDevice
        try copy.run()
        defer {
            if copy.isRunning { kill(copy.processIdentifier, SIGKILL) }
            copy.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: destination + "-wal"), copy.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let writer = try runProcess(try docstoreBinary(), [destination, "--busy-timeout", "60", "-c", #"z.insert({"id": 1, "keep": "me"})"#])
        copy.waitUntilExit()
        let stderr = String(decoding: copyErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(copy.terminationStatus == 1, "\(stderr)")
        #expect(writer.status == 0 && writer.stderr.contains("inserted 1 document"), "\(writer.stderr)")
        let read = try runProcess(try docstoreBinary(), [destination, "--mode", "ndjson", "-c", "z.get(1)"])
        #expect(read.stdout == #"{"id":1,"keep":"me"}"# + "\n", "copy: \(stderr)\nread: \(read.stdout)\(read.stderr)")
    }
}
