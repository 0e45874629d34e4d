import Foundation
import GRDB

/// Case-insensitive matching, done by one Swift function on both sides so that SQL
/// and the evaluator agree for every Unicode string: the evaluator calls
/// ``fold(_:)``; SQL calls the same function registered on every connection as
/// `docstore_fold(blob)`.
enum CaseFolding {
    /// The name of the SQL function.
    static let functionName = "docstore_fold"

    /// Swift's own case mapping (`lowercased()`, Unicode's full default mapping,
    /// independent of locale).
    static func fold(_ text: String) -> String {
        text.lowercased()
    }

    /// `docstore_fold(x)`: the UTF-8 bytes of `x` folded, as a blob. It takes and
    /// returns blobs because text may hold NUL, which a C string would cut.
    /// Deterministic, so SQLite may evaluate it once per row and in any order.
    static let function = DatabaseFunction(functionName, argumentCount: 1, pure: true) { values in
        guard let bytes = Data.fromDatabaseValue(values[0]) else { return nil }
        return Data(fold(String(decoding: bytes, as: UTF8.self)).utf8)
    }
}
