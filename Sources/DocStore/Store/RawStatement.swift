import Foundation
import GRDB
import GRDBSQLite

/// A failure reported by SQLite while stepping a statement; the collection layer
/// turns it into a ``DocStoreError`` that names the collection and key.
struct SQLiteFailure: Error {
    var code: Int32
    var extendedCode: Int32
    var message: String

    var isPrimaryKeyViolation: Bool { extendedCode == 1555 /* SQLITE_CONSTRAINT_PRIMARYKEY */ }
    var isUniqueViolation: Bool { extendedCode == 2067 /* SQLITE_CONSTRAINT_UNIQUE */ }
    var isReadOnly: Bool { code == SQLITE_READONLY }
    /// A table that a cached entry promised is gone (dropped by another process).
    var isMissingTable: Bool { code == SQLITE_ERROR && message.hasPrefix("no such table") }
}

/// A statement prepared and cached by GRDB, stepped directly through the SQLite C
/// API. This is the hot path of every read and write: binding document bytes and
/// reading them back without copies or `DatabaseValue` boxes.
///
/// Only valid inside the GRDB database access that produced it.
struct RawStatement {
    let handle: OpaquePointer
    private let connection: OpaquePointer?
    /// Keeps an uncached GRDB statement alive while it is stepped.
    private let owner: Statement?

    /// A statement prepared outside GRDB, owned by its connection (see `PointReader`).
    init(handle: OpaquePointer, connection: OpaquePointer) {
        self.handle = handle
        self.connection = connection
        self.owner = nil
    }

    /// `sql` as GRDB's statement cache gets it. That cache is keyed by `String`,
    /// whose equality merges texts that differ only in Unicode normalization
    /// (see ExactText), so SQL holding non-ASCII text ends in a comment spelling
    /// those bytes in hex: two such statements are two keys, and both stay
    /// cached (not caching them re-prepared every query on a non-ASCII name).
    static func cacheKey(_ sql: String) -> String {
        guard sql.utf8.contains(where: { $0 >= 0x80 }) else { return sql }
        let hex = sql.utf8.lazy.filter { $0 >= 0x80 }.map { String($0, radix: 16) }.joined()
        return sql + " /* " + hex + " */"
    }

    /// A statement from GRDB's cache (`cached`, the default: for statements run
    /// again and again), or prepared for this use only (for a streaming read whose
    /// caller may run the same statement inside the loop).
    init(_ db: Database, sql: String, cached: Bool = true) throws {
        let statement = cached ? try db.cachedStatement(sql: Self.cacheKey(sql)) : try db.makeStatement(sql: sql)
        owner = statement
        handle = statement.sqliteStatement
        connection = db.sqliteConnection
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// A statement GRDB prepared earlier on `db`'s connection, run again.
    init(prepared statement: Statement, in db: Database) {
        owner = statement
        handle = statement.sqliteStatement
        connection = db.sqliteConnection
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// How many times SQLite prepared the statement again because the schema
    /// changed (another connection created, dropped or altered something).
    var reprepareCount: Int32 {
        sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
    }

    /// Whether the statement has never run to a reset yet (just prepared).
    var isFirstRun: Bool {
        sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_RUN, 0) == 0
    }

    /// The GRDB statement this one steps, when GRDB prepared it.
    var prepared: Statement? { owner }

    /// Binds a compiled query's values to its parameters, in order.
    func bind(_ bindings: [SQLBinding]) {
        for (offset, binding) in bindings.enumerated() {
            bind(binding, at: Int32(offset + 1))
        }
    }

    func bind(_ binding: SQLBinding, at index: Int32) {
        switch binding {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let i): sqlite3_bind_int64(handle, index, i)
        case .double(let d): sqlite3_bind_double(handle, index, d)
        case .text(let s): bindTransient(s, at: index)
        case .blob(let bytes):
            // A zero-length blob, not NULL, when empty.
            if bytes.isEmpty { sqlite3_bind_zeroblob(handle, index, 0); return }
            bytes.withUnsafeBytes { buffer in
                _ = sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count),
                                      unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
        }
    }

    func bind(_ key: DocumentKey, at index: Int32) {
        switch key {
        case .integer(let i): sqlite3_bind_int64(handle, index, i)
        case .string(let s): bindTransient(s, at: index)
        case .uuid(let u): bindTransient(u.uuidString, at: index)
        }
    }

    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    func bind(_ value: Double, at index: Int32) {
        sqlite3_bind_double(handle, index, value)
    }

    func bindNull(at index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    /// Binds text that SQLite copies, so the Swift string may go away.
    func bindTransient(_ text: String, at index: Int32) {
        let utf8 = text.utf8CString  // keeps embedded NULs; the last byte is the terminator
        utf8.withUnsafeBufferPointer { buffer in
            // SQLITE_TRANSIENT: SQLite copies the bytes before this returns.
            _ = sqlite3_bind_text(handle, index, buffer.baseAddress, Int32(buffer.count - 1),
                                  unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }

    /// Binds text without a copy: the bytes must stay alive until the statement is
    /// stepped. Use inside `withUnsafeBytes` around the `step()`.
    func bindStatic(_ utf8: UnsafeRawBufferPointer, at index: Int32) {
        let base = utf8.baseAddress?.assumingMemoryBound(to: CChar.self)
        sqlite3_bind_text(handle, index, base ?? UnsafePointer(bitPattern: 1), Int32(utf8.count), nil)
    }

    /// Steps once. Returns true when a row is available, false when done.
    @discardableResult
    func step() throws(SQLiteFailure) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let failure = SQLiteFailure(
                code: code & 0xFF,
                extendedCode: sqlite3_extended_errcode(connection),
                message: String(cString: sqlite3_errmsg(connection)))
            sqlite3_reset(handle)
            throw failure
        }
    }

    /// The bytes of a text or blob column of the current row, valid until the next step.
    func bytes(at column: Int32) -> UnsafeRawBufferPointer {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let pointer = sqlite3_column_blob(handle, column) else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }

    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func double(at column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    func columnType(at column: Int32) -> Int32 {
        sqlite3_column_type(handle, column)
    }

    func string(at column: Int32) -> String {
        let buffer = bytes(at: column)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Reads a key column in the representation of the collection's key kind.
    func key(at column: Int32, kind: KeyKind) -> DocumentKey {
        switch kind {
        case .integer:
            return .integer(int64(at: column))
        case .string:
            return .string(string(at: column))
        case .uuid:
            let text = string(at: column)
            // A key that isn't a UUID can only come from outside DocStore; show it as text.
            return UUID(uuidString: text).map(DocumentKey.uuid) ?? .string(text)
        }
    }

    /// Resets the statement so it releases its read lock and bindings before the
    /// cache hands it out again.
    func finish() {
        sqlite3_reset(handle)
    }
}
