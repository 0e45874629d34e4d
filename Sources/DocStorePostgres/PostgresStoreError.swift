import DocStore
import Foundation
import PostgresNIO

/// Errors of the PostgreSQL backend that DocStore's own errors don't cover:
/// the server's, with its SQLSTATE, message, detail and hint.
public enum PostgresStoreError: LocalizedError, Sendable {
    /// The URL can't be read.
    case invalidURL(String, reason: String)
    /// The server refused a statement or the connection failed.
    case server(sqlState: String?, message: String, detail: String?, hint: String?, collection: String?)
    /// The server doesn't store text as UTF-8, which DocStore's strings need.
    case unsupportedEncoding(String)
    /// The store was closed.
    case closed
    /// No connection could be made to the server at a place (a host and port,
    /// or a socket), for a reason from the network or the operating system.
    case unreachable(String, reason: String)

    public var errorDescription: String? {
        switch self {
        case let .invalidURL(url, reason):
            return "Can't use the PostgreSQL URL \(Self.redacted(url)): \(reason)."
        case let .server(sqlState, message, detail, hint, collection):
            var text = "PostgreSQL"
            if let collection { text += " (collection \"\(collection)\")" }
            text += ": " + message
            if let sqlState { text += " [SQLSTATE \(sqlState)]" }
            if let detail { text += ". " + detail }
            if let hint { text += " Hint: " + hint }
            return text
        case let .unsupportedEncoding(encoding):
            return "The PostgreSQL database stores text as \(encoding); DocStore needs a UTF8 database (CREATE DATABASE … ENCODING 'UTF8')."
        case .closed:
            return "The PostgreSQL store is closed."
        case let .unreachable(place, reason):
            return "Can't connect to PostgreSQL at \(place): \(reason). Is the server running, and are the URL's host and port (or ?host= socket directory) right?"
        }
    }

    /// The URL without its password.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }

    /// The error of a statement whose connection closed (the server stopped, or
    /// the backend was ended): SQLSTATE 08006, a connection failure.
    static func connectionClosed(collection: String?) -> PostgresStoreError {
        .server(sqlState: "08006", message: "the connection to the server closed (the server stopped, or the connection was ended); nothing of the transaction was committed",
                detail: nil, hint: nil, collection: collection)
    }

    /// The error of a connection that closed before the server answered a
    /// COMMIT, or a statement run alone (its own transaction): PostgreSQL may
    /// have committed it or not, and no one can tell the client now (SQLSTATE
    /// 08007, transaction resolution unknown). It said "nothing … was
    /// committed", and a user who trusted it inserted twice (helper-57).
    static func outcomeUnknown(_ error: PostgresStoreError, committing: Bool) -> PostgresStoreError {
        // 57P01/57P02: the server ending the connection (a fast stop,
        // pg_terminate_backend) in answer to the commit, which it may have
        // made first: a commit is finished before such a request is heeded.
        guard case .server(let state?, _, _, _, let collection) = error, ["08006", "57P01", "57P02"].contains(state) else { return error }
        let what = committing ? "while the transaction was committing: PostgreSQL may have committed it or not"
            : "before it answered (the server stopped, or the connection was ended): if the statement wrote, PostgreSQL may have committed it or not"
        return .server(sqlState: "08007", message: "the connection to the server closed \(what)", detail: nil,
                       hint: "look at the data before running it again (a document inserted without a key would be inserted twice)",
                       collection: collection)
    }

    /// Whether `error` came with the end of its connection: the server
    /// ended it (57P01, 57P02), or it closed (08006, and 08007 at a commit).
    static func endsConnection(_ error: any Error) -> Bool {
        guard case .server(let state?, _, _, _, _) = error as? PostgresStoreError else { return false }
        return ["57P01", "57P02", "08006", "08007"].contains(state)
    }

    /// Whether a write may have been committed though it failed: the
    /// connection closed before the server could say (SQLSTATE 08007).
    public var mayHaveCommitted: Bool {
        if case .server("08007"?, _, _, _, _) = self { return true }
        return false
    }

    /// The pool's error when it stopped trying to connect after failures in a
    /// row (its circuit breaker): it was shown as
    /// `ConnectionPoolError(base: …connectionCreationCircuitBreakerTripped)`
    /// (helper-56). Its type lives in an underscored module of postgres-nio,
    /// so it is known by name.
    static func isPoolGivingUp(_ error: any Error) -> Bool {
        String(reflecting: type(of: error)).hasSuffix("ConnectionPoolError")
    }

    /// No connection to the server could be made: SQLSTATE 08001.
    static func noConnection(collection: String?) -> PostgresStoreError {
        .server(sqlState: "08001", message: "no connection to the server could be made (it stopped, or can't be reached), after trying for a while; nothing was run",
                detail: nil, hint: "Start the server (or mend the network), then run the command again; the pool waits a little after failures before it connects again.", collection: collection)
    }

    /// A postgres-nio error as DocStore reports it: a unique violation on a key
    /// is a duplicate key; anything else keeps the server's fields.
    static func from(_ error: any Error, collection: String?, key: DocumentKey? = nil) -> any Error {
        if isPoolGivingUp(error) { return noConnection(collection: collection) }
        guard let psql = error as? PSQLError else { return error }
        guard let info = psql.serverInfo else {
            // The connection went away (the server stopped, the backend was
            // ended): in words, not postgres-nio's code name.
            // clientClosedConnection: a statement sent on a connection already
            // closed, which printed "Generic description to prevent accidental
            // leakage of sensitive data" (helper-57).
            if [.serverClosedConnection, .uncleanShutdown, .clientClosedConnection].contains(psql.code) {
                return connectionClosed(collection: collection)
            }
            return PostgresStoreError.server(sqlState: nil, message: "\(psql.code)" + (psql.underlying.map { ": \($0)" } ?? ""),
                                             detail: nil, hint: nil, collection: collection)
        }
        let sqlState = info[.sqlState]
        if sqlState == "23505", let collection, let index = info[.constraintName], index.hasPrefix("docstore_ix_") {
            return UniqueIndexViolation(index: index, collection: collection, key: key)
        }
        if sqlState == "23505", let collection, let key {
            return DocStoreError.duplicateKey(collection: collection, key: key)
        }
        // A deadlock ended the caller's own transaction (DocStore's own are run
        // again, DeadlockRetry): what happened to it, and what to do.
        if sqlState == "40P01" {
            return PostgresStoreError.server(sqlState: sqlState, message: info[.message] ?? "deadlock detected", detail: info[.detail],
                                             hint: "PostgreSQL undid the whole transaction to end a deadlock with another connection: nothing of it was written; run it again",
                                             collection: collection)
        }
        // The server ended the connection while it ran a statement (an
        // administrator's pg_terminate_backend, a fast shutdown): the
        // transaction went with it. The server's words alone ("terminating
        // connection due to administrator command") didn't say so (helper-57).
        if let sqlState, ["57P01", "57P02"].contains(sqlState) {
            return PostgresStoreError.server(
                sqlState: sqlState, message: (info[.message] ?? "the server ended the connection") + "; nothing of the transaction was committed",
                detail: info[.detail], hint: "run it again when the server is back", collection: collection)
        }
        // lock_timeout (the REPL's --busy-timeout) passed while another session
        // held the collection: what holds it, and what to do, not the server's words.
        if sqlState == "55P03" {
            let what = collection == nil ? "a lock this statement needs" : "the collection (its own write, an import, an index or field change, a drop)"
            return PostgresStoreError.server(
                sqlState: sqlState, message: "another session held \(what) past the lock timeout; nothing was changed",
                detail: nil, hint: "run it again when that session is done, or wait longer (the REPL's --busy-timeout, PostgresDocumentStore's lockTimeout)", collection: collection)
        }
        // The collection's table dropped by another program: say so, as SQLite does.
        if sqlState == "42P01", let collection, info[.message] == "relation \"\(collection)\" does not exist" {
            return DocStoreError.missingTable(collection: collection)
        }
        // A real past a Double's range (a sum of 1e308s, a product): the same
        // error as on SQLite, not the server's digits.
        if sqlState == "22003", let collection, let message = info[.message],
           message.hasSuffix("out of range for type double precision") || message == "value out of range: overflow" {
            return DocStoreError.invalidQuery(collection: collection, field: nil,
                                              reason: "a sum or computed value goes past a Double's range (±1.8e308)")
        }
        // A btree row past its page's third (a long string key, a long indexed
        // value): what it is and what to do, not the server's byte counts alone.
        if sqlState == "54000", let message = info[.message], message.hasPrefix("index row size") {
            let index = message.components(separatedBy: "for index \"").last?.split(separator: "\"").first.map(String.init) ?? ""
            let what = index.hasSuffix("_pkey") ? "a key this long" : "a value this long in an indexed field (index \(index))"
            return PostgresStoreError.server(
                sqlState: sqlState, message: "PostgreSQL can't index \(what)\(key.map { " (document \($0))" } ?? ""): a btree row holds at most about 2.7 kB (\(message))",
                detail: nil, hint: index.hasSuffix("_pkey") ? "use shorter keys" : "shorten the value, or drop the index on that field", collection: collection)
        }
        return PostgresStoreError.server(sqlState: sqlState, message: info[.message] ?? "\(psql.code)", detail: info[.detail],
                                         hint: info[.hint], collection: collection)
    }
}

/// A write that broke one of DocStore's unique indexes (PostgreSQL names the
/// index; the collection turns it into ``DocStore/DocStoreError/uniqueConstraint(collection:fields:key:)``
/// naming the index's fields).
struct UniqueIndexViolation: Error {
    /// The PostgreSQL index's name.
    var index: String
    var collection: String
    var key: DocumentKey?
}
