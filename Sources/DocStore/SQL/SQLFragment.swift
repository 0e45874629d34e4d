/// A value bound to a `?` parameter of a compiled statement. Values given in a
/// query only ever reach SQLite this way, never in the SQL text.
public enum SQLBinding: Hashable, Sendable {
    case null
    case integer(Int64)
    case double(Double)
    case text(String)
    /// Raw bytes: the UTF-8 of a string matched byte by byte (prefix, suffix, substring).
    case blob([UInt8])
}

extension SQLBinding: CustomStringConvertible {
    /// The binding as `.explain` shows it: strings quoted and cut, blobs as their text.
    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let i): String(i)
        case .double(let d): "\(d)"
        case .text(let s): DocumentKey.quoted(s)
        case .blob(let bytes): "blob " + DocumentKey.quoted(String(decoding: bytes, as: UTF8.self))
        }
    }
}

/// A piece of SQL text with the values its `?` parameters take, in order. The
/// compiler builds statements by concatenating fragments, so bindings always
/// follow the text they belong to (swift-structured-queries' `QueryFragment`).
struct SQLFragment: Hashable, Sendable {
    var sql: String
    var bindings: [SQLBinding]

    init(_ sql: String, _ bindings: [SQLBinding] = []) {
        self.sql = sql
        self.bindings = bindings
    }

    /// One `?` bound to `binding`.
    static func bound(_ binding: SQLBinding) -> SQLFragment {
        SQLFragment("?", [binding])
    }

    static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs.sql + rhs.sql, lhs.bindings + rhs.bindings)
    }

    static func + (lhs: SQLFragment, rhs: String) -> SQLFragment {
        SQLFragment(lhs.sql + rhs, lhs.bindings)
    }

    static func + (lhs: String, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs + rhs.sql, rhs.bindings)
    }

    static func += (lhs: inout SQLFragment, rhs: SQLFragment) {
        lhs.sql += rhs.sql
        lhs.bindings += rhs.bindings
    }

    static func += (lhs: inout SQLFragment, rhs: String) {
        lhs.sql += rhs
    }

    /// The fragments separated by `separator` (`" AND "`, `", "`…).
    static func joined(_ fragments: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment("")
        for (i, fragment) in fragments.enumerated() {
            if i > 0 { result += separator }
            result += fragment
        }
        return result
    }
}

extension SQLFragment: ExpressibleByStringLiteral {
    init(stringLiteral value: String) { self.init(value) }
}
