import DocStorePostgres
import Synchronization

/// Tells a command that waits for a PostgreSQL server which went away why it
/// waits, within seconds.
///
/// postgres-nio's pool tries again and again to connect when it has no
/// connection left, for about a minute, before a waiting statement fails: a
/// command typed after the server stopped gave no prompt for 70 s (helper-56).
/// While a command runs longer than ``firstCheck``, every PostgreSQL store the
/// session has open is asked directly (``PostgresDocumentStore/checkServer(timeout:)``),
/// at most every ``interval``; when one can't be reached, the command is
/// cancelled and fails with that store's reason ("No such file or directory").
/// A command that runs long on a server that answers goes on untouched.
enum ServerWatch {
    /// How long a command runs before the servers are first asked.
    static let firstCheck: Duration = .seconds(2)
    /// How long between two checks while the command still runs.
    static let interval: Duration = .seconds(5)

    /// The check ``AsyncBridge/wait(interruption:stuck:_:)`` asks: at once
    /// while a server was last found unreachable, so the commands after the
    /// first fail without waiting too.
    /// A verdict of the last 3 s is taken as it is: a server that accepts
    /// connections and never answers takes the check's whole time to find out,
    /// for each of the several waits of a command.
    static let check = AsyncBridge.Check(first: { lastVerdict.withLock { $0 } == nil ? firstCheck : .zero }, interval: interval) {
        if let (reason, at) = lastVerdict.withLock({ $0 }), ContinuousClock.now - at < .seconds(3) { return reason }
        let reason = await unreachableServer()
        lastVerdict.withLock { $0 = reason.map { ($0, ContinuousClock.now) } }
        return reason
    }

    /// The last check's finding of a server that can't be reached, and when.
    private static let lastVerdict = Mutex<(PostgresStoreError, ContinuousClock.Instant)?>(nil)

    /// The PostgreSQL stores open in this process (a session's, or a copy's
    /// source and destination).
    private static let open = Mutex<[ObjectIdentifier: PostgresDocumentStore]>([:])

    static func watch(_ store: PostgresDocumentStore) {
        open.withLock { $0[ObjectIdentifier(store)] = store }
    }

    static func unwatch(_ store: PostgresDocumentStore) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(store)) }
    }

    /// Why a store open in this process can't reach its server, or nil when
    /// they all can (or none is open). A server that refuses the connection
    /// for a passing reason (too many connections) answered: only an
    /// unreachable server, one shutting down, or a database no longer there
    /// counts, so a long statement is never cancelled because the server is busy.
    static func unreachableServer() async -> PostgresStoreError? {
        for store in open.withLock({ Array($0.values) }) {
            do {
                try await store.checkServer()
            } catch let error as PostgresStoreError {
                if case .unreachable = error { return error }
                // Shutting down (57P…), or the database dropped (3D000: a
                // waiting command waited a minute, then blamed the network).
                if case let .server(sqlState?, _, _, _, _) = error, sqlState.hasPrefix("57P") || sqlState == "3D000" { return error }
            } catch {
                continue
            }
        }
        return nil
    }
}
