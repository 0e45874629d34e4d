import Foundation
import Synchronization
import Testing
@testable import DocStore

/// Another program deletes the store's file, or puts another file in its
/// place (`mv new.db store.db`), while a store has it open. SQLite wrote on
/// into the file it had open and reported success: the commit landed in a file
/// no longer at the path (or on none), and the next open found none of it
/// (helper-55). Writes are refused now, nothing written.
@Suite("Fault: the store's file moved under it")
struct MovedStoreFileTests {
    /// Another store file beside the test's, holding document 7 of "p".
    static func otherStore(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("other.sqlite").path
        let other = try DocumentStore(path: path)
        try other.collection(named: "p").insert(["id": 7])
        try other.close()
        return path
    }

    @Test func aWriteToAFileAnotherProgramReplacedIsRefusedAndTheNewFileIsUntouched() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        try store.collection(named: "p").insert(["id": 1])
        #expect(try store.fileWasMoved() == false)

        // Another store file is renamed into the path.
        let otherPath = try Self.otherStore(in: directory)
        #expect(rename(otherPath, path) == 0)
        #expect(try store.fileWasMoved())

        let refused = try #require(throws: DocStoreError.self) { try store.collection(named: "p").insert(["id": 2]) }
        #expect(refused.description == DocStoreError.storeFileMoved(path: path).description)
        #expect(refused.localizedDescription.contains("was deleted, renamed or replaced by another program after this store opened it"))
        let inWrite = try #require(throws: DocStoreError.self) {
            try store.write { transaction in try transaction.collection(named: "p").insert(["id": 3]) }
        }
        #expect(inWrite.description == refused.description)
        try store.close()

        // The file now at the path holds its own document and nothing else.
        let reopened = try DocumentStore(path: path)
        #expect(try reopened.collection(named: "p").keys() == [.integer(7)])
        #expect(try reopened.fileWasMoved() == false)
        try reopened.collection(named: "p").insert(["id": 8])
        #expect(try reopened.collection(named: "p").keys() == [.integer(7), .integer(8)])
    }

    /// Reads on connections opened after the move opened the path, the other
    /// file: a store showed another store's documents beside its own, by
    /// whichever connection a read happened to get. Such a connection is
    /// refused now; the connections opened before read on in the store's file.
    @Test func readsNeverShowTheFileMovedIntoThePath() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        try store.collection(named: "p").insert(["id": 1])
        #expect(try store.collection(named: "p").get(1) != nil)
        let otherPath = try Self.otherStore(in: directory)
        #expect(rename(otherPath, path) == 0)

        // Reads at once, each holding its connection a while: the store opens
        // new ones for them.
        let moved = DocStoreError.storeFileMoved(path: path).description
        let outcomes = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            func outcome(_ read: () throws -> String) -> String {
                do { return try read() } catch let error as DocStoreError where error.description == moved { return "refused" } catch { return "\(error)" }
            }
            let keys = outcome {
                try store.read { transaction in
                    Thread.sleep(forTimeInterval: 0.3)
                    return "keys \(try transaction.collection(named: "p").keys())"
                }
            }
            let point = outcome { try store.collection(named: "p").get(7) == nil ? "no 7" : "found 7" }
            outcomes.withLock { $0 += [keys, point] }
        }
        let seen = outcomes.withLock { $0 }
        #expect(seen.allSatisfy { ["keys [1]", "no 7", "refused"].contains($0) }, "\(seen)")
        #expect(seen.contains("refused"), "\(seen)")
    }

    @Test func aWriteToADeletedFileIsRefused() throws {
        let (path, directory) = try temporaryStorePath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DocumentStore(path: path)
        try store.collection(named: "p").insert(["id": 1])
        #expect(unlink(path) == 0)
        let refused = try #require(throws: DocStoreError.self) { try store.collection(named: "p").insert(["id": 2]) }
        #expect(refused.description == DocStoreError.storeFileMoved(path: path).description)
        #expect(try store.fileWasMoved())
    }
}
