import Foundation
import GRDB
import Testing
@testable import DocStore

@Suite("Opening store files")
struct StoreFileTests {
    @Test func aNewFileBecomesAStoreAndReopens() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try DocumentStore(path: path)
            try store.collection(Team.self).insert(contentsOf: sampleTeams)
        }
        let reopened = try DocumentStore(path: path)
        #expect(try reopened.collection(Team.self).all() == sampleTeams)
        #expect(try reopened.collections() == [CollectionInfo(name: "teams", keyKind: .integer)])
    }

    @Test func aFileThatIsNotSQLiteIsRefusedAndLeftUntouched() throws {
        let (path, directory) = try temporaryStorePath("notes.txt")
        defer { try? FileManager.default.removeItem(at: directory) }
        let content = Data("just some text, not a database\n".utf8)
        try content.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: DocStoreError.self) { try DocumentStore(path: path) }
        guard case .notAStore(let errorPath, let reason) = error else {
            Issue.record("expected notAStore, got \(error)"); return
        }
        #expect(errorPath == path)
        #expect(reason.contains("not a SQLite database"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.txt"], "no -wal or -shm files were created")
    }

    /// A named pipe given as the store: reading its header waited forever for a
    /// writer (a copy to or from one too). A directory was "reading the file's
    /// header failed". Each is refused at once, saying what it is.
    @Test(.timeLimit(.minutes(10)), arguments: [("pipe", "it is a named pipe, not a file"), ("directory", "it is a directory, not a file")])
    func aPipeOrADirectoryIsRefusedAtOnceSayingWhatItIs(kind: String, says: String) throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        if kind == "pipe" { #expect(mkfifo(path, 0o600) == 0) } else { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false) }
        for readOnly in [false, true] {
            let error = try #require(throws: DocStoreError.self) { _ = try DocumentStore(path: path, readOnly: readOnly) }
            #expect("\(error)".contains(says), "\(error)")
        }
    }

    @Test func aSQLiteDatabaseWithOtherTablesIsRefusedAndLeftUntouched() throws {
        let (path, directory) = try temporaryStorePath("app.sqlite")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
                try db.execute(sql: "INSERT INTO customers (name) VALUES ('Ada')")
            }
            try queue.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: DocStoreError.self) { try DocumentStore(path: path) }
        #expect("\(error)".contains("is not a DocStore store: it is a SQLite database with other tables (customers)"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "not even switched to WAL")
    }

    @Test func aStoreFromANewerFormatIsRefusedAndLeftUntouched() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let store = try DocumentStore(path: path)
            try store.collection(Team.self).insert(sampleTeams[0])
            try store.databaseWriter.write { db in
                try db.execute(sql: "UPDATE docstore_meta SET value = 99 WHERE name = 'format_version'")
            }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: DocStoreError.self) { try DocumentStore(path: path) }
        guard case .unsupportedFormatVersion(_, let found, let supported) = error else {
            Issue.record("expected unsupportedFormatVersion, got \(error)"); return
        }
        #expect(found == 99)
        #expect(supported == Catalog.formatVersion)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func anEmptyFileBecomesAStore() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try DocumentStore(path: path)
        try store.collection(Team.self).insert(sampleTeams[0])
        #expect(try store.collection(Team.self).count() == 1)
    }

    @Test func readOnlyStoresReadButRefuseWrites() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try DocumentStore(path: path).collection(Team.self).insert(contentsOf: sampleTeams)
        }
        let store = try DocumentStore(path: path, readOnly: true)
        #expect(try store.collection(Team.self).count() == 4)
        let error = try #require(throws: DocStoreError.self) { try store.collection(Team.self).delete(1) }
        guard case .readOnly = error else { Issue.record("expected readOnly, got \(error)"); return }
        #expect(try store.collection(Team.self).count() == 4)
    }

    @Test func readOnlyDoesNotCreateAMissingFile() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: DocStoreError.self) { try DocumentStore(path: path, readOnly: true) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aMissingFolderIsNamedInsteadOfBlamingTheFile() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inMissingFolder = directory.appendingPathComponent("no-such-folder/store.sqlite").path
        let error = try #require(throws: DocStoreError.self) { try DocumentStore(path: inMissingFolder) }
        guard case .cannotOpen(_, let reason) = error else { Issue.record("expected cannotOpen, got \(error)"); return }
        #expect(reason.contains("no-such-folder does not exist"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
