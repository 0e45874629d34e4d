import Foundation
import Testing
@testable import DocStore

/// Issue 9, item 1 at the store's level: when the disk fills, SQLite rolls the
/// whole transaction back on its own. DocStore must then refuse to write on in
/// autocommit mode, or a transaction would commit piecemeal.
///
/// The disk is filled for real: `PRAGMA max_page_count` makes SQLite's file
/// allocator fail exactly as a full file system does (SQLITE_FULL).
@Suite("Fault: disk full")
struct DiskFullTests {
    struct Row: Codable, Identifiable {
        var id: Int
        var text: String
    }

    /// A file store whose file can't grow past about 160 KB.
    func smallStore() throws -> (DocumentStore, URL) {
        let (path, directory) = try temporaryStorePath()
        let store = try DocumentStore(path: path)
        try store.collection(Row.self).insert(Row(id: 0, text: "before"))
        try store.databaseWriter.write { db in try db.execute(sql: "PRAGMA max_page_count = 40") }
        return (store, directory)
    }

    @Test func aFullDiskIsReportedAsSuchAndTheWriteIsAllOrNothing() throws {
        let (store, directory) = try smallStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = store.collection(Row.self)
        let error = try #require(throws: DocStoreError.self) {
            try rows.insert(contentsOf: (1...2000).map { Row(id: $0, text: String(repeating: "x", count: 500)) })
        }
        guard case .diskFull(let collection, _) = error else { Issue.record("expected diskFull, got \(error)"); return }
        #expect(collection == "rows")
        #expect("\(error)".contains("disk is full"))
        #expect(try rows.count() == 1, "nothing of the batch was kept")
    }

    @Test func aWriteBlockThatSwallowsTheErrorCommitsNothingAfterSQLiteRolledItBack() throws {
        let (store, directory) = try smallStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = store.collection(Row.self)
        var failures: [DocStoreError] = []
        #expect(throws: (any Error).self, "the block's commit fails: its transaction is gone") {
            try store.write { _ in
                for id in 1...2000 {
                    do {
                        try rows.insert(Row(id: id, text: String(repeating: "x", count: 500)))
                    } catch let error as DocStoreError {
                        failures.append(error)  // a careless caller goes on
                    }
                }
            }
        }
        #expect(failures.count > 1000, "every write after the roll-back was refused")
        if case .diskFull = failures.first {} else { Issue.record("the first failure is the full disk: \(String(describing: failures.first))") }
        #expect(try rows.count() == 1, "no document was committed piecemeal in autocommit mode")
        #expect(try rows.get(0)?.text == "before")
    }
}
