import DocStore
import Foundation
import GRDB
import Testing

/// Issue 9, item 9: a read-only file, an I/O error and a damaged file each get
/// their own message (not "not a DocStore store"), and the file is never changed.
/// Each fault is real: file permissions for an unprivileged user, a file-size
/// limit that makes the kernel refuse writes (EFBIG, SQLite's I/O error), and
/// bytes overwritten in the file.
@Suite("Fault: file errors say what they are")
struct FileErrorLabelTests {
    func makeStore(documents: Int = 1) throws -> (path: String, directory: URL) {
        let directory = try temporaryDirectory()
        let path = directory.appendingPathComponent("store.sqlite").path
        let store = try DocumentStore(path: path)
        try store.collection(named: "events")
            .insert(contentsOf: (0..<documents).map { ["id": .integer(Int64($0)), "text": .string(String(repeating: "e", count: 200))] })
        // Everything into the main file, so that damaging it damages the data.
        _ = try store.databaseWriter.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        return (path, directory)
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Runs `docstore` through `bash -c`, after `setup` (a limit on this process)
    /// and under `wrapper` (another user), with `input` on its standard input.
    func docstore(_ arguments: [String], setup: String = "", wrapper: String = "", input: String? = nil,
                  binary: String? = nil) throws -> ProcessOutput {
        let binary = try binary ?? docstoreBinary().path
        let quoted = ([binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", "\(setup) exec \(wrapper) \(quoted)"], input: input)
    }

    @Test func aReadOnlyFileSaysSoAndOpensWithReadOnly() throws {
        let (path, directory) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Root ignores permission bits: run docstore as an unprivileged user then.
        // The folder stays writable for everyone (as /tmp is), so SQLite can keep
        // its -shm file there; only the store file is read-only.
        let asUnprivileged = getuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups" : ""
        try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: directory.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        // A copy of the binary the unprivileged user can surely reach (the build
        // folder may sit below folders only root can enter).
        let binary = directory.appendingPathComponent("docstore").path
        try FileManager.default.copyItem(atPath: try docstoreBinary().path, toPath: binary)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary)
        let before = try bytes(path)

        let write = try docstore([path, "-c", #"events.insert({"id": 5})"#], wrapper: asUnprivileged, binary: binary)
        #expect(write.status == 1)
        #expect(write.stderr.contains("can't be written"), "\(write.stderr)")
        #expect(write.stderr.contains("--read-only"), "the message says what to do: \(write.stderr)")
        #expect(!write.stderr.contains("not a DocStore store"))

        let read = try docstore([path, "--read-only", "--mode", "ndjson", "-c", "events.count()"], wrapper: asUnprivileged, binary: binary)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(try bytes(path) == before, "the file was not changed")
    }

    /// Another user's store in a folder this user can't write: SQLite must make
    /// the store's -shm file there even to read it, so --read-only doesn't help,
    /// and the messages (with it and without) no longer send the user to it.
    @Test func aStoreInAFolderThatCantBeWrittenSaysToCopyIt() throws {
        let (path, directory) = try makeStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard getuid() == 0 else { return }  // as another user, the folder below is root's
        let binary = directory.appendingPathComponent("docstore").path
        try FileManager.default.copyItem(atPath: try docstoreBinary().path, toPath: binary)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: binary)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let before = try bytes(path)
        let asUnprivileged = "setpriv --reuid=65534 --regid=65534 --clear-groups"
        for readOnly in [[], ["--read-only"]] {
            let result = try docstore([path] + readOnly + ["-c", "events.count()"], wrapper: asUnprivileged, binary: binary)
            #expect(result.status == 1)
            #expect(result.stderr.contains("can't be written (another user's folder?)") || result.stderr.contains("the folder \(directory.path) can't be written (another user's folder?)"), "\(result.stderr)")
            #expect(result.stderr.contains("copy the store into a folder you can write"), "\(result.stderr)")
            #expect(!result.stderr.contains("--read-only"), "the advice is not the flag just used: \(result.stderr)")
        }
        #expect(try bytes(path) == before)
    }

    @Test func anIOErrorWhileWritingSaysSoAndKeepsTheStoreWhole() throws {
        let (path, directory) = try makeStore(documents: 20)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Files of this process may not grow past 64 KiB: the write-ahead log of a
        // 1 MB insert fails with EFBIG, which SQLite reports as an I/O error.
        let limited = "ulimit -f 64; trap '' XFSZ;"
        let big = String(repeating: "x", count: 1_000_000)
        let insert = try docstore([path], setup: limited, input: #"events.insert({"id": 100, "text": "\#(big)"})"# + "\n")
        #expect(insert.status == 1)
        #expect(insert.stderr.contains("I/O error"), "\(insert.stderr.prefix(300))")
        #expect(!insert.stderr.contains("not a DocStore store"))
        #expect(try DocumentStore(path: path).collection(named: "events").count() == 20, "nothing of the failed write was kept")
    }

    @Test func anIOErrorWhileCreatingAStoreIsNotCalledNotAStore() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("empty.sqlite").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let result = try docstore([path, "-c", ".collections"], setup: "ulimit -f 0; trap '' XFSZ;")
        #expect(result.status == 1)
        #expect(result.stderr.contains("I/O error"), "\(result.stderr)")
        #expect(!result.stderr.contains("not a DocStore store"))
        #expect(try bytes(path).isEmpty, "the empty file is still empty")
    }

    @Test func aDamagedFileSaysSoWithTheIntegrityCheckAndIsNotChanged() throws {
        let (path, directory) = try makeStore(documents: 200)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Overwrite the schema page's b-tree (past the 100-byte file header).
        var damaged = try bytes(path)
        damaged.replaceSubrange(100..<1100, with: Data(repeating: 0xA5, count: 1000))
        try damaged.write(to: URL(fileURLWithPath: path))

        let result = try docstore([path, "-c", ".collections"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is a damaged SQLite database"), "\(result.stderr)")
        #expect(!result.stderr.contains("not a DocStore store"))
        #expect(try bytes(path) == damaged, "the file was not changed")
        #expect(throws: DocStoreError.self) { try DocumentStore(path: path, readOnly: true) }
    }

    @Test func damageInsideACollectionIsReportedWhenQueriedWithTheWayToCheck() throws {
        let (path, directory) = try makeStore(documents: 400)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Damage the last pages, where the collection's documents are.
        var damaged = try bytes(path)
        let pageSize = 4096
        try #require(damaged.count > 10 * pageSize, "the documents are in the main file")
        let start = damaged.count - 3 * pageSize
        damaged.replaceSubrange(start..<(start + 2 * pageSize), with: Data(repeating: 0x5A, count: 2 * pageSize))
        try damaged.write(to: URL(fileURLWithPath: path))

        let result = try docstore([path, "-c", "events.filter { $0.text == \"none\" }.count()"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("damaged SQLite database"), "\(result.stderr)")
        #expect(result.stderr.contains(".check"), "the message says how to learn more: \(result.stderr)")
        #expect(try bytes(path) == damaged, "the file was not changed")
    }
}
