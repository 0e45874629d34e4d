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
///
/// Async point reads come in batches (see ``WorkLane``), and a batch runs in one
/// read transaction on one connection (``inBatch(_:)``): an autocommit read takes
/// and releases SQLite's shared-memory locks and checks the file for changes each
/// time, which costs about as much as the read itself.
final class PointReader: Sendable {
    private let path: String
    private let busyTimeout: Duration
    private let idle = Mutex<[ReadConnection]>([])
    private let isClosed = Atomic(false)
    /// Connections kept open when idle; more are opened under load and closed after.
    private static let maximumIdle = 8

    /// Asked as a connection opens: throws when the path no longer names the
    /// store's file (``FileIdentity/refuseAnother(at:)``).
    private let checkFile: @Sendable () throws -> Void

    init(path: String, busyTimeout: Duration, checkFile: @escaping @Sendable () throws -> Void = {}) {
        self.path = path
        self.busyTimeout = busyTimeout
        self.checkFile = checkFile
    }

    /// Closes the idle connections (the store is going away); connections in use
    /// close when their read ends.
    func close() {
        isClosed.store(true, ordering: .releasing)
        idle.withLock { $0.removeAll() }
    }

    /// Runs `body` with the statement for `sql` on an idle connection, or on the
    /// connection of this thread's batch, and that connection (for another
    /// statement in the same read).
    func withStatement<R>(_ sql: String, _ body: (RawStatement, ReadConnection) throws -> R) throws -> R {
        if let batch = currentBatch.value, batch.reader == ObjectIdentifier(self) {
            let connection = try batch.connection ?? startTransaction(of: batch)
            let statement = try connection.statement(sql)
            defer { statement.finish() }
            return try body(statement, connection)
        }
        let connection = try checkOut()
        defer { checkIn(connection) }
        let statement = try connection.statement(sql)
        defer { statement.finish() }
        return try body(statement, connection)
    }

    /// Runs `body`, whose point reads on this thread share one connection and one
    /// read transaction, begun at the first of them: every read sees the store as
    /// it was then, which is at least as recent as when each was asked for, since
    /// a batch only holds reads queued before it started.
    func inBatch(_ body: () -> Void) {
        let outer = currentBatch.value
        let batch = PointReadBatch(reader: ObjectIdentifier(self))
        currentBatch.value = batch
        body()
        currentBatch.value = outer
        // A connection somehow still inside a transaction is not reused.
        if let connection = batch.connection, connection.endReadTransaction() { checkIn(connection) }
    }

    private func startTransaction(of batch: PointReadBatch) throws -> ReadConnection {
        let connection = try checkOut()
        do {
            try connection.beginReadTransaction()
        } catch {
            checkIn(connection)
            throw error
        }
        batch.connection = connection
        return connection
    }

    private func checkOut() throws -> ReadConnection {
        if let connection = idle.withLock({ $0.popLast() }) { return connection }
        let connection = try ReadConnection(path: path, busyTimeout: busyTimeout)
        try checkFile()  // after the open: a move during it is seen
        return connection
    }

    private func checkIn(_ connection: ReadConnection) {
        guard !isClosed.load(ordering: .acquiring) else { return }
        idle.withLock { connections in
            if connections.count < Self.maximumIdle { connections.append(connection) }
        }
    }
}

/// One read-only connection and the statements prepared on it. Used by one thread
/// at a time (it is only reachable through `PointReader`'s free list).
final class ReadConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    private var statements: [ExactText: OpaquePointer] = [:]  // by bytes (see ExactText)

    init(path: String, busyTimeout: Duration) throws {
        var handle: OpaquePointer?
        // SQLITE_OPEN_URI: a store on a read-only file system is an `immutable=1` URI.
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw SQLiteFailure(code: code, extendedCode: code, message: message)
        }
        sqlite3_busy_timeout(handle, Int32(StoreFile.sqliteBusyTimeout(busyTimeout) * 1000))
        self.handle = handle
    }

    func statement(_ sql: String) throws -> RawStatement {
        if let prepared = statements[ExactText(sql)] {
            return RawStatement(handle: prepared, connection: handle)
        }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            throw SQLiteFailure(code: code, extendedCode: sqlite3_extended_errcode(handle),
                                message: String(cString: sqlite3_errmsg(handle)))
        }
        statements[ExactText(sql)] = prepared
        return RawStatement(handle: prepared, connection: handle)
    }

    /// `BEGIN`: the read transaction starts at the first read after it.
    func beginReadTransaction() throws {
        let begin = try statement("BEGIN DEFERRED")
        defer { begin.finish() }
        _ = try begin.step()
    }

    /// Ends the read transaction; false when the connection is somehow still
    /// inside one (it must then not be reused).
    func endReadTransaction() -> Bool {
        if sqlite3_get_autocommit(handle) == 0 {
            if let commit = try? statement("COMMIT") {
                _ = try? commit.step()
                commit.finish()
            }
        }
        return sqlite3_get_autocommit(handle) != 0
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }
}

/// The batch of point reads the current thread runs (see ``PointReader/inBatch(_:)``).
final class PointReadBatch {
    /// The point reader whose reads the batch groups (other stores' go as usual).
    let reader: ObjectIdentifier
    /// Pinned at the batch's first read, its read transaction open.
    var connection: ReadConnection?

    init(reader: ObjectIdentifier) {
        self.reader = reader
    }
}

private let currentBatch = ThreadSlot<PointReadBatch>()

/// A per-thread reference to an object, which the slot keeps alive while set.
/// For globals only: a thread-specific key is never given back.
struct ThreadSlot<Object: AnyObject>: @unchecked Sendable {
    // @unchecked: each thread reads and writes only its own value.
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
    }

    var value: Object? {
        get { pthread_getspecific(key).map { Unmanaged<Object>.fromOpaque($0).takeUnretainedValue() } }
        nonmutating set {
            if let old = pthread_getspecific(key) { Unmanaged<Object>.fromOpaque(old).release() }
            pthread_setspecific(key, newValue.map { Unmanaged.passRetained($0).toOpaque() })
        }
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
