import Foundation
import GRDB
import GRDBSQLite

/// One value read from a row of DocStore's catalog tables, checked before use.
///
/// DocStore writes every catalog value itself, so a value of another kind means
/// the file was changed outside DocStore. Reading it gives
/// ``DocStoreError/damagedCatalog(path:table:row:value:reason:)`` naming the table,
/// the row and the value, never a trap in a conversion (GRDB's `row[i]` subscripts
/// trap on a value they can't convert, so the catalog reads `DatabaseValue`s).
struct CatalogValue {
    let value: DatabaseValue
    let table: String
    /// Which row, for the message: `name 'players'`.
    let row: String
    let path: String

    /// The value in column `column` of `row`, read as a `DatabaseValue` (which
    /// never fails).
    init(_ row: Row, _ column: Int, table: String, rowName: String, db: Database) {
        self.value = row[column] as DatabaseValue
        self.table = table
        self.row = rowName
        self.path = Self.path(of: db)
    }

    init(_ value: DatabaseValue, table: String, rowName: String, db: Database) {
        self.value = value
        self.table = table
        self.row = rowName
        self.path = Self.path(of: db)
    }

    /// The value as text; anything else is damage.
    func text() throws(DocStoreError) -> String {
        guard case .string(let text) = value.storage else { throw damaged("expected text") }
        return text
    }

    /// The value as an integer within `range`; anything else is damage.
    func integer(in range: ClosedRange<Int64>) throws(DocStoreError) -> Int64 {
        guard case .int64(let number) = value.storage else { throw damaged("expected an integer") }
        guard range.contains(number) else {
            throw damaged("expected an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// The error for this value.
    func damaged(_ reason: String) -> DocStoreError {
        .damagedCatalog(path: path, table: table, row: row, value: Self.describe(value), reason: reason)
    }

    /// A short, printable rendering of a value of any storage class.
    static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let number): return "\(number) (integer)"
        case .double(let number): return "\(number) (real)"
        case .string(let text):
            let shown = text.count > 60 ? text.prefix(60) + "…" : Substring(text)
            return DocumentKey.quoted(String(shown)) + " (text)"
        case .blob(let data):
            let hex = data.prefix(16).map { String(format: "%02x", $0) }.joined()
            return "x'\(hex)\(data.count > 16 ? "…" : "")' (blob of \(data.count) bytes)"
        }
    }

    /// The row's identity for messages, from its name column, whatever that holds.
    static func rowName(_ row: Row, column: Int = 0, label: String = "name") -> String {
        let value = row[column] as DatabaseValue
        if case .string(let text) = value.storage { return "\(label) \(DocumentKey.quoted(text))" }
        return "\(label) \(describe(value))"
    }

    /// The file of the connection's main database, or ":memory:".
    static func path(of db: Database) -> String {
        guard let name = sqlite3_db_filename(db.sqliteConnection, "main") else { return ":memory:" }
        let path = String(cString: name)
        return path.isEmpty ? ":memory:" : path
    }
}
