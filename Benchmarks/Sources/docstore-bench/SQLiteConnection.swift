import GRDBSQLite

/// A bare SQLite connection and prepared statements over the C API, for the raw C
/// peer: no caches, no boxes, statements prepared once and reset between rows.
final class SQLiteConnection {
    let handle: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            throw BenchmarkError("sqlite3_open_v2 \(path): \(code)")
        }
        self.handle = handle
    }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw BenchmarkError("\(sql): \(message.map { String(cString: $0) } ?? "error")")
        }
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchmarkError("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        return SQLiteStatement(handle: statement, connection: handle)
    }

    func close() {
        sqlite3_close_v2(handle)
    }
}

final class SQLiteStatement {
    let handle: OpaquePointer
    let connection: OpaquePointer

    init(handle: OpaquePointer, connection: OpaquePointer) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    @inline(__always)
    func bind(_ value: Int, at index: Int32) {
        sqlite3_bind_int64(handle, index, Int64(value))
    }

    /// Binds text without a copy (SQLITE_STATIC): step before the bytes go away.
    @inline(__always)
    func bindStatic(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) {
        let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
        sqlite3_bind_text(handle, index, base, Int32(bytes.count), nil)
    }

    /// Steps once: true for a row, false when done.
    @inline(__always)
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            sqlite3_reset(handle)
            throw BenchmarkError("sqlite3_step: \(code) \(String(cString: sqlite3_errmsg(connection)))")
        }
    }

    @inline(__always)
    func reset() {
        sqlite3_reset(handle)
    }

    @inline(__always)
    func int(at column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    @inline(__always)
    func double(at column: Int32) -> Double {
        sqlite3_column_double(handle, column)
    }

    /// The text of a column of the current row, valid until the next step.
    @inline(__always)
    func text(at column: Int32) -> UnsafeRawBufferPointer {
        let pointer = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }
}
