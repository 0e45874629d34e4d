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

        let process = Process()
        process.executableURL = try docstoreBinary()
        process.arguments = [path, "--keep-going", "--mode", "ndjson"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try input.fileHandleForWriting.write(contentsOf: Data("teams.count()\n".utf8))
        let first = output.fileHandleForReading.availableData
        #expect(String(decoding: first, as: UTF8.self) == "3000\n")

        // Cut to its first pages, as a failing copy or a stray truncate would.
        try #require(truncate(path, 8192) == 0)
        try input.fileHandleForWriting.write(contentsOf: Data(".collections\nteams.count()\nteams.get(1)\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 1)
        #expect(!stderr.contains("no collection named"), "\(stderr)")
        for line in 2...4 {
            #expect(stderr.contains("error at line \(line)") , "\(stderr)")
        }
        #expect(stderr.components(separatedBy: "damaged SQLite database").count - 1 >= 2, "\(stderr)")
    }
}
