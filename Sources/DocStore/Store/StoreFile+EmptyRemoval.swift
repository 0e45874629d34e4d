import Foundation
import GRDB

extension DocumentStore {
    /// Why ``removeEmptyStoreFile(atPath:)`` left a store file in place.
    @_spi(Backends) public enum EmptyStoreRemoval: Equatable, Sendable {
        /// Removed, with its log.
        case removed
        /// Another connection (another process) has it open: its writes,
        /// committed or waiting, would go into a removed file.
        case inUse
        /// It holds documents, key/value entries or other tables' rows.
        case holdsData
        /// It could not be read as a store.
        case unreadable
    }

    /// Removes the store file at `path` and its log (`-wal`, `-shm`) when it
    /// holds no document and no other connection has it open, for a command
    /// that created the file and failed (`docstore copy`): an empty store, and
    /// on a full disk its log, was left behind. The store must be closed in
    /// this process first.
    ///
    /// Open elsewhere is told by SQLite itself: a file leaves WAL mode only
    /// when no other connection has it open, and is then held with an
    /// exclusive lock while it is checked and removed. Removing a file another
    /// process had open lost that process's write, which it had been told
    /// was committed (helper-50).
    @_spi(Backends) public static func removeEmptyStoreFile(atPath path: String) -> EmptyStoreRemoval {
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return .unreadable }
        defer { try? queue.close() }
        do {
            return try queue.inDatabase { db in
                do {
                    guard try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")?.lowercased() == "delete" else { return .inUse }
                    try db.execute(sql: "BEGIN EXCLUSIVE")
                } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                    return .inUse
                }
                defer { try? db.execute(sql: "ROLLBACK") }
                guard try holdsNoData(db) else { return .holdsData }
                for file in [path, path + "-wal", path + "-shm", path + "-journal"] { unlink(file) }
                return .removed
            }
        } catch {
            return .unreadable
        }
    }

    /// Whether no table holds a row but DocStore's catalog: collections (and
    /// other programs' tables) and the key/value area are empty.
    private static func holdsNoData(_ db: Database) throws -> Bool {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        for table in tables where !table.hasPrefix("docstore_") || table == Catalog.valuesTable {
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(quoteIdentifier(table)))") == true { return false }
        }
        return true
    }
}
