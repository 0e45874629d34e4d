import Foundation
import Testing
@testable import DocStore

/// Commits by another process reach live queries when polling is on.
@Suite("Observation: other processes", .timeLimit(.minutes(10)))
struct OtherProcessObservationTests {
    struct Entry: Codable, Identifiable {
        var id: Int
        var batch: Int
        var payload: String
    }

    @Test func aWritingProcessIsSeenByPolling() async throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        let entries = store.collection(Entry.self)
        try await entries.insert(Entry(id: -1, batch: -1, payload: "seed"))
        store.otherProcessPollingInterval = .milliseconds(20)
        var counts = entries.observe(DocumentQuery()) { entries, query in try entries.count(query) }.makeAsyncIterator()
        #expect(try await counts.next() == 1)

        // CrashWriter commits a batch of 200 documents after another until killed.
        let writer = Process()
        writer.executableURL = try builtExecutable(named: "CrashWriter")
        writer.arguments = [path]
        writer.standardOutput = FileHandle.nullDevice
        try writer.run()
        defer {
            if writer.isRunning { kill(writer.processIdentifier, SIGKILL) }
            writer.waitUntilExit()
        }
        var seen: [Int] = []
        while seen.count < 3, let count = try await counts.next() {
            seen.append(count)
        }
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        #expect(seen == seen.sorted() && Set(seen).count == 3, "growing counts from the other process: \(seen)")
        #expect(seen.allSatisfy { ($0 - 1) % 200 == 0 }, "whole batches only: \(seen)")

        // After the writer is gone, polling brings the observer to the final count.
        let final = try await entries.count()
        var last = seen.last ?? 0
        while last != final, let count = try await counts.next() { last = count }
        #expect(last == final)
    }
}
