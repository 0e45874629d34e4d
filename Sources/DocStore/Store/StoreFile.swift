import Foundation
import GRDB

/// Checks made before a file is opened as a store, so that a file that isn't one
/// is refused before SQLite (or GRDB's switch to WAL mode) writes anything to it,
/// and so that opening an existing store needs no write lock.
enum StoreFile {
    static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// What the inspection found.
    enum State {
        /// No file, an empty file, or a SQLite database without tables: opening
        /// installs the catalog (the one open that writes).
        case new
        /// A store whose catalog was read and found sound.
        case existing
    }

    /// `timeout` in seconds, within what SQLite's busy timeout can hold:
    /// 0 to `Int32.max` milliseconds.
    static func sqliteBusyTimeout(_ timeout: Duration) -> TimeInterval {
        // A second short of the limit: milliseconds computed from seconds in
        // floating point may round up past it.
        let longest = Duration.milliseconds(Int64(Int32.max) - 1000)
        return max(.zero, min(timeout, longest)).timeInterval
    }

    static func configuration(readOnly: Bool, busyTimeout: Duration) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readOnly
        // Wait for another process's lock instead of failing at once. SQLite
        // takes the wait in milliseconds as a 32-bit integer: a longer wait is
        // its longest (about 24.8 days), not a trap converting it.
        configuration.busyMode = .timeout(Self.sqliteBusyTimeout(busyTimeout))
        configuration.prepareDatabase { db in
            // Case-insensitive queries call Swift's case mapping (see CaseFolding).
            db.add(function: CaseFolding.function)
            // Computed values that overflow fail the statement (see ExpressionSQL).
            db.add(function: ArithmeticOverflow.function)
            // Reals an update writes, as Swift prints them (see RealText).
            db.add(function: RealText.function)
            // WAL with synchronous=NORMAL: a commit survives a process crash; only
            // power loss can roll back the last transactions, never corrupt the file.
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
        return configuration
    }

    /// Looks at the file without writing to it or taking a write lock, except
    /// for the copy of a damaged write-ahead log that `damagedLog` may ask for
    /// (returned as `setAside`).
    static func inspect(path: String, readOnly: Bool, busyTimeout: Duration,
                        damagedLog: DamagedLogHandling = .refuse) throws -> (state: State, setAside: SetAsideLog?) {
        guard FileManager.default.fileExists(atPath: path) else {
            if readOnly {
                throw DocStoreError.cannotOpen(path: path, reason: "the file does not exist (opened read-only, so it is not created)")
            }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw DocStoreError.cannotOpen(path: path, reason: "the folder \(folder) does not exist")
            }
            if access(folder, W_OK) != 0 {
                throw DocStoreError.fileNotWritable(path: path, reason: "the folder \(folder) can't be written, so the store can't be created there")
            }
            return (.new, nil)
        }
        // A directory, a pipe or a device: opening a pipe to read its header
        // would wait forever for a writer.
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            let kind = switch status.st_mode & S_IFMT {
            case S_IFDIR: "a directory"
            case S_IFIFO: "a named pipe"
            case S_IFCHR, S_IFBLK: "a device"
            case S_IFSOCK: "a socket"
            default: "not a regular file"
            }
            throw DocStoreError.cannotOpen(path: path, reason: "it is \(kind), not a file: a store is a regular file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = errno == EACCES ? "permission denied: the file can't be read" : String(cString: strerror(errno))
            throw DocStoreError.cannotOpen(path: path, reason: reason)
        }
        let header: [UInt8]
        do {
            // Two bytes more: the page size, which reads a log whose header lost its own.
            header = try handle.read(upToCount: sqliteHeader.count + 2).map(Array.init) ?? []
            try? handle.close()
        } catch {
            try? handle.close()
            throw DocStoreError.ioError(path: path, reason: "reading the file's header failed: \(error.localizedDescription)")
        }
        if !readOnly { try checkWritable(path) }
        if header.isEmpty { return (.new, nil) }  // an empty file becomes a store
        guard header.count >= sqliteHeader.count, header.starts(with: sqliteHeader) else {
            throw DocStoreError.notAStore(path: path, reason: "it is not a SQLite database")
        }
        // Before any connection: SQLite's first one would drop the commits
        // behind a damaged frame of the log, and its first write destroy them.
        let pageSize = header.count == sqliteHeader.count + 2 ? Int(header[16]) << 8 | Int(header[17]) : nil
        let setAside = try checkLog(path: path, readOnly: readOnly, handling: damagedLog,
                                    databasePageSize: pageSize == 1 ? 65536 : pageSize)
        // A SQLite file: look inside with a read-only connection, which changes nothing.
        do {
            let queue = try DatabaseQueue(path: sqliteLocation(path: path, readOnly: readOnly),
                                          configuration: configuration(readOnly: true, busyTimeout: busyTimeout))
            defer { try? queue.close() }
            return try queue.read { db in
                if let problem = try Catalog.problem(in: db, path: path) { throw problem }
                return (try Catalog.isInstalled(in: db) ? .existing : .new, setAside)
            }
        } catch let error as DatabaseError {
            throw fileError(error, path: path)
        }
    }

    /// A store opened for writing needs its file and its folder writable: SQLite
    /// keeps the `-wal` and `-shm` files beside it.
    private static func checkWritable(_ path: String) throws {
        if access(path, W_OK) != 0 {
            throw DocStoreError.fileNotWritable(path: path, reason: "the file is read-only (\(String(cString: strerror(errno))))")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if access(folder, W_OK) != 0, !FileManager.default.fileExists(atPath: path + "-wal") {
            // On a read-only file system, reading it read-only works (immutable);
            // elsewhere even a reader must create the -shm file there.
            guard isOnReadOnlyFileSystem(path) else {
                throw DocStoreError.cannotOpen(path: path, reason: "the folder \(folder) can't be written (another user's folder?), and SQLite keeps its -wal and -shm files beside the store, which even a reader must create; copy the store into a folder you can write and open the copy")
            }
            throw DocStoreError.fileNotWritable(path: path, reason: "the folder \(folder) can't be written, and SQLite keeps its -wal and -shm files beside the store")
        }
    }

    /// The error for a failure while opening or inspecting the file: a lock, a
    /// read-only file, an I/O error and a damaged file each say so.
    static func fileError(_ error: DatabaseError, path: String) -> DocStoreError {
        let message = error.message ?? "\(error)"
        switch error.resultCode.primaryResultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return .corruptStore(path: path, findings: integrityFindings(path: path) ?? [message])
        case .SQLITE_READONLY where access(URL(fileURLWithPath: path).deletingLastPathComponent().path, W_OK) != 0:
            // Read-only already: SQLite's readers of a WAL store need its -shm
            // index, which they create beside the file (advice to open it
            // read-only would send the user round in a circle).
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            return .cannotOpen(path: path, reason: "SQLite reads a store through its -shm index, which it must create beside the file, and the folder \(folder) can't be written (another user's folder?); copy the store into a folder you can write and open the copy (\(message))")
        default:
            return DocStoreError(sqliteCode: error.resultCode.primaryResultCode.rawValue, message: message, collection: nil, path: path)
        }
    }

    /// `PRAGMA integrity_check`'s first findings, on a read-only connection; nil
    /// when even that can't run.
    static func integrityFindings(path: String) -> [String]? {
        var configuration = Configuration()
        configuration.readonly = true
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return nil }
        defer { try? queue.close() }
        let findings = try? queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check(20)") }
        guard let findings, !findings.isEmpty else { return nil }
        return findings.map { "integrity check: " + $0 }
    }
}

extension Duration {
    /// Seconds, as Foundation and GRDB count time.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
