import Foundation
import Testing
@testable import DocStoreREPL

extension PostgresREPLTests {
    /// `docstore copy` from PostgreSQL while another process keeps writing:
    /// the copy holds one state of the source. Read page by page outside one
    /// snapshot, a copy once mixed five states (every document updated at once,
    /// yet the copy held values 0 to 4 side by side) and still said "verified".
    @Suite("docstore copy: one snapshot of a source being written")
    struct CopySnapshotTests {
        /// A collection of 12 000 documents, and a process that keeps changing
        /// every one of them in each transaction, started and under way.
        static func sourceBeingWritten(in directory: URL) throws -> (url: String, writer: Process) {
            let url = try PostgresREPLServer.freshDatabaseURL()
            let binary = try docstoreBinary()
            let seed = directory.appendingPathComponent("seed.ndjson")
            try (1...12_000).map { #"{"id": \#($0), "v": 0, "pad": "\#(String(repeating: "x", count: 40))"}"# }
                .joined(separator: "\n").write(to: seed, atomically: true, encoding: .utf8)
            try runProcess(binary, [url, "-c", ".import t \(seed.path)"]).expectSuccess()
            // Each update changes every document in one transaction: in every
            // committed state, all documents have the same v.
            let writer = Process()
            writer.executableURL = binary
            writer.arguments = [url]
            let input = Pipe()
            writer.standardInput = input
            writer.standardOutput = FileHandle.nullDevice
            writer.standardError = FileHandle.nullDevice
            try writer.run()
            input.fileHandleForWriting.write(Data(String(repeating: "t.update { $0.v.increment(by: 1) }\n", count: 400).utf8))
            try input.fileHandleForWriting.close()
            for _ in 0..<200 {
                let seen = try runProcess(binary, [url, "--mode", "ndjson", "-c", "t.query.max(\\.v)"])
                if seen.stdout != "0\n" { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return (url, writer)
        }

        static func stop(_ writer: Process) {
            if writer.isRunning { writer.terminate() }
            writer.waitUntilExit()
        }

        @Test func aCopyHoldsOneStateOfASourceBeingWritten() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let (url, writer) = try Self.sourceBeingWritten(in: directory)
            defer { Self.stop(writer) }
            let binary = try docstoreBinary()
            let copy = directory.appendingPathComponent("copy.sqlite").path
            let copied = try runProcess(binary, ["copy", url, copy])
            #expect(copied.status == 0, "\(copied.stderr)")
            #expect(writer.isRunning, "the writer must still be writing when the copy ends (make it write longer)")
            let states = try runProcess(binary, [copy, "--mode", "ndjson", "-c", "t.query.distinctValues(of: \\.v)", "-c", "t.count()"])
            let lines = states.stdout.split(separator: "\n")
            #expect(lines.count == 2 && lines[1] == "12000", "\(states.stdout) \(states.stderr)")
            #expect(lines.first.map { !$0.contains(",") } == true, "the copy mixes states: v takes the values \(lines.first ?? "")")
        }

        /// `.export COLL FILE` on PostgreSQL, the same: one state in the file.
        @Test func anExportHoldsOneStateOfACollectionBeingWritten() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let (url, writer) = try Self.sourceBeingWritten(in: directory)
            defer { Self.stop(writer) }
            let file = directory.appendingPathComponent("t.ndjson").path
            let exported = try runProcess(try docstoreBinary(), [url, "-c", ".export t \(file)"])
            #expect(exported.status == 0, "\(exported.stderr)")
            #expect(writer.isRunning, "the writer must still be writing when the export ends")
            let values = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map { line -> Int in
                let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                return object?["v"] as? Int ?? -1
            }
            #expect(values.count == 12_000)
            #expect(Set(values).count == 1, "the export mixes states: v takes the values \(Set(values).sorted())")
        }
    }
}
