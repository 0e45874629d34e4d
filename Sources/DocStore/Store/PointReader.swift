import Foundation
import GRDBSQLite
import Synchronization

/// Single-document reads of a file store on DocStore's own read-only SQLite
/// connections.
///
/// A point read in SQLite costs a few microseconds; checking a reader out of
/// GRDB's pool (a dispatch queue hop and a semaphore) costs as much again. So
/// `get` and `exists` — outside any transaction — step a statement prepared on
/// one of these connections instead, taken from a lock-protected free list.
/// Everything else, and every read inside `write { }`/`read { }` blocks (which must
/// see their own transaction), goes through GRDB.
final class PointReader: Sendable {
    private let path: String
    private let busyTimeout: Duration
    private let idle = Mutex<[ReadConnection]>([])
    /// Connections kept open when idle; more are opened under load and closed after.
    private static let maximumIdle = 8

    init(path: String, busyTimeout: Duration) {
        self.path = path
        self.busyTimeout = busyTimeout
    }

    /// Closes the idle connections (the store is going away).
    func close() {
        idle.withLock { $0.removeAll() }
    }

    /// Runs `body` with the statement for `sql` on an idle connection.
    func withStatement<R>(_ sql: String, _ body: (RawStatement) throws -> R) throws -> R {
        let connection = try idle.withLock { $0.popLast() } ?? ReadConnection(path: path, busyTimeout: busyTimeout)
        defer {
            idle.withLock { connections in
                if connections.count < Self.maximumIdle { connections.append(connection) }
            }
        }
        let statement = try connection.statement(sql)
        defer { statement.finish() }
        return try body(statement)
    }
}

/// One read-only connection and the statements prepared on it. Used by one thread
/// at a time (it is only reachable through `PointReader`'s free list).
final class ReadConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    init(path: String, busyTimeout: Duration) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw SQLiteFailure(code: code, extendedCode: code, message: message)
        }
        sqlite3_busy_timeout(handle, Int32(clamping: Int64(busyTimeout.timeInterval * 1000)))
        self.handle = handle
    }

    func statement(_ sql: String) throws -> RawStatement {
        if let prepared = statements[sql] {
            return RawStatement(handle: prepared, connection: handle)
        }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            throw SQLiteFailure(code: code, extendedCode: sqlite3_extended_errcode(handle),
                                message: String(cString: sqlite3_errmsg(handle)))
        }
        statements[sql] = prepared
        return RawStatement(handle: prepared, connection: handle)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }
}

/// A per-thread nesting counter.
struct ThreadDepth: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
    }

    var current: Int {
        Int(bitPattern: pthread_getspecific(key))
    }

    /// Runs `body` one level deeper.
    func inside<R>(_ body: () throws -> R) rethrows -> R {
        let depth = current
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth + 1))
        defer { pthread_setspecific(key, UnsafeRawPointer(bitPattern: depth)) }
        return try body()
    }
}

/// How deeply the current thread is inside a GRDB access of some store. Reads at
/// depth 0 may use a `PointReader`; deeper ones belong to the enclosing access
/// (a transaction that must see its own writes, or a snapshot).
let storeAccessDepth = ThreadDepth()

/// How deeply the current thread is inside a write access: reads there run on the
/// writer's connection, which alone sees the open transaction.
let writeAccessDepth = ThreadDepth()

/// How many transactions and savepoints that DocStore opened the current thread is
/// inside: a write at depth > 0 on a connection with no open transaction means
/// SQLite rolled the transaction back on its own (a full disk, an I/O error), and
/// must not run in autocommit mode (see ``DocumentStore/writeAccess(_:)``).
let openTransactionDepth = ThreadDepth()
