import Foundation
import Testing
@testable import DocStore

@Suite("Crash safety and concurrency")
struct CrashSafetyTests {
    struct Entry: Codable, Identifiable {
        var id: Int
        var batch: Int
        var payload: String
    }

    /// The CrashWriter executable, built beside the test bundle.
    func crashWriterURL() throws -> URL {
        let candidate = try builtExecutable(named: "CrashWriter")
        try #require(FileManager.default.isExecutableFile(atPath: candidate.path), "CrashWriter not built at \(candidate.path)")
        return candidate
    }

    @Test(.timeLimit(.minutes(10)))
    func killingAWriterMidBatchLosesNoCommittedBatchAndLeavesNoPartialOne() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = try crashWriterURL()
        process.arguments = [path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()

        // Let it commit a few batches, then kill it without warning, mid-transaction.
        var reported = ""
        var lastCommitted = -1
        while lastCommitted < 5 {
            let chunk = output.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "CrashWriter ended early: \(reported)")
            reported += String(decoding: chunk, as: UTF8.self)
            lastCommitted = reported.split(separator: "\n").compactMap { Int($0.split(separator: " ").last ?? "") }.max() ?? -1
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let store = try DocumentStore(path: path)
        var perBatch: [Int: Int] = [:]
        try store.collection(Entry.self).forEach { perBatch[$0.batch, default: 0] += 1 }
        for batch in 0...lastCommitted {
            #expect(perBatch[batch] == 200, "committed batch \(batch) is whole")
        }
        for (batch, count) in perBatch {
            #expect(count == 200, "batch \(batch) is whole or absent, found \(count)")
        }
        #expect(perBatch.keys.max() ?? 0 <= lastCommitted + 1, "at most the batch in flight at the kill committed unreported")
        #expect(try store.collection(Entry.self).damagedDocuments().isEmpty)
    }

    @Test(.timeLimit(.minutes(10)))
    func concurrentReadersAndAWriterLoseNothing() async throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        let entries = store.collection(Entry.self)
        try await entries.insert(Entry(id: 0, batch: 0, payload: "seed"))
        let writes = 400
        let readerCounts = try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                for i in 1...writes {
                    try entries.insert(Entry(id: i, batch: i, payload: "p\(i)"))
                    if i % 50 == 0 { try entries.update(0) { $0.batch += 1 } }
                }
                return -1
            }
            for reader in 0..<6 {
                group.addTask {
                    var reads = 0
                    var lastCount = 0
                    while lastCount <= writes {
                        let count = try entries.count()
                        #expect(count >= lastCount, "reader \(reader) saw the count go back")
                        lastCount = count
                        if let entry = try entries.get(count - 1) { #expect(entry.id == count - 1) }
                        reads += 1
                    }
                    return reads
                }
            }
            var counts: [Int] = []
            for try await result in group where result >= 0 { counts.append(result) }
            return counts
        }
        #expect(readerCounts.count == 6)
        #expect(try await entries.count() == writes + 1, "no lost write")
        #expect(try await entries.get(0)?.batch == writes / 50, "no lost update")
    }
}
