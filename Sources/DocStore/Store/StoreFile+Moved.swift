import Foundation
import GRDB
import GRDBSQLite

/// A store whose file another program deleted, renamed or replaced (`rm`,
/// `mv new.db store.db`) after the store opened it. SQLite goes on writing to
/// the file it has open: a commit then reports success and lands in a file no
/// longer at the store's path (deleted: on no file at all), and the next open of
/// the path finds none of it. SQLite can tell (`SQLITE_FCNTL_HAS_MOVED`: one
/// `stat` of the path against the open file), so writes ask first and are
/// refused, nothing written.
extension DocumentStore {
    /// Whether the file this store has open is no longer the file at ``path``:
    /// another program deleted, renamed or replaced it. Writes are refused then
    /// (``DocStoreError/storeFileMoved(path:)``), and so is a read that would
    /// open a new connection, which would open the file at the path now. Reads
    /// on connections opened before go on in the file the store opened (a
    /// `stat` each would slow every get). Close the store and open the path
    /// again to work on what is there now. Always false for an in-memory store.
    ///
    /// When the file was moved, this also moves the store's write-ahead log
    /// into the file it has open (see ``foldLogIfMoved()``), so that the log
    /// no longer sits beside the path as if it were the new file's.
    public func fileWasMoved() throws -> Bool {
        guard path != nil else { return false }
        let moved = try writer.unsafeReentrantRead { db in Self.hasMoved(db) }
        if moved, storeAccessDepth.current == 0 { foldLogIfMoved() }
        return moved
    }

    /// Throws ``DocStoreError/storeFileMoved(path:)`` when the store's file
    /// was moved; called as a write begins.
    func refuseWritesIfMoved(_ db: Database) throws {
        guard let path, Self.hasMoved(db) else { return }
        // The log goes into the moved file now, not at close only: a process
        // killed before it closes would leave it beside the path.
        if !db.isInsideTransaction { Self.foldLog(db) }
        throw DocStoreError.storeFileMoved(path: path)
    }

    /// Folds the write-ahead log into the file this store has open (wherever
    /// it is now) and empties the log, when that file was moved. The log is
    /// named by the path, so it stays beside whatever file is there now, and
    /// SQLite skips its checkpoint at close for a moved file: the next open of
    /// the path read the old log's pages as the new file's, showing the old
    /// store's documents in place of the new file's. Called as the store
    /// closes, after its readers.
    func foldLogIfMoved() {
        guard path != nil, !isReadOnly else { return }
        writer.writeWithoutTransaction { db in
            if Self.hasMoved(db) { Self.foldLog(db) }
        }
    }

    /// Checkpoints the log into the open file and empties it (best effort: a
    /// reader's snapshot may keep part of it until it ends).
    private static func foldLog(_ db: Database) {
        try? db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }

    private static func hasMoved(_ db: Database) -> Bool {
        // No connection: the store was closed (deinit closes again).
        guard let connection = db.sqliteConnection else { return false }
        var moved: Int32 = 0
        // SQLITE_OK or SQLITE_NOTFOUND (a VFS without the control): only a
        // definite answer refuses.
        guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK else { return false }
        return moved != 0
    }
}

/// Which file a path names (its device and inode): told apart from another
/// file moved to the same path.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The file at `path` now; nil when there is none.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }

    /// Throws ``DocStoreError/storeFileMoved(path:)`` when the file at `path`
    /// is no longer the file with this identity. Called as a reading connection
    /// opens: it opens the path, so after a move it would read another file than
    /// the store's (another store's documents, or none), which the store's
    /// writer and its other readers never see.
    func refuseAnother(at path: String) throws {
        guard FileIdentity(path: path) != self else { return }
        throw DocStoreError.storeFileMoved(path: path)
    }
}
