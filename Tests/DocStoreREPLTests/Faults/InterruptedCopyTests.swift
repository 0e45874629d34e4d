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
    /// created left that file behind, an empty store (helper-49), where a copy
    /// failing otherwise removes it. The signal removes it too.
    @Test(.timeLimit(.minutes(10))) func aFileItCreatedAndLeftEmptyIsRemoved() throws {
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
        #expect(stderr.contains("docstore copy: removed \(destination), which this copy had created"), "\(stderr)")
        for file in [destination, destination + "-wal", destination + "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: file), "\(file)")
        }
    }
}
