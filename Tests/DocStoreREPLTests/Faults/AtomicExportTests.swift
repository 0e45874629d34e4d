import DocStore
import Foundation
import Testing
@testable import DocStoreREPL

/// `.export` only ever creates or replaces the one file it names, atomically:
/// never a directory, never half a file, never a temporary file left behind.
@Suite("Fault: files written atomically")
struct AtomicExportTests {
    let directory: URL
    let store: DocumentStore

    init() throws {
        directory = try temporaryDirectory()
        store = try DocumentStore.inMemory()
        // Enough documents to span several writes of the export's buffer.
        try store.collection(named: "players").insert(contentsOf: (1...3000).map { number -> JSONValue in
            ["id": .integer(Int64(number)), "name": .string("player \(number)"), "bio": .string(String(repeating: "b", count: 100))]
        })
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func export(to path: String, interruption: Interruption? = nil) -> Result<Int, any Error> {
        var exporter = Exporter(store: store, collection: "players")
        exporter.interruption = interruption
        return Result { try exporter.export(toPath: path) }
    }

    func errorText(_ result: Result<Int, any Error>) -> String {
        switch result {
        case .success(let count): "succeeded with \(count) documents"
        case .failure(let error): "\(error)"
        }
    }

    /// Every file and folder under the test's directory, relative to it.
    func tree() throws -> [String] {
        (FileManager.default.subpaths(atPath: directory.path) ?? []).sorted()
    }

    /// An export killed with SIGKILL can't remove its hidden temporary file
    /// (megabytes, never reused): the next write of the same file removes it,
    /// and leaves alone one whose process still runs (helper-41).
    @Test(.timeLimit(.minutes(10)))
    func aKilledExportsTemporaryFileIsRemovedByTheNextExport() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let storePath = path("s.sqlite")
        let fileStore = try DocumentStore(path: storePath)
        try fileStore.collection(named: "big").insert(contentsOf: (1...60_000).map {
            ["id": .integer(Int64($0)), "text": .string(String(repeating: "t", count: 200))]
        })
        try fileStore.close()
        let process = Process()
        process.executableURL = try docstoreBinary()
        process.arguments = [storePath, "-c", ".export big \(path("out.ndjson"))"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) }; process.waitUntilExit() }
        let partials = { (try? FileManager.default.contentsOfDirectory(atPath: self.directory.path))?.filter { $0.hasSuffix(".partial") } ?? [] }
        let deadline = Date().addingTimeInterval(30)
        while partials().isEmpty, process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let stale = partials()
        try #require(stale.count == 1, "the killed export left its temporary file: \(stale)")
        // Another live writer's file (this process's) is left alone.
        let live = ".out.ndjson.\(getpid()).abcdef12.partial"
        try Data("writing".utf8).write(to: directory.appendingPathComponent(live))

        #expect(try export(to: path("out.ndjson")).get() == 3000)
        #expect(partials() == [live], "\(partials())")
        #expect(try String(contentsOfFile: path("out.ndjson"), encoding: .utf8).split(separator: "\n").count == 3000)
    }

    @Test func aDirectoryWithFilesIsRefusedAndLeftWhole() throws {
        let folder = path("backup.ndjson")
        try FileManager.default.createDirectory(atPath: folder + "/inner", withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: folder + "/inner/keep.txt"))
        let text = errorText(export(to: folder))
        #expect(text.contains("cannot write \(folder): it is a directory"), "\(text)")
        #expect(try tree() == ["backup.ndjson", "backup.ndjson/inner", "backup.ndjson/inner/keep.txt"])
        #expect(try String(contentsOfFile: folder + "/inner/keep.txt", encoding: .utf8) == "precious")
    }

    @Test func aSymbolicLinkToADirectoryIsRefused() throws {
        try FileManager.default.createDirectory(atPath: path("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: path("link.ndjson"), withDestinationPath: path("real"))
        let text = errorText(export(to: path("link.ndjson")))
        #expect(text.contains("a symbolic link to a directory"), "\(text)")
        #expect(try tree() == ["link.ndjson", "real"])
    }

    @Test func aMissingFolderIsNamed() throws {
        let target = path("missing/out.ndjson")
        let text = errorText(export(to: target))
        #expect(text.contains("the folder \(path("missing")) does not exist"), "\(text)")
        #expect(try tree().isEmpty)
    }

    @Test func anExistingFileIsReplacedKeepingItsPermissions() throws {
        let target = path("players.ndjson")
        try Data("old content\n".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target)
        #expect(try export(to: target).get() == 3000)
        let lines = try String(contentsOfFile: target, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3000)
        #expect(try JanssonJSON.parse(String(lines[0])) == ["id": 1, "name": "player 1", "bio": .string(String(repeating: "b", count: 100))])
        let permissions = try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int
        #expect(permissions == 0o640)
        #expect(try tree() == ["players.ndjson"])
    }

    @Test func aFailedExportLeavesTheOldFileWholeAndNoTemporaryFile() throws {
        let target = path("players.ndjson")
        let old = Data("the previous export\n".utf8)
        try old.write(to: URL(fileURLWithPath: target))
        // A damaged document past the first buffer's worth stops the export midway.
        try store.databaseWriter.write { db in
            try db.execute(sql: "UPDATE \"players\" SET body = '{not json' WHERE key = 2500")
        }
        let text = errorText(export(to: target))
        #expect(text.contains("2500"), "\(text)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == old)
        #expect(try tree() == ["players.ndjson"])
    }

    @Test func anInterruptedExportLeavesTheOldFileWhole() throws {
        let target = path("players.json")
        let old = Data("[]\n".utf8)
        try old.write(to: URL(fileURLWithPath: target))
        let interruption = Interruption()
        interruption.request()
        let text = errorText(export(to: target, interruption: interruption))
        #expect(text.contains("interrupted"), "\(text)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == old)
        #expect(try tree() == ["players.json"])
    }

    @Test func theExecutableRefusesToExportOverADirectory() throws {
        let folder = path("backup.ndjson")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: folder + "/keep.txt"))
        let result = try runProcess(try docstoreBinary(), ["-c", ".export players \(folder)"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("it is a directory"), "\(result.stderr)")
        #expect(try tree() == ["backup.ndjson", "backup.ndjson/keep.txt"])
        #expect(try String(contentsOfFile: folder + "/keep.txt", encoding: .utf8) == "precious")
    }

    @Test func aReadOnlyFileIsLeftAsItIs() throws {
        // A rename would replace it whatever its mode (the folder decides), so
        // the writer must look: read-only means "keep", for root as well.
        let target = path("players.ndjson")
        let old = Data("keep me\n".utf8)
        try old.write(to: URL(fileURLWithPath: target))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: target)
        let text = errorText(export(to: target))
        #expect(text.contains("it is read-only (mode 444)"), "\(text)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == old)
        #expect(try tree() == ["players.ndjson"])
    }

    /// `.once /dev/stdout` resolves, through /proc/self/fd/1, to the file the
    /// shell redirected output into: replacing it lost the log's earlier lines
    /// (and left the shell writing into an unlinked file).
    @Test func theFileStandardOutputIsRedirectedIntoIsNotReplaced() throws {
        let log = path("log.txt")
        let binary = try docstoreBinary().path
        for target in ["/dev/stdout", "/proc/self/fd/1", log] {
            try Data("earlier line\n".utf8).write(to: URL(fileURLWithPath: log))
            let script = "printf '.once \(target)\\nplayers.count()\\n' | '\(binary)' >> '\(log)'; echo \"status $?\" >> '\(log)'"
            let run = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
            let written = try String(contentsOfFile: log, encoding: .utf8)
            #expect(written == "earlier line\nstatus 1\n", "\(target): \(written)")
            #expect(run.stderr.contains("it is the file this REPL's standard output is connected to"), "\(target): \(run.stderr)")
            #expect(try tree() == ["log.txt"])
        }
    }

    /// Standard output a pipe: /dev/stdout leads to /proc/self/fd/1, a link
    /// to "pipe:[…]" that no path names, and the refusal said "a symbolic
    /// link to nothing", which sent the user looking for a broken link.
    @Test func standardOutputOnAPipeIsRefusedAsWhatItIs() throws {
        let binary = try docstoreBinary().path
        for target in ["/dev/stdout", "/proc/self/fd/1"] {
            let script = "printf '.once \(target)\\nplayers.count()\\n' | '\(binary)' | cat; echo \"status ${PIPESTATUS[1]}\""
            let run = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
            #expect(run.stdout == "status 1\n", "\(target): \(run.stdout)")
            #expect(run.stderr.contains("cannot write \(target): it is not a regular file but what this REPL's standard output is connected to (a pipe or a terminal)"),
                    "\(target): \(run.stderr)")
            #expect(try tree().isEmpty)
        }
    }
}
